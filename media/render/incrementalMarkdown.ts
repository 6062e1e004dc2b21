import type MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";
import { reconcileTrailingChildren } from "./domReconciler";
import { findFinishedBlockBoundary } from "./finishedBlockBoundary";
import { DetachedNodeSanitizer, parseUnsanitizedHtml } from "./htmlSanitizer";
import { appendToLastTextRun, patchChangedRegion } from "./htmlRegionPatch";
import { getMarkdownParser } from "./markdownParser";
import { NewlineNormalizer } from "./newlineNormalizer";
import { extendsPlainText, findPlainTextTail, showPlainText } from "./plainTextTail";
import type { PlainTextTail } from "./plainTextTail";
import { SlottedLayoutGroups } from "./slottedLayoutGroups";

interface OpenFence {
  readonly fenceCharacter: string;
  readonly codeText: Text;
  /** Offset in the open text where the code starts (after the opening fence line). */
  readonly codeStart: number;
}

/**
 * Renders a growing markdown answer into `container`. Finished top-level blocks are rendered once and
 * left alone; only the open tail (text after the last finished block) is parsed again, and only the part
 * of its HTML that changed reaches the DOM (htmlRegionPatch.ts), so the cost of an update does not grow
 * with the answer. After every call the container's innerHTML equals `renderMarkdownToSafeHtml(text)`,
 * apart from what `onFinishedNodes` adds to finished nodes.
 */
export class StreamingMarkdownView {
  private readonly markdown: MarkdownIt = getMarkdownParser();
  private readonly newlines = new NewlineNormalizer();
  private rawText = "";
  /** Normalized text of the blocks already final in the DOM. */
  private finishedText = "";
  /** Normalized text that may still change how it renders. */
  private openText = "";
  /** The container's trailing children that render `openText`. */
  private openNodes: Node[] = [];
  /**
   * HTML of `openText` that the open nodes show exactly, to skip DOM work when a delta changes nothing visible
   * and to patch only what changed; undefined when unknown.
   */
  private openHtml: string | undefined;
  private readonly sanitizer = new DetachedNodeSanitizer();
  /** Set while the open tail is a single unclosed fence, whose code text can grow in place. */
  private openFence: OpenFence | undefined;
  /** Set while the open tail ends in plain prose, which can grow in place. */
  private plainTextTail: PlainTextTail | undefined;
  /** Reference definitions make earlier blocks depend on later text; then every update renders it all. */
  private rendersWholeText = false;
  private finished = false;
  private readonly layoutGroups: SlottedLayoutGroups | undefined;

  /**
   * `onFinishedNodes` is told about top-level nodes that will not change any more (the place to add
   * things to them, like a code block's toolbar and highlighting, without breaking the streamed render).
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly onFinishedNodes: (nodes: readonly Node[]) => void = () => {},
  ) {
    container.replaceChildren();
    this.layoutGroups = SlottedLayoutGroups.attachTo(container);
  }

  get text(): string {
    return this.rawText;
  }

  append(delta: string): void {
    if (this.finished) throw new Error("StreamingMarkdownView: append() after finish()");
    this.rawText += delta;
    const normalized = this.newlines.normalize(delta);
    if (normalized.length === 0) return;
    const previousOpenText = this.openText;
    this.openText += normalized;
    if (this.rendersWholeText) {
      this.renderWholeText();
    } else if (this.plainTextTail !== undefined && extendsPlainText(previousOpenText, normalized)) {
      const shownText = showPlainText(this.plainTextTail, this.openText);
      if (this.openHtml !== undefined) this.openHtml = appendToLastTextRun(this.openHtml, shownText);
    } else if (this.openFence === undefined || !this.tryGrowOpenFence(this.openFence, previousOpenText.length)) {
      this.renderOpenText();
    }
  }

  /** Shows `fullText`; when it extends the current text only the difference is processed. */
  setText(fullText: string): void {
    if (fullText.startsWith(this.rawText) && !(this.finished && fullText.length > this.rawText.length)) {
      if (fullText.length > this.rawText.length) this.append(fullText.slice(this.rawText.length));
      return;
    }
    this.reset();
    this.append(fullText);
  }

  /** Marks the answer complete; the DOM is already final, so this only releases the streaming state. */
  finish(): void {
    this.finished = true;
    this.layoutGroups?.addFinished(this.openNodes);
    this.onFinishedNodes(this.openNodes);
    this.layoutGroups?.setOpen([]);
    this.finishedText += this.openText;
    this.openText = "";
    this.openNodes = [];
    this.openHtml = undefined;
    this.openFence = undefined;
    this.plainTextTail = undefined;
  }

  private reset(): void {
    this.container.replaceChildren();
    this.layoutGroups?.clear();
    this.newlines.reset();
    this.rawText = "";
    this.finishedText = "";
    this.openText = "";
    this.openNodes = [];
    this.openHtml = undefined;
    this.openFence = undefined;
    this.plainTextTail = undefined;
    this.rendersWholeText = false;
    this.finished = false;
  }

