import type Token from "markdown-it/lib/token.mjs";

export interface HtmlEscaping {
  escapeHtml(text: string): string;
  unescapeAll(text: string): string;
}

export interface CodeBlockInfo {
  /** The first word of the info string ("ts"), or empty. */
  readonly language: string;
  /** A file path the info string names ("ts src/app.ts", "ts:src/app.ts", `ts title="src/app.ts"`), or empty. */
  readonly file: string;
}

// Keys models and other tools use to name the file a block belongs to.
const fileAttributePattern = /^(?:file|filename|path|title)=(?:"([^"]*)"|'([^']*)'|(\S+))/;
const pathLikePattern = /^(?![-/\\])[\w.@+~\-/\\ ]+$/;

/** Reads the language and a file path hint out of a fence's info string. */
export function parseCodeBlockInfo(info: string): CodeBlockInfo {
  const [first = "", ...rest] = info.trim().split(/\s+/);
  const colon = first.indexOf(":");
  if (colon > 0 && isPathLike(first.slice(colon + 1))) return { language: first.slice(0, colon), file: first.slice(colon + 1) };
  for (let index = 0; index < rest.length; index++) {
    const attribute = fileAttributePattern.exec(rest.slice(index).join(" "));
    if (attribute !== null) {
      const file = attribute[1] ?? attribute[2] ?? attribute[3] ?? "";
      if (isPathLike(file, true)) return { language: first, file };
    } else if (isPathLike(rest[index]!)) {
      return { language: first, file: rest[index]! };
    }
  }
  return { language: first, file: "" };
}

// A relative or absolute path with a file name that has an extension or a folder part (spaces only where the
// info string quoted it); the host checks that it is inside the workspace before anything is read or written.
function isPathLike(candidate: string, mayContainSpaces = false): boolean {
  if (candidate.length > 260 || (!mayContainSpaces && candidate.includes(" ")) || candidate.trim() !== candidate) return false;
  return pathLikePattern.test(candidate.replace(/^[A-Za-z]:[\\/]/, "x/")) && /[\\/]|\.\w+$/.test(candidate);
}

/**
 * Markup of a fenced code block: a header with the language label and the file it names, and the code. The toolbar is added by
 * the panel once the block is finished (codeBlockToolbar.ts). The streaming view patches the text of
 * `pre > code` in place while the fence is open, so the code text must stay the only content of that element.
 */
export function renderFencedCodeBlock(token: Token, escaping: HtmlEscaping): string {
  const { language, file } = parseCodeBlockInfo(token.info ? escaping.unescapeAll(token.info) : "");
  const escapedLanguage = escaping.escapeHtml(language);
  const languageAttribute = language ? ` data-language="${escapedLanguage}"` : "";
  const fileAttribute = file ? ` data-file="${escaping.escapeHtml(file)}"` : "";
  const languageLabel = language ? `<span class="code-language">${escapedLanguage}</span>` : "";
  // The file the block is for: where Apply to file will put it, visible before the click.
  const fileLabel = file ? `<span class="code-file">${escaping.escapeHtml(file)}</span>` : "";
  const codeClass = language ? ` class="language-${escapedLanguage}"` : "";
  return (
    `<div class="code-block"${languageAttribute}${fileAttribute}>` +
    `<div class="code-header">${languageLabel}${fileLabel}</div>` +
    `<pre><code${codeClass}>${escaping.escapeHtml(token.content)}</code></pre>` +
    `</div>\n`
  );
}
