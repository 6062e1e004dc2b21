// Browser side of the code block tests: the streaming view with the panel's code block enhancer, a
// recorder for what the toolbar posts, and probes for the lazily loaded highlighter.
import type { CodeBlockMessage } from "../../../media/render/codeBlockToolbar";
import { CodeBlockEnhancer } from "../../../media/render/codeBlocks";
import { highlighterGlobalName } from "../../../media/render/highlighterContract";
import type { Highlighter } from "../../../media/render/highlighterContract";
import { HighlighterLoader } from "../../../media/render/highlighterLoader";
import { StreamingMarkdownView } from "../../../media/render/incrementalMarkdown";
import { renderMarkdownToSafeHtml } from "../../../media/render/markdownRenderer";

export interface CodeBlockHarness {
  /** Streams `text` in deltas of `deltaLength` into a fresh answer, with code blocks enhanced as they finish. */
  stream(text: string, deltaLength: number, finish: boolean): void;
  /** Renders `text` at once, as a finished answer loaded from history is shown. */
  renderFinished(text: string): void;
  /** Resolves once no code block waits for highlighting (or the highlighter failed to load). */
  settle(): Promise<void>;
  highlighterScripts(): number;
  /** Counts calls to the loaded highlighter from now on. */
  countHighlightCalls(): void;
  highlightCalls(): number;
  /** Installs a highlighter before any is loaded, returning `html` for every block. */
  installFakeHighlighter(html: string): void;
  posted(): CodeBlockMessage[];
  executions(): number;
  setColumnWidth(pixels: number): void;
}

declare global {
  interface Window {
    relayCodeBlockHarness: CodeBlockHarness;
    __xss: number[];
  }
}

window.__xss = [];
const posted: CodeBlockMessage[] = [];
let highlightCalls = 0;
const loader = HighlighterLoader.besideThisScript();
const enhancer = new CodeBlockEnhancer({ post: (message) => posted.push(message), text: (english) => english }, loader);

function freshAnswer(): HTMLElement {
  const chat = document.getElementById("chat")!;
  chat.replaceChildren();
  const answer = document.createElement("div");
  answer.className = "answer";
  chat.appendChild(answer);
  return answer;
}

function globalHighlighter(): Highlighter | undefined {
  return (window as unknown as Record<string, Highlighter | undefined>)[highlighterGlobalName];
}

const harness: CodeBlockHarness = {
  stream(text, deltaLength, finish) {
    const view = new StreamingMarkdownView(freshAnswer(), (nodes) => enhancer.enhance(nodes));
    for (let offset = 0; offset < text.length; offset += deltaLength) view.append(text.slice(offset, offset + deltaLength));
    if (finish) view.finish();
  },
  renderFinished(text) {
    const answer = freshAnswer();
    answer.innerHTML = renderMarkdownToSafeHtml(text);
    enhancer.enhance(Array.from(answer.childNodes));
  },
  async settle() {
    if (loader.started) await loader.load();
    for (let attempt = 0; attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const pending = Array.from(document.querySelectorAll(".code-block[data-language] pre > code")).some((code) => code.childElementCount === 0);
      if (!pending || globalHighlighter() === undefined) break;
    }
  },
  highlighterScripts: () => document.querySelectorAll('script[src$="highlighter.js"]').length,
  countHighlightCalls() {
    const highlighter = globalHighlighter()!;
    const original = highlighter.highlight.bind(highlighter);
    highlighter.highlight = (code, language) => {
      highlightCalls++;
      return original(code, language);
    };
  },
  highlightCalls: () => highlightCalls,
  installFakeHighlighter(html) {
    (window as unknown as Record<string, Highlighter>)[highlighterGlobalName] = { highlight: () => html };
  },
  posted: () => [...posted],
  executions: () => window.__xss.length,
  setColumnWidth(pixels) {
    document.getElementById("chat")!.style.width = `${pixels}px`;
  },
};

window.relayCodeBlockHarness = harness;
document.documentElement.dataset["harnessReady"] = "true";
