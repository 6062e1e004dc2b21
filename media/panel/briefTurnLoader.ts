import { MAX_TURNS_PER_LOAD } from "../../src/panel/protocol";
import { whenIdle } from "./whenIdle";

/** Brief turns asked for in one idle moment: small batches keep each reply's parse and layout short. */
const IDLE_BATCH = 8;

/**
 * Asks the host for the whole views of brief turns (a long conversation's older turns, sent without their
 * answers when it opened): a turn coming near the visible part of the list is asked for at once, and the
 * rest in small batches when the page is idle, newest first, so the whole conversation is soon complete.
 * One batch at a time is in flight; a turn that left the list is not asked for again.
 */
export class BriefTurnLoader {
  private readonly brief = new Map<string, Element>();
  private readonly byElement = new WeakMap<Element, string>();
  /** Asked for, the reply not in yet. */
  private readonly asked = new Set<string>();
  /** Came near since the last request went out. */
  private readonly near = new Set<string>();
  private observer: IntersectionObserver | null = null;
  private flushQueued = false;
  private idleQueued = false;

  constructor(
    /** The scrolling element: "near" is measured against it (none: every brief turn is asked for at once). */
    private readonly scrollRoot: HTMLElement | null,
    /** Posts the request (the page adds the conversation on screen). */
    private readonly load: (turnIds: string[]) => void,
    /** The turns on screen, oldest first. */
    private readonly order: () => readonly string[],
  ) {}

  /** The turn is brief on the page: it is asked for when it comes near, or when the page is idle. */
  watch(turnId: string, root: Element): void {
    if (this.brief.get(turnId) === root) return;
    this.brief.set(turnId, root);
    this.byElement.set(root, turnId);
    if (this.scrollRoot === null) this.comeNear(turnId);
    else this.observerFor(this.scrollRoot).observe(root);
    this.scheduleIdle();
  }

  /** A snapshot came: whatever was asked before it may not be answered (the host starts over). */
  restart(): void {
    this.asked.clear();
    this.near.clear();
  }

  /** The turn's whole view arrived (or it left the list): nothing more to ask for it. */
  settled(turnId: string): void {
    const root = this.brief.get(turnId);
    if (root !== undefined) this.observer?.unobserve(root);
    this.brief.delete(turnId);
    this.near.delete(turnId);
    this.asked.delete(turnId);
    this.scheduleIdle();
  }

  private observerFor(root: HTMLElement): IntersectionObserver {
    this.observer ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const turnId = entry.isIntersecting ? this.byElement.get(entry.target) : undefined;
          if (turnId !== undefined && this.brief.get(turnId) === entry.target) this.comeNear(turnId);
        }
      },
      // Well ahead of the visible part: scrolling up finds the answers there, not placeholders.
      { root, rootMargin: "3000px 0px" },
    );
    return this.observer;
  }

  private comeNear(turnId: string): void {
    if (this.asked.has(turnId)) return;
    this.near.add(turnId);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.ask([...this.near]);
      this.near.clear();
    });
  }

  private ask(turnIds: string[]): void {
    const wanted = turnIds.filter((turnId) => this.brief.has(turnId) && !this.asked.has(turnId));
    for (let start = 0; start < wanted.length; start += MAX_TURNS_PER_LOAD) {
      const batch = wanted.slice(start, start + MAX_TURNS_PER_LOAD);
      for (const turnId of batch) this.asked.add(turnId);
      this.load(batch);
    }
  }

  /** The next idle batch goes out once the previous replies are in. */
  private scheduleIdle(): void {
    if (this.idleQueued || this.asked.size > 0 || this.brief.size === 0) return;
    this.idleQueued = true;
    whenIdle(() => {
      this.idleQueued = false;
      if (this.asked.size > 0) return;
      const newestFirst = [...this.order()].reverse().filter((turnId) => this.brief.has(turnId));
      this.ask(newestFirst.slice(0, IDLE_BATCH));
    }, 2000);
  }
}
