import { whenIdle } from "./whenIdle";

// Keeps a long live session's DOM about the size of what is near the view. Turns sit in groups
// (turnList.ts); a group far from the visible part of the list has its finished turns stowed (TurnElement.stow:
// one hidden element with the turn's text instead of its rendered DOM), and a group coming near has them
// rendered again from the turn views the page keeps. A reopened conversation holds its older turns back the
// same way (brief turns, deferred answers), so a session of 1,000 turns costs the page about what 50 do.
//
// One IntersectionObserver watches the groups, not the turns: a list of 1,000 turns has about 60 targets.
//
// Showing a turn again is urgent (it is about to scroll into view); stowing is not (it only frees memory). So
// turns are stowed a few at a time when the page is idle: a whole group stowed at once, while a long answer
// streamed and pushed the group out of range, took one task of 30 ms of CPU (54 ms wall) in bench:session.

/** How far beyond the visible part a group stays rendered: a few screens, so scrolling finds turns there. */
const RENDERED_MARGIN_PX = 4000;

/** Turns stowed in one go: their heights are read together (one layout), then each is stowed. */
const STOW_BATCH = 4;

/** An idle moment is used while this much of it is left (requestIdleCallback's deadline). */
const IDLE_MS_NEEDED = 3;

/** A page never idle (a long stream) still stows, this long after asking. */
const IDLE_TIMEOUT_MS = 1000;

export interface StowableTurn {
  readonly root: HTMLElement;
  readonly isStowed: boolean;
  readonly canStow: boolean;
  /** False when the turn is not stowable now (it runs, or has a summary). */
  stow(heightPx: number): boolean;
  unstow(): void;
}

export class TurnStower {
  private observer: IntersectionObserver | null = null;
  /** Groups found far from view by the last observation. */
  private readonly farGroups = new WeakSet<Element>();
  /** Turns of far groups waiting for an idle moment to be stowed, in the order they were found. */
  private readonly waiting = new Set<StowableTurn>();
  private idleQueued = false;
  /** Groups watched whose first observation has not come yet: whether they are near is that observation's to say. */
  private readonly unobserved = new WeakSet<Element>();

  constructor(
    /** The scrolling element: "far" is measured against it (none: nothing is stowed). */
    private readonly scrollRoot: HTMLElement | null,
    /** The turn an element of a group is, if any. */
    private readonly turnOf: (element: Element) => StowableTurn | undefined,
  ) {}

  watch(group: HTMLElement): void {
    if (this.scrollRoot === null) return;
    this.observer ??= new IntersectionObserver((entries) => this.observed(entries), { root: this.scrollRoot, rootMargin: `${RENDERED_MARGIN_PX}px 0px` });
    this.observer.observe(group);
    this.unobserved.add(group);
  }

  /** Another conversation opens in these groups: what is near is observed afresh (the turns in them are new). */
  restart(groups: readonly HTMLElement[]): void {
    this.waiting.clear();
    for (const group of groups) {
      this.forget(group);
      this.watch(group);
    }
  }

  forget(group: HTMLElement): void {
    this.observer?.unobserve(group);
    this.farGroups.delete(group);
  }

  /**
   * A turn changed or moved into `group` after the group was observed: in a far group it is stowed too (a turn
   * that finished after the reader scrolled away, turns shifted by a removed one), in a near one shown; in a group
   * not observed yet, the observation decides.
   */
  placed(turn: StowableTurn, group: Element): void {
    if (this.unobserved.has(group)) return;
    if (!this.farGroups.has(group)) {
      this.waiting.delete(turn);
      turn.unstow();
    } else if (turn.canStow) {
      this.stowWhenIdle([turn]);
    }
  }

  private observed(entries: readonly IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      this.unobserved.delete(entry.target);
      const turns = [...entry.target.children].flatMap((child) => this.turnOf(child) ?? []);
      if (entry.isIntersecting) {
        this.farGroups.delete(entry.target);
        for (const turn of turns) {
          this.waiting.delete(turn);
          turn.unstow();
        }
      } else {
        this.farGroups.add(entry.target);
        this.stowWhenIdle(turns.filter((turn) => turn.canStow));
      }
    }
  }

  private stowWhenIdle(turns: readonly StowableTurn[]): void {
    for (const turn of turns) this.waiting.add(turn);
    if (this.idleQueued || this.waiting.size === 0) return;
    this.idleQueued = true;
    whenIdle((timeLeft, timedOut) => {
      this.idleQueued = false;
      // A short idle moment is left alone (the next frame is due), unless the page has been busy too long.
      for (let overdue = timedOut; this.waiting.size > 0 && (overdue || timeLeft() >= IDLE_MS_NEEDED); overdue = false) this.stowSome();
      if (this.waiting.size > 0) this.stowWhenIdle([]);
    }, IDLE_TIMEOUT_MS);
  }

  private stowSome(): void {
    const batch: StowableTurn[] = [];
    for (const turn of this.waiting) {
      this.waiting.delete(turn);
      // Still in a far group (the reader may have come back), still on the page, still stowable.
      const group = turn.root.parentElement;
      if (group !== null && turn.root.isConnected && this.farGroups.has(group) && turn.canStow) batch.push(turn);
      if (batch.length === STOW_BATCH) break;
    }
    // Every height is read before any turn changes, so the layout is computed once.
    const heights = batch.map((turn) => turn.root.getBoundingClientRect().height);
    batch.forEach((turn, index) => turn.stow(heights[index] ?? 0));
  }
}
