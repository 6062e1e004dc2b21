import { element } from "./dom";

/**
 * A visually hidden polite live region for short news ("Answer complete"). The answer itself is not in a
 * live region: it would be read again with every delta.
 */
export class Announcer {
  readonly root: HTMLElement = element("div", { className: "visually-hidden", attributes: { role: "status", "aria-live": "polite", "aria-atomic": "true" } });
  private clearTimer: ReturnType<typeof setTimeout> | undefined;

  announce(text: string): void {
    // Screen readers announce a change of content; the same text twice in a row needs a reset first.
    this.root.textContent = "";
    clearTimeout(this.clearTimer);
    this.clearTimer = setTimeout(() => {
      this.root.textContent = text;
    }, 50);
  }

  /** Another conversation (or a new chat) is on screen: news of the previous one is not announced there. */
  clear(): void {
    clearTimeout(this.clearTimer);
    this.root.textContent = "";
  }
}
