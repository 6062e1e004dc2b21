// Enumerates the files of a workspace folder the way a person would search it: without dependency folders,
// version-control internals, ignored files or excluded paths.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { isIgnoredByGitignore, parseGitignore } from "./gitignoreRules";
import type { GitignoreFile } from "./gitignoreRules";
import { createPathMatcher } from "./globPattern";

export const alwaysSkippedFolderNames: ReadonlySet<string> = new Set(["node_modules", ".git"]);

export interface WalkOptions {
  /** Glob patterns (as in the files.exclude setting) whose matches, files or folders, are skipped. */
  readonly excludePatterns?: readonly string[];
  readonly signal?: AbortSignal;
}

export interface WalkedFile {
  readonly absolutePath: string;
  /** "/"-separated, relative to the folder walked. */
  readonly relativePath: string;
}

/**
 * Symbolic links are not followed, neither to files nor to folders: a link can point outside the workspace,
 * and a folder link can loop. Entries come in sorted order so results are stable between runs.
 */
export async function* walkWorkspaceFiles(folderRealPath: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const excluded = (options.excludePatterns ?? []).map((pattern) => createPathMatcher(pattern));
  const isExcluded = (relativePath: string): boolean => excluded.some((matches) => matches(relativePath));
  yield* walkFolder(folderRealPath, "", [], isExcluded, options.signal);
}

async function* walkFolder(
  absoluteFolder: string,
  relativeFolder: string,
  inheritedGitignores: readonly GitignoreFile[],
  isExcluded: (relativePath: string) => boolean,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkedFile> {
  signal?.throwIfAborted();
  let entries;
  try {
    entries = await fs.readdir(absoluteFolder, { withFileTypes: true });
  } catch {
    // An unreadable folder is skipped rather than ending the whole search.
    return;
  }
  const gitignores = [...inheritedGitignores];
  if (entries.some((entry) => entry.name === ".gitignore" && entry.isFile())) {
    try {
      gitignores.push(parseGitignore(await fs.readFile(path.join(absoluteFolder, ".gitignore"), "utf8"), relativeFolder));
    } catch {
      // An unreadable .gitignore ignores nothing.
    }
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relativePath = relativeFolder === "" ? entry.name : `${relativeFolder}/${entry.name}`;
    const absolutePath = path.join(absoluteFolder, entry.name);
    if (entry.isDirectory()) {
      if (alwaysSkippedFolderNames.has(entry.name)) continue;
      if (isIgnoredByGitignore(gitignores, relativePath, true) || isExcluded(relativePath)) continue;
      yield* walkFolder(absolutePath, relativePath, gitignores, isExcluded, signal);
    } else if (entry.isFile()) {
      if (isIgnoredByGitignore(gitignores, relativePath, false) || isExcluded(relativePath)) continue;
      yield { absolutePath, relativePath };
    }
  }
}
