import type { TurnView } from "../../src/panel/protocol";
import { BriefTurnLoader } from "./briefTurnLoader";
import { element } from "./dom";
import type { Localizer } from "./localizer";
import { textAcrossStowedTurns } from "./stowedTurnCopy";
import { TurnElement } from "./turnElement";
import { isFinished } from "./turnSizes";
import type { TurnHandlers } from "./turnElement";
import { TurnStower } from "./turnStower";

/** How many turns at the end of the list render their answers at once; the others when they come near
 * (the observer finds the visible ones before the next frame is painted). */
export const EAGER_TURNS = 1;

/**
 * When a conversation opens, the turns before its newest this many start stowed (TurnElement.openStowed):
 * three groups, more than a tall side bar shows, so what is on screen at the end is rendered at once.
 */
export const RENDERED_AT_OPEN = 48;

/**
 * Turns are laid out in groups of this many: when the newest turn grows, the browser lays out its group
 * and steps over the other groups, instead of stepping over every earlier turn.
 */
const TURNS_PER_GROUP = 16;

/**
 * The conversation's turns, keyed by turn id. A snapshot lays them all out; a patch updates only the
 * turns it names and moves or drops the others, so a change never costs more with a longer conversation.
 * Answers of turns far from view are rendered when they scroll near (an IntersectionObserver), so opening
 * a long conversation costs about as much as opening a short one; turns far from view in a long session are
 * stowed (turnStower.ts), so its DOM stays about the size of what is near.
 */
export class TurnList {
  readonly root: HTMLElement;
  private turns = new Map<string, TurnElement>();
  private order: string[] = [];
  private busy = false;
  /** Tool calls wait for the person's approval: the running turn's progress line says so. */
  private waitingForApproval = false;
  /** Turns seen unfinished, so their end can be announced once. */
  private readonly running = new Set<string>();
  private observer: IntersectionObserver | null = null;
  private readonly groups: HTMLElement[] = [];
  private readonly byElement = new WeakMap<Element, TurnElement>();
  private readonly briefTurns: BriefTurnLoader;
  private readonly stower: TurnStower;

