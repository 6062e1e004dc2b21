// .gitignore rules as git applies them: one rule set per folder, each read relative to its own folder.
import ignore from "ignore";
import type { Ignore } from "ignore";

export interface GitignoreFile {
  /** "/"-separated folder of the .gitignore relative to the workspace folder; "" for the root. */
  readonly baseDirectory: string;
  readonly rules: Ignore;
  /**
   * Whether any rule can match a file: one ending in "/" matches only folders, and what is below an ignored
   * folder is never looked at. Testing only folders against a file of folder rules ("node_modules/") saves a
   * match per file.
   */
  readonly matchesFiles: boolean;
}

export function parseGitignore(content: string, baseDirectory: string): GitignoreFile {
  const matchesFiles = content.split(/\r?\n/).some((line) => {
    const rule = line.trimEnd();
    return rule !== "" && !rule.startsWith("#") && !rule.endsWith("/");
  });
  // Case-sensitive like git's default on Linux; ignore() would otherwise fold case everywhere.
  return { baseDirectory, rules: ignore({ ignorecase: false }).add(content), matchesFiles };
}

/**
 * Applies the .gitignore files from the root down to the path's folder: a deeper file's matching rule overrides
 * a shallower one's, as in git. Folders that are ignored are never entered by the walker, so a file cannot be
 * re-included under one.
 */
export function isIgnoredByGitignore(files: readonly GitignoreFile[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const file of files) {
    const prefix = file.baseDirectory === "" ? "" : `${file.baseDirectory}/`;
    if ((!isDirectory && !file.matchesFiles) || !relativePath.startsWith(prefix) || relativePath.length === prefix.length) continue;
    // A trailing "/" is how ignore() tells a folder from a file, so "build/" rules skip a file named build.
    const result = file.rules.test(relativePath.slice(prefix.length) + (isDirectory ? "/" : ""));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
