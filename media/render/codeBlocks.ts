import { addCodeBlockToolbar } from "./codeBlockToolbar";
import type { CodeBlockPanel } from "./codeBlockToolbar";
import { HighlighterLoader } from "./highlighterLoader";
import type { Highlighter } from "./highlighterContract";
import { sanitizeHighlightedCode } from "./htmlSanitizer";

// Larger blocks stay plain: highlighting them could hold the page for a noticeable time.
const maximumHighlightedCharacters = 100_000;
// Highlighting runs in slices between frames so a long answer's blocks never hold the page.
const sliceBudgetMilliseconds = 8;

/**
 * Turns finished code blocks into their full form: the toolbar at once, syntax highlighting as soon as the
 * highlighter script has loaded (it is loaded when the first block needs it). Only finished blocks are
 * passed in, so highlighting runs once per block, never per streamed delta.
 */
export class CodeBlockEnhancer {
  private readonly waiting: HTMLElement[] = [];
  private scheduled = false;

  constructor(
    private readonly panel: CodeBlockPanel,
    private readonly highlighterLoader: HighlighterLoader = HighlighterLoader.besideThisScript(),
  ) {}

  /** Enhances the code blocks among `nodes` and inside them. */
  enhance(nodes: Iterable<Node>): void {
    for (const node of nodes) {
      if (!(node instanceof HTMLElement)) continue;
      const blocks = node.matches(".code-block") ? [node] : Array.from(node.querySelectorAll<HTMLElement>(".code-block"));
      for (const block of blocks) {
        addCodeBlockToolbar(block, this.panel);
        if (block.dataset["language"]) this.waiting.push(block);
      }
    }
    if (this.waiting.length > 0) this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    void this.highlighterLoader.load().then((highlighter) => {
      if (highlighter === undefined) {
        this.waiting.length = 0;
        this.scheduled = false;
        return;
      }
      setTimeout(() => this.highlightSlice(highlighter), 0);
    });
  }

  private highlightSlice(highlighter: Highlighter): void {
    const sliceEnd = performance.now() + sliceBudgetMilliseconds;
    while (this.waiting.length > 0 && performance.now() < sliceEnd) highlightBlock(this.waiting.shift()!, highlighter);
    if (this.waiting.length > 0) setTimeout(() => this.highlightSlice(highlighter), 0);
    else this.scheduled = false;
  }
}

function highlightBlock(block: HTMLElement, highlighter: Highlighter): void {
  const code = block.querySelector("pre > code");
  // Still in the page, not highlighted yet (a single text node), and not too long.
  if (code === null || !block.isConnected || code.childElementCount > 0) return;
  const text = code.textContent ?? "";
  if (text.length === 0 || text.length > maximumHighlightedCharacters) return;
  const html = highlighter.highlight(text, block.dataset["language"] ?? "");
  if (html === undefined) return;
  const nodes = sanitizeHighlightedCode(html);
  // Copy and apply read the code from the page: highlighting must not change a character of it.
  if (nodes.map((node) => node.textContent ?? "").join("") !== text) return;
  code.replaceChildren(...nodes);
  code.classList.add("hljs");
}

let sharedEnhancer: CodeBlockEnhancer | undefined;

/** Called once by the panel's entry point; until then code blocks stay plain (as in the render tests). */
export function configureCodeBlocks(panel: CodeBlockPanel): void {
  sharedEnhancer = new CodeBlockEnhancer(panel);
}

/** Enhances the finished code blocks among `nodes`, if the panel configured code blocks. */
export function enhanceCodeBlocks(nodes: Iterable<Node>): void {
  sharedEnhancer?.enhance(nodes);
}
