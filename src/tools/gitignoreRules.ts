// The common subset of .gitignore: comments, blank lines, "!" negation, trailing "/" for folders only,
// anchoring by a leading or inner "/", and the glob syntax of globPattern. Not supported: trailing-space escapes.
import { globToRegExp } from "./globPattern";

interface GitignoreRule {
  readonly expression: RegExp;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
}

export interface GitignoreFile {
  /** "/"-separated folder of the .gitignore relative to the workspace folder; "" for the root. */
  readonly baseDirectory: string;
  readonly rules: readonly GitignoreRule[];
}

export function parseGitignore(content: string, baseDirectory: string): GitignoreFile {
  const rules: GitignoreRule[] = [];
  for (const rawLine of content.split(/\r?\n/)) {
    let line = rawLine.replace(/\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    const directoryOnly = line.endsWith("/");
    if (directoryOnly) line = line.replace(/\/+$/, "");
    if (line === "") continue;
    const anchored = line.includes("/");
    line = line.replace(/^\/+/, "");
    rules.push({ expression: globToRegExp(anchored ? line : `**/${line}`), negated, directoryOnly });
  }
  return { baseDirectory, rules };
}

/**
 * Applies the .gitignore files from the root down to the path's folder; the last matching rule wins, as in git.
 * Folders that are ignored are never entered by the walker, so a file cannot be re-included under one.
 */
export function isIgnoredByGitignore(files: readonly GitignoreFile[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const file of files) {
    const prefix = file.baseDirectory === "" ? "" : `${file.baseDirectory}/`;
    if (!relativePath.startsWith(prefix)) continue;
    const pathFromBase = relativePath.slice(prefix.length);
    for (const rule of file.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.expression.test(pathFromBase)) ignored = !rule.negated;
    }
  }
  return ignored;
}
