import { highlighterGlobalName } from "./highlighterContract";
import type { Highlighter } from "./highlighterContract";

// Read while this bundle's own script runs (a module's top level runs then): the highlighter script sits
// beside it and may run under the page's CSP by the same nonce.
const ownScript = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;

/**
 * Loads the highlighter script (media/dist/highlighter.js) the first time it is asked for, by a script
 * element with this page's nonce: the strict CSP needs no 'unsafe-eval' and no new source. Resolves to
 * undefined when it cannot be loaded; code blocks then stay plain.
 */
export class HighlighterLoader {
  private loading: Promise<Highlighter | undefined> | undefined;

  constructor(private readonly scriptUrl: string | undefined, private readonly nonce: string) {}

  /** The loader for the script beside the running bundle. */
  static besideThisScript(): HighlighterLoader {
    const scriptUrl = ownScript?.src ? new URL("highlighter.js", ownScript.src).toString() : undefined;
    return new HighlighterLoader(scriptUrl, ownScript?.nonce ?? "");
  }

  get started(): boolean {
    return this.loading !== undefined;
  }

  load(): Promise<Highlighter | undefined> {
    this.loading ??= this.insertScript();
    return this.loading;
  }

  private insertScript(): Promise<Highlighter | undefined> {
    const existing = loadedHighlighter();
    if (existing !== undefined || this.scriptUrl === undefined) return Promise.resolve(existing);
    return new Promise((resolve) => {
      const script = document.createElement("script");
      script.nonce = this.nonce;
      script.src = this.scriptUrl!;
      script.addEventListener("load", () => resolve(loadedHighlighter()));
      script.addEventListener("error", () => resolve(undefined));
      document.head.appendChild(script);
    });
  }
}

function loadedHighlighter(): Highlighter | undefined {
  const candidate = (globalThis as unknown as Record<string, unknown>)[highlighterGlobalName];
  return typeof candidate === "object" && candidate !== null && typeof (candidate as Highlighter).highlight === "function" ? (candidate as Highlighter) : undefined;
}
