import type Token from "markdown-it/lib/token.mjs";

/** Actions the panel wires to the toolbar buttons of a fenced code block (via `data-action`). */
export const codeBlockActions = {
  copy: "copy-code",
  insertAtCursor: "insert-code-at-cursor",
  openInEditor: "open-code-in-editor",
} as const;

export interface HtmlEscaping {
  escapeHtml(text: string): string;
  unescapeAll(text: string): string;
}

/**
 * Markup of a fenced code block with its toolbar. The streaming view patches the text of `pre > code` in
 * place while the fence is open, so the code text must stay the only content of that element.
 */
export function renderFencedCodeBlock(token: Token, escaping: HtmlEscaping): string {
  const info = token.info ? escaping.unescapeAll(token.info).trim() : "";
  const language = info.split(/\s+/, 1)[0] ?? "";
  const escapedLanguage = escaping.escapeHtml(language);
  const languageAttribute = language ? ` data-language="${escapedLanguage}"` : "";
  const languageLabel = language ? `<span class="code-language">${escapedLanguage}</span>` : "";
  const codeClass = language ? ` class="language-${escapedLanguage}"` : "";
  return (
    `<div class="code-block"${languageAttribute}>` +
    `<div class="code-toolbar">${languageLabel}` +
    `<button type="button" data-action="${codeBlockActions.copy}">Copy</button>` +
    `<button type="button" data-action="${codeBlockActions.insertAtCursor}">Insert at cursor</button>` +
    `<button type="button" data-action="${codeBlockActions.openInEditor}">Open in editor</button>` +
    `</div>` +
    `<pre><code${codeClass}>${escaping.escapeHtml(token.content)}</code></pre>` +
    `</div>\n`
  );
}
