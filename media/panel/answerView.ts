import { enhanceCodeBlocks } from "../render/codeBlocks";
import { linkFileReferences } from "../render/fileReferences";
import { StreamingMarkdownView } from "../render/incrementalMarkdown";
import { renderMarkdownToSafeHtml } from "../render/markdownRenderer";
import { element } from "./dom";

/**
 * The rendered answer of one turn. While the turn streams, a StreamingMarkdownView re-renders only the
 * open block per delta; once finished, the DOM is left alone unless the text itself changes.
 */
export class AnswerView {
  readonly root: HTMLElement = element("div", { className: "answer-slot" });
  private container: HTMLElement | null = null;
  private streamingView: StreamingMarkdownView | null = null;
  /** Text of the finished render in `container`, or null while streaming. */
  private finishedText: string | null = null;
  /** A finished answer not rendered yet, because its turn is far from the visible part of the list. */
  private deferredText: string | null = null;

  get isDeferred(): boolean {
    return this.deferredText !== null;
  }

  /** True once this answer shows something (rendered, or streaming). */
  get hasContent(): boolean {
    return this.finishedText !== null || this.streamingView !== null;
  }

  /**
   * Keeps `text` to render later, holding about the room it will take so the scroll position stays
   * meaningful. Opening a long conversation renders only the turns near the end.
   */
  defer(text: string): void {
    this.deferredText = text;
    this.root.style.minHeight = `${estimatedAnswerPixels(text.length, text.split("\n").length)}px`;
  }

  /**
   * The answer is not here yet (a brief turn of a long conversation): holds about the room it will take,
   * so the scroll bar and the scroll position mean what they will once it arrives.
   */
  hold(estimatedPixels: number): void {
    this.release();
    this.root.style.minHeight = `${estimatedPixels}px`;
  }

  /** Lets go of the rendered answer and anything waiting to render (its turn is stowed: TurnElement.stow). */
  release(): void {
    this.deferredText = null;
    this.streamingView = null;
    this.finishedText = null;
    this.container?.remove();
    this.container = null;
    this.root.style.minHeight = "";
  }

  renderDeferred(): void {
    const text = this.deferredText;
    if (text === null) return;
    this.showFinished(text);
  }

  private clearDeferred(): void {
    this.deferredText = null;
    if (this.root.style.minHeight !== "") this.root.style.minHeight = "";
  }

  /** Brings the streaming view up to `text`; a text that extends what is shown only appends the rest. */
  showStreaming(text: string): void {
    this.clearDeferred();
    if (this.streamingView === null) {
      this.streamingView = new StreamingMarkdownView(this.freshContainer(), enhanceCodeBlocks);
      this.finishedText = null;
    }
    this.streamingView.setText(text);
  }

  /** False when this answer is not streaming (a delta for it is stale and is dropped). */
  append(delta: string): boolean {
    if (this.streamingView === null) return false;
    this.streamingView.append(delta);
    return true;
  }

  showFinished(text: string): void {
    this.clearDeferred();
    if (this.streamingView !== null && this.streamingView.text === text) {
      // The streamed DOM already equals the one-shot render of this text; only release the view.
      this.streamingView.finish();
      this.streamingView = null;
    } else if (this.finishedText === text) {
      return;
    } else {
      this.streamingView = null;
      // A fresh element: the streaming view may have attached a shadow root to the old one, and new
      // light-DOM children of that host would not be slotted (not shown).
      const container = this.freshContainer();
      container.innerHTML = renderMarkdownToSafeHtml(text);
      enhanceCodeBlocks(container.childNodes);
    }
    this.finishedText = text;
    if (this.container === null) return;
    makeLinksFocusable(this.container);
    linkFileReferences(this.container);
  }

  private freshContainer(): HTMLElement {
    // Deltas change the answer dozens of times a second; a live region here would re-read it each time.
    // The turn's end is announced separately.
    const container = element("div", { className: "answer markdown-body", attributes: { "aria-live": "off" } });
    if (this.container === null) this.root.appendChild(container);
    else this.container.replaceWith(container);
    this.container = container;
    return container;
  }
}

/** About the height an answer of this many characters and lines takes once rendered (at most 4000 px). */
export function estimatedAnswerPixels(characters: number, lines: number): number {
  return Math.min(4000, Math.round((lines + characters / 70) * 18));
}

// Rendered links carry their target in data-href (no href, so the webview cannot navigate), which also
// takes them out of the tab order; put them back, once the answer is final.
function makeLinksFocusable(container: HTMLElement): void {
  for (const link of container.querySelectorAll<HTMLElement>("a[data-href]")) {
    link.tabIndex = 0;
    link.setAttribute("role", "link");
  }
}
