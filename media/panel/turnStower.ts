// Keeps a long live session's DOM about the size of what is near the view. Turns sit in groups
// (turnList.ts); a group far from the visible part of the list has its finished turns stowed (TurnElement.stow:
// one hidden element with the turn's text instead of its rendered DOM), and a group coming near has them
// rendered again from the turn views the page keeps. A reopened conversation holds its older turns back the
// same way (brief turns, deferred answers), so a session of 1,000 turns costs the page about what 50 do.
//
// One IntersectionObserver watches the groups, not the turns: a list of 1,000 turns has about 60 targets.

/** How far beyond the visible part a group stays rendered: a few screens, so scrolling finds turns there. */
const RENDERED_MARGIN_PX = 4000;

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
  }

  forget(group: HTMLElement): void {
    this.observer?.unobserve(group);
    this.farGroups.delete(group);
  }

  /**
   * A turn changed or moved into `group` after the group was observed: in a far group it is stowed too (a turn
   * that finished after the reader scrolled away, turns shifted by a removed one), in a near one shown.
   */
  placed(turn: StowableTurn, group: Element): void {
    if (!this.farGroups.has(group)) turn.unstow();
    else if (turn.canStow) turn.stow(turn.root.getBoundingClientRect().height);
  }

  private observed(entries: readonly IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const turns = [...entry.target.children].flatMap((child) => this.turnOf(child) ?? []);
      if (entry.isIntersecting) {
        this.farGroups.delete(entry.target);
        for (const turn of turns) turn.unstow();
        continue;
      }
      this.farGroups.add(entry.target);
      // Every height is read before any turn changes, so the layout is computed once.
      const toStow = turns.filter((turn) => turn.canStow);
      const heights = toStow.map((turn) => turn.root.getBoundingClientRect().height);
      toStow.forEach((turn, index) => turn.stow(heights[index] ?? 0));
    }
  }
}
