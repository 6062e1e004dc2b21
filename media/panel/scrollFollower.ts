import { element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

// Within this distance of the bottom the view follows new text; further up, the user is reading.
const FOLLOW_THRESHOLD_PIXELS = 48;

/**
 * Keeps the newest text in view while the user is at the bottom, and leaves them alone when they scrolled
 * up: then a "Jump to latest" button shows, with a dot when new text arrived below.
 */
export class ScrollFollower {
  readonly jumpButton: HTMLButtonElement;
  private following = true;
  private frame: number | undefined;
  /** Where our own last scroll put the view: a scroll event at or below it is not the user reading. */
  private ownScrollTop = 0;

  constructor(
    private readonly scroller: HTMLElement,
    localizer: Localizer,
  ) {
    const label = localizer.text("Jump to latest");
    this.jumpButton = element("button", { className: "jump-to-latest", attributes: { type: "button", "aria-label": label, title: label } }, [
      icon("arrow-down"),
      element("span", { className: "new-content-dot", attributes: { "aria-hidden": "true" } }),
    ]);
    this.jumpButton.hidden = true;
    this.jumpButton.addEventListener("click", () => this.followToEnd());
    scroller.addEventListener("scroll", () => this.onScroll(), { passive: true });
  }

  /** Content changed: follow it when following, otherwise note that something new is below. */
  contentChanged(): void {
    if (this.following) this.scrollToEnd();
    else this.jumpButton.classList.add("has-new");
  }

  /** Content changed above: a view at the end stays there; a reader scrolled up is left where they are. */
  keepEnd(): void {
    if (this.following) this.scrollToEnd();
  }

  /** The view was put at a reader's place (a reloaded window): it stays there, with Jump to latest offered. */
  stayAway(): void {
    this.following = false;
    this.jumpButton.hidden = false;
  }

  get atEnd(): boolean {
    return this.following;
  }

  /** After a send, and when another conversation opens: show the end, and follow again. */
  followToEnd(): void {
    this.following = true;
    this.jumpButton.hidden = true;
    this.jumpButton.classList.remove("has-new");
    this.scrollToEnd();
  }

  private onScroll(): void {
    const nearEnd = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight <= FOLLOW_THRESHOLD_PIXELS;
    // Text may have grown below since our own scroll: only moving up from there is the user reading.
    this.following = nearEnd || (this.following && this.scroller.scrollTop >= this.ownScrollTop - 1);
    this.jumpButton.hidden = this.following;
    if (this.following) this.jumpButton.classList.remove("has-new");
  }

  // Once per frame: reading scrollHeight right after each delta would force a layout per delta. Turns
  // that come into view take their real height a frame later (content-visibility), so the end is
  // followed again until the height holds still for two frames.
  private scrollToEnd(): void {
    if (this.frame !== undefined) return;
    let lastHeight = -1;
    let stableFrames = 0;
    const step = () => {
      this.frame = undefined;
      if (!this.following) return;
      const height = this.scroller.scrollHeight;
      this.scroller.scrollTop = height;
      this.ownScrollTop = this.scroller.scrollTop;
      stableFrames = height === lastHeight ? stableFrames + 1 : 0;
      lastHeight = height;
      if (stableFrames < 2) this.frame = requestAnimationFrame(step);
    };
    this.frame = requestAnimationFrame(step);
  }
}