  constructor(
    private readonly handlers: TurnHandlers,
    private readonly announce: (text: string) => void,
    private readonly localizer: Localizer,
    /** The scrolling element the list is in: "near" is measured against it. */
    private readonly scrollRoot: HTMLElement | null = null,
    /** Asks the host for the whole views of brief turns (see TurnView.brief). */
    loadTurns: (turnIds: string[]) => void = () => undefined,
  ) {
    this.briefTurns = new BriefTurnLoader(scrollRoot, loadTurns, () => this.order);
    this.stower = new TurnStower(scrollRoot, (child) => this.byElement.get(child));
    this.root = element("div", {
      className: "turn-list",
      attributes: { role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-label": localizer.text("Chat messages") },
    });
  }

  /** All turns, as a snapshot has them. */
  reset(turns: readonly TurnView[], busy: boolean): void {
    this.busy = busy;
    this.briefTurns.restart();
    this.opening();
    turns.forEach((turn, index) => this.upsert(turn, index >= turns.length - EAGER_TURNS, index < turns.length - RENDERED_AT_OPEN));
    this.arrange(turns.map((turn) => turn.id));
  }

  /** Another conversation is about to replace the turns: which groups are near is found again. */
  opening(): void {
    this.stower.restart(this.groups);
  }

  /**
   * Adds or updates one turn; it is placed by the next `arrange` (a new turn goes last until then). A
   * turn that is not `nearEnd` may wait to render its answer until it scrolls into view; a new one `farAtOpen`
   * (a conversation opening) starts stowed, and renders when it comes near.
   */
  upsert(turn: TurnView, nearEnd = true, farAtOpen = false): void {
    let turnElement = this.turns.get(turn.id);
    if (turnElement === undefined) {
      turnElement = new TurnElement(turn.id, this.handlers, this.localizer);
      this.turns.set(turn.id, turnElement);
      this.byElement.set(turnElement.root, turnElement);
      this.order.push(turn.id);
      this.groupFor(this.order.length - 1).appendChild(turnElement.root);
      if (farAtOpen && this.scrollRoot !== null && turnElement.openStowed(turn, { busy: this.busy, isNewest: false })) {
        if (turn.brief !== undefined) this.briefTurns.watch(turn.id, turnElement.root);
        return;
      }
      turnElement.setWaitingForApproval(this.waitingForApproval, this.localizer);
      const previousNewest = this.order[this.order.length - 2];
      if (previousNewest !== undefined) this.turns.get(previousNewest)?.setContext({ busy: this.busy, isNewest: false });
    }
    const hadSummary = turnElement.hasSummary;
    turnElement.update(turn, { localizer: this.localizer, busy: this.busy, isNewest: this.order[this.order.length - 1] === turn.id, deferAnswer: !nearEnd && this.scrollRoot !== null });
    if (turnElement.hasSummary !== hadSummary) this.markSummarized();
    if (turn.brief !== undefined) this.briefTurns.watch(turn.id, turnElement.root);
    else this.briefTurns.settled(turn.id);
    if (!nearEnd && turn.brief === undefined) this.observeDeferred(turnElement);
    const group = turnElement.root.parentElement;
    if (group !== null) this.stower.placed(turnElement, group);
    this.announceEnd(turn);
  }

  private observeDeferred(turnElement: TurnElement): void {
    if (this.scrollRoot === null) return;
    this.observer ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          this.observer?.unobserve(entry.target);
          this.byElement.get(entry.target)?.renderDeferredAnswer();
        }
      },
      // A screenful or two ahead, so scrolling up finds the answers already there.
      { root: this.scrollRoot, rootMargin: "1500px 0px" },
    );
    this.observer.observe(turnElement.root);
  }

  /** Puts the turns in this order and drops the ones not listed. */
  arrange(turnIds: readonly string[]): void {
    const previousNewest = this.order[this.order.length - 1];
    const listed = new Set(turnIds);
    for (const [turnId, turnElement] of this.turns) {
      if (listed.has(turnId)) continue;
      this.observer?.unobserve(turnElement.root);
      this.briefTurns.settled(turnId);
      turnElement.root.remove();
      this.turns.delete(turnId);
      this.running.delete(turnId);
    }
    this.order = turnIds.filter((turnId) => this.turns.has(turnId));
    let previousNode: Node | null = null;
    this.order.forEach((turnId, index) => {
      const turnElement = this.turns.get(turnId) as TurnElement;
      const group = this.groupFor(index);
      if (index % TURNS_PER_GROUP === 0) previousNode = null;
      const expectedPosition: Node | null = previousNode === null ? group.firstChild : previousNode.nextSibling;
      if (turnElement.root !== expectedPosition) {
        group.insertBefore(turnElement.root, expectedPosition);
        this.stower.placed(turnElement, group);
      }
      previousNode = turnElement.root;
    });
    this.markSummarized();
    // Groups past the last turn are empty now: drop them.
    while (this.groups.length > Math.ceil(this.order.length / TURNS_PER_GROUP)) {
      const group = this.groups.pop() as HTMLElement;
      this.stower.forget(group);
      group.remove();
    }
    const newest = this.order[this.order.length - 1];
    if (previousNewest !== newest) {
      if (previousNewest !== undefined) this.turns.get(previousNewest)?.setContext({ busy: this.busy, isNewest: false });
      if (newest !== undefined) this.turns.get(newest)?.setContext({ busy: this.busy, isNewest: true });
    }
  }

  /**
   * The turns down to the newest one with a summary in effect were replaced by it in what is sent: they
   * are marked, and shown collapsed under its "Summarized" group. Done when the order or a summary changed.
   */
  private markSummarized(): void {
    let last = -1;
    this.order.forEach((turnId, index) => {
      if (this.turns.get(turnId)?.hasSummary) last = index;
    });
    this.order.forEach((turnId, index) => this.turns.get(turnId)?.root.classList.toggle("summarized", index <= last));
  }

  private groupFor(index: number): HTMLElement {
    const groupIndex = Math.floor(index / TURNS_PER_GROUP);
    while (this.groups.length <= groupIndex) {
      const group = element("div", { className: "turn-group" });
      this.groups.push(group);
      this.root.appendChild(group);
      this.stower.watch(group);
    }
    return this.groups[groupIndex] as HTMLElement;
  }

  /** While a turn runs, earlier turns cannot be edited, regenerated or retried. */
  setBusy(busy: boolean): void {
    if (busy === this.busy) return;
    this.busy = busy;
    const newest = this.order[this.order.length - 1];
    for (const [turnId, turnElement] of this.turns) turnElement.setContext({ busy, isNewest: turnId === newest });
  }

  setWaitingForApproval(waiting: boolean): void {
    if (waiting === this.waitingForApproval) return;
    this.waitingForApproval = waiting;
    for (const turnElement of this.turns.values()) turnElement.setWaitingForApproval(waiting, this.localizer);
  }

  showContentWait(turnId: string, seconds: number | null): void {
    this.turns.get(turnId)?.setContentWait(seconds, this.localizer);
  }

  /** False when the turn is unknown or not streaming. */
  appendAnswer(turnId: string, delta: string): boolean {
    return this.turns.get(turnId)?.appendAnswer(delta) ?? false;
  }

  /**
   * What copying `selection` should put on the clipboard when it spans stowed turns (their text is not
   * rendered, so the browser's copy would leave them out); null when it spans none.
   */
  copyText(selection: Selection): string | null {
    const stowed = this.order.flatMap((turnId) => {
      const text = this.turns.get(turnId)?.stowedCopyText;
      const root = this.turns.get(turnId)?.root;
      return text === null || text === undefined || root === undefined ? [] : [{ root, text }];
    });
    return stowed.length === 0 ? null : textAcrossStowedTurns(selection, stowed);
  }

  /** The turns on screen, oldest first. */
  get ids(): readonly string[] {
    return this.order;
  }

  element(turnId: string): HTMLElement | null {
    return this.turns.get(turnId)?.root ?? null;
  }

  private announceEnd(turn: TurnView): void {
    if (!isFinished(turn)) {
      this.running.add(turn.id);
    } else if (this.running.delete(turn.id)) {
      this.announce(turn.outcome === "completed" ? this.localizer.text("Answer complete") : this.localizer.format("Answer ended: {0}", turn.outcomeLabel));
    }
  }
}
