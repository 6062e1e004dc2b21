// What the lazily loaded highlighter script (media/dist/highlighter.js, built from highlighterChunk.ts) hands
// the webview. Shared by both bundles; imports nothing.

/** The global the highlighter script sets when it has run. */
export const highlighterGlobalName = "relayChatHighlighter";

export interface Highlighter {
  /**
   * HTML of `code` with token spans (`<span class="hljs-keyword">`), or undefined when `language` is not
   * one the highlighter knows. The caller sanitizes it before it touches the page.
   */
  highlight(code: string, language: string): string | undefined;
}
