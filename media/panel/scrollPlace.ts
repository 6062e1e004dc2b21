// Where the person is in the conversation on screen, kept across a window reload (the page's saved state).
// A place is a turn and how far into it the top of the view is, not a pixel offset: after a reload, older
// turns of a long conversation arrive brief (briefTurnLoader.ts) and answers far from view render late,
// so the pixels above the place change while the page fills in. The place is put back each time they do,
// until the person scrolls, clicks or types.
//
// While the person reads further up, the turn they read stays put as turns above it fill in or take their real
// height. The browser's scroll anchoring does most of that; it can anchor to a turn cut at the top of the view
// and then let that turn's growth push the view down (a CI run saw 238 px). So the turn that starts in the view
// is remembered on each scroll and put back after each resize; when the browser already kept it, nothing moves.

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
  /** The turn the person reads (the first that starts in the view) and where; null at the end. */
  private reading: ScrollPlace | null = null;
  /** Where our own last putting back left the view. */
  private ownScrollTop: number | null = null;
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
    scroller.addEventListener(
      "scroll",
      () => {
        // A scroll of our own put the place back: what moved since is not the person reading elsewhere.
        const own = this.ownScrollTop !== null && Math.abs(this.scroller.scrollTop - this.ownScrollTop) < 1;
        this.ownScrollTop = null;
        if (!own) this.reading = this.pinned === null ? this.placeAt("startingInView") : null;
        this.scheduleSave();
      },
      { passive: true },
    );
    // The person moving the view ends the restoring: from then on the place is theirs.
    for (const type of ["wheel", "pointerdown", "keydown", "touchstart"]) scrollArea.addEventListener(type, () => this.unpin(), { passive: true });
    this.resizes = new ResizeObserver(() => this.contentChanged());
    this.resizes.observe(content);
  }

  /** Where the top of the view is now; null at the end of the conversation or in a new chat. */
  current(): ScrollPlace | null {
    return this.placeAt("atTop");
  }

  /**
   * `atTop`: the turn at the top of the view. `startingInView`: the first turn whose top is in the view, so that a
   * turn cut at the top, which may still grow, is not the one kept in place; the turn at the top when none starts
   * in the view.
   */
  private placeAt(which: "atTop" | "startingInView"): ScrollPlace | null {
    const conversationId = this.source.conversationId();
    if (conversationId === null || this.source.atEnd()) return null;
    const top = this.scroller.getBoundingClientRect().top;
    const turnIds = this.source.turnIds();
    // The first turn whose bottom is below the top of the view (turns are laid out in order: bisect).
    let low = 0;
    let high = turnIds.length - 1;
    let found: { index: number; turnId: string; rect: DOMRect } | null = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const turnId = turnIds[middle] as string;
      const rect = this.source.element(turnId)?.getBoundingClientRect();
      if (rect === undefined) return null;
      if (rect.bottom > top) {
        found = { index: middle, turnId, rect };
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    if (found === null) return null;
    if (which === "startingInView" && found.rect.top < top - 1) {
      const nextId = turnIds[found.index + 1];
      const next = nextId === undefined ? undefined : this.source.element(nextId)?.getBoundingClientRect();
      if (nextId !== undefined && next !== undefined && next.top < this.scroller.getBoundingClientRect().bottom) return { conversationId, turnId: nextId, offset: top - next.top };
    }
    return { conversationId, turnId: found.turnId, offset: which === "atTop" ? Math.round(top - found.rect.top) : top - found.rect.top };
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
    else if (this.reading !== null && !this.source.atEnd() && this.reading.conversationId === this.source.conversationId()) this.apply(this.reading);
  }

  /** Another conversation, a sent message, Jump to latest: the restored place no longer matters. */
  release(): void {
    this.reading = null;
    this.unpin();
  }

  private unpin(): void {
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
    if (Math.abs(this.scroller.scrollTop - wanted) >= 1) {
      this.scroller.scrollTop = wanted;
      this.ownScrollTop = this.scroller.scrollTop;
    }
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
