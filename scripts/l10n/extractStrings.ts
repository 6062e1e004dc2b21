// Finds every user-facing string of the extension, for the l10n bundles: the literal first argument of
// each `l10n.t(...)` / `vscode.l10n.t(...)` / `localize(...)` call under src/, and the webview's strings table
// (src/panel/webviewStrings.ts), which the host translates for the webview.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { WEBVIEW_STRINGS } from "../../src/panel/webviewStrings";

export const repositoryRoot = path.resolve(__dirname, "..", "..");

// `localize(...)`: vscode-free code that is handed the translate function (src/chat/outcomeLabel.ts).
const CALL = /\b(?:l10n\.t|localize)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

function literalValue(literal: string): string {
  const quote = literal[0];
  const body = literal.slice(1, -1);
  if (quote === '"') return JSON.parse(literal) as string;
  // Single-quoted and template literals: the same escapes, re-quoted for JSON.
  return JSON.parse(`"${body.replace(/\\(['`])/g, "$1").replace(/(^|[^\\])"/g, '$1\\"')}"`) as string;
}

/** Every string the extension shows, sorted; each with the files that use it. */
export function extractStrings(root = repositoryRoot): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (text: string, file: string) => found.set(text, [...(found.get(text) ?? []), file]);
  for (const file of sourceFiles(path.join(root, "src"))) {
    const relative = path.relative(root, file);
    for (const match of readFileSync(file, "utf8").matchAll(CALL)) add(literalValue(match[1]), relative);
  }
  for (const text of WEBVIEW_STRINGS) add(text, "src/panel/webviewStrings.ts");
  return new Map([...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The English bundle VS Code loads (l10n/bundle.l10n.json): each string is its own key and value. */
export function englishBundle(root = repositoryRoot): Record<string, string> {
  return Object.fromEntries([...extractStrings(root).keys()].map((text) => [text, text]));
}