  private renderOpenText(): void {
    this.sanitizer.removedSomething = false;
    const environment: { references?: Record<string, unknown> } = {};
    const tokens = this.markdown.parse(this.openText, environment);
    if (environment.references !== undefined && Object.keys(environment.references).length > 0) {
      this.rendersWholeText = true;
      this.renderWholeText();
      return;
    }
    const boundary = findFinishedBlockBoundary(tokens, this.openText);
    const openTokens = boundary === undefined ? tokens : tokens.slice(boundary.tokenIndex);
    const openHtml = this.markdown.renderer.render(openTokens, this.markdown.options, environment);
    if (boundary === undefined) {
      if (openHtml !== this.openHtml && (this.openHtml === undefined || !patchChangedRegion(this.openNodes, this.openHtml, openHtml, this.sanitizer))) {
        this.replaceOpenNodes(parseUnsanitizedHtml(openHtml));
      }
    } else {
      const finishedHtml = this.markdown.renderer.render(tokens.slice(0, boundary.tokenIndex), this.markdown.options, environment);
      const finishedNodes = parseUnsanitizedHtml(finishedHtml);
      const next = [...finishedNodes, ...parseUnsanitizedHtml(openHtml)];
      const { nodes, firstNodeIndexes } = reconcileTrailingChildren(this.container, this.openNodes, next, this.sanitizer.sanitize);
      const finishedCount = firstNodeIndexes[finishedNodes.length] ?? nodes.length;
      this.layoutGroups?.addFinished(nodes.slice(0, finishedCount));
      this.onFinishedNodes(nodes.slice(0, finishedCount));
      this.openNodes = nodes.slice(finishedCount);
      this.layoutGroups?.setOpen(this.openNodes);
      this.finishedText += this.openText.slice(0, boundary.textOffset);
      this.openText = this.openText.slice(boundary.textOffset);
    }
    // Nodes the sanitizer changed no longer match the HTML; the next render then reconciles the whole block.
    this.openHtml = this.sanitizer.removedSomething ? undefined : openHtml;
    this.openFence = this.findOpenFence(openTokens);
    this.plainTextTail = this.openFence === undefined ? findPlainTextTail(openTokens, this.openNodes, this.openText) : undefined;
  }

  private replaceOpenNodes(nodes: Node[]): void {
    this.openNodes = reconcileTrailingChildren(this.container, this.openNodes, nodes, this.sanitizer.sanitize).nodes;
    this.layoutGroups?.setOpen(this.openNodes);
  }

  private renderWholeText(): void {
    this.finishedText += this.openText;
    this.openText = this.finishedText;
    this.finishedText = "";
    this.openFence = undefined;
    this.plainTextTail = undefined;
    this.openHtml = undefined;
    this.openNodes = reconcileTrailingChildren(
      this.container,
      Array.from(this.container.childNodes),
      parseUnsanitizedHtml(this.markdown.render(this.openText)),
      this.sanitizer.sanitize,
    ).nodes;
    this.layoutGroups?.clear();
    this.layoutGroups?.setOpen(this.openNodes);
  }

  /**
   * Fast path for the most expensive kind of open block: code text of an unclosed fence is appended to
   * its text node without parsing or sanitizing (text nodes cannot carry markup). Falls back whenever a
   * touched line could close the fence.
   */
  private tryGrowOpenFence(openFence: OpenFence, previousOpenLength: number): boolean {
    const text = this.openText;
    let lineStart = text.lastIndexOf("\n", previousOpenLength - 1) + 1;
    for (;;) {
      if (text.charAt(skipSpacesAndTabs(text, lineStart)) === openFence.fenceCharacter) return false;
      const lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd === -1) break;
      lineStart = lineEnd + 1;
    }
    setTextIncrementally(openFence.codeText, text, openFence.codeStart, visibleCodeEnd(text, lineStart));
    this.openHtml = undefined;
    return true;
  }

  private findOpenFence(openTokens: readonly Token[]): OpenFence | undefined {
    const [token] = openTokens;
    const text = this.openText;
    const fenceCharacter = text.charAt(0);
    if (openTokens.length !== 1 || token?.type !== "fence" || (fenceCharacter !== "`" && fenceCharacter !== "~")) return undefined;
    const codeStart = text.indexOf("\n") + 1;
    // Equal only while the fence is unclosed and unindented, the two cases where the code text is
    // the rest of the input (up to a trailing blank partial line).
    if (codeStart === 0 || token.content !== text.slice(codeStart, visibleCodeEnd(text, text.lastIndexOf("\n") + 1))) return undefined;
    const code = this.openNodes[0] instanceof Element ? this.openNodes[0].querySelector("pre > code") : null;
    if (code === null) return undefined;
    let codeText = code.firstChild;
    if (!(codeText instanceof Text) || codeText.nextSibling !== null) {
      codeText = document.createTextNode(token.content);
      code.replaceChildren(codeText);
    }
    return { fenceCharacter, codeText: codeText as Text, codeStart };
  }
}

// markdown-it leaves a trailing line of only spaces and tabs out of an unclosed fence's code.
function visibleCodeEnd(text: string, lastLineStart: number): number {
  return lastLineStart < text.length && skipSpacesAndTabs(text, lastLineStart) === text.length ? lastLineStart : text.length;
}

// The text node always holds text.slice(start, start + data.length); growing it is the common case.
function setTextIncrementally(node: Text, text: string, start: number, end: number): void {
  const shownLength = node.length;
  const visibleLength = end - start;
  if (visibleLength > shownLength) node.appendData(text.slice(start + shownLength, end));
  else if (visibleLength < shownLength) node.deleteData(visibleLength, shownLength - visibleLength);
}

function skipSpacesAndTabs(text: string, position: number): number {
  let cursor = position;
  while (cursor < text.length && (text.charCodeAt(cursor) === 0x20 || text.charCodeAt(cursor) === 0x09)) cursor++;
  return cursor;
}
