// Where the person is in the conversation on screen, kept across a window reload (the page's saved state).
// A place is a turn and how far into it the top of the view is, not a pixel offset: after a reload, older
// turns of a long conversation arrive brief (briefTurnLoader.ts) and answers far from view render late,
// so the pixels above the place change while the page fills in. The place is put back each time they do,
// until the person scrolls, clicks or types.

/** Where the top of the view was; absent from the saved state when the view was at the conversation's end. */
export interface ScrollPlace {
  readonly conversationId: string;
  readonly turnId: string;
  /** Pixels from the turn's top to the top of the view (negative: the view starts above the turn). */
  readonly offset: number;
}

/** Saving waits for scrolling to pause: VS Code stores each saved state it is given. */
const SAVE_DELAY_MS = 150;

/** Layout settles within a few frames of a change; the place is put back over this many. */
const SETTLE_FRAMES = 30;

export interface ScrollPlaceSource {
  /** The conversation on screen; null for a new chat. */
  conversationId(): string | null;
  /** The turns on screen, oldest first. */
  turnIds(): readonly string[];
  element(turnId: string): HTMLElement | null;
  /** True when the view follows the conversation's end (nothing to remember). */
  atEnd(): boolean;
}

export class ScrollPlaceKeeper {
  /** The place being put back after a reload; null once the person moved (or there was none). */
  private pinned: ScrollPlace | null = null;
  private settleFrame: number | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly resizes: ResizeObserver;

  constructor(
    private readonly scroller: HTMLElement,
    /** The scroller and what floats over it (Jump to latest): input there is the person moving the view. */
    scrollArea: HTMLElement,
    /** What grows as turns fill in and answers render. */
    content: HTMLElement,
    private readonly source: ScrollPlaceSource,
    private readonly save: (place: ScrollPlace | null) => void,
  ) {
    scroller.addEventListener("scroll", () => this.scheduleSave(), { passive: true });
    // The person moving the view ends the restoring: from then on the place is theirs.
    for (const type of ["wheel", "pointerdown", "keydown", "touchstart"]) scrollArea.addEventListener(type, () => this.release(), { passive: true });
    this.resizes = new ResizeObserver(() => this.contentChanged());
    this.resizes.observe(content);
  }

  /** Where the top of the view is now; null at the end of the conversation or in a new chat. */
  current(): ScrollPlace | null {
    const conversationId = this.source.conversationId();
    if (conversationId === null || this.source.atEnd()) return null;
    const top = this.scroller.getBoundingClientRect().top;
    const turnIds = this.source.turnIds();
    // The first turn whose bottom is below the top of the view (turns are laid out in order: bisect).
    let low = 0;
    let high = turnIds.length - 1;
    let found: { turnId: string; rect: DOMRect } | null = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const turnId = turnIds[middle] as string;
      const rect = this.source.element(turnId)?.getBoundingClientRect();
      if (rect === undefined) return null;
      if (rect.bottom > top) {
        found = { turnId, rect };
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    return found === null ? null : { conversationId, turnId: found.turnId, offset: Math.round(top - found.rect.top) };
  }

  /**
   * Puts the view back at `place` when it is in the conversation on screen; false when it is not (the
   * view then starts at the end, as a conversation does).
   */
  restore(place: ScrollPlace): boolean {
    if (place.conversationId !== this.source.conversationId() || this.source.element(place.turnId) === null) return false;
    this.pinned = place;
    this.settle();
    return true;
  }

  /** The page's content changed (turns filled in, answers rendered): a place being restored is put back. */
  contentChanged(): void {
    if (this.pinned !== null) this.apply(this.pinned);
  }

  /** Another conversation, a sent message, Jump to latest: the restored place no longer matters. */
  release(): void {
    this.pinned = null;
    if (this.settleFrame !== undefined) cancelAnimationFrame(this.settleFrame);
    this.settleFrame = undefined;
  }

  private settle(): void {
    if (this.settleFrame !== undefined) cancelAnimationFrame(this.settleFrame);
    let frames = 0;
    const step = () => {
      this.settleFrame = undefined;
      if (this.pinned === null) return;
      this.apply(this.pinned);
      frames += 1;
      if (frames < SETTLE_FRAMES) this.settleFrame = requestAnimationFrame(step);
    };
    step();
  }

  private apply(place: ScrollPlace): void {
    const turn = this.source.element(place.turnId);
    if (turn === null) return this.release();
    const wanted = this.scroller.scrollTop + (turn.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top) + place.offset;
    if (Math.abs(this.scroller.scrollTop - wanted) >= 1) this.scroller.scrollTop = wanted;
  }

  private scheduleSave(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      // While the place is being put back, it is still the saved one.
      if (this.pinned === null) this.save(this.current());
    }, SAVE_DELAY_MS);
  }
}
