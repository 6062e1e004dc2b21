import { readdir } from "node:fs/promises";
import { join } from "node:path";
import picomatch from "picomatch";
import { readFileInsideFolder } from "./fileInsideFolder";
import { RULES_FILE_GLOBS } from "./projectRules";
import type { RulesFolder } from "./ruleFile";

// The rules files of a folder on disk, for the CLI (the working directory is its workspace) and the tests.
// The panel reads them through VS Code instead (src/host/instructions/projectRulesWatcher.ts), which also sees unsaved
// workspace state and watches for changes. Both read a file the same way (fileInsideFolder.ts): only a regular
// file whose real path is inside the folder, and only the bytes that are kept.

/** Folders never searched for rules: dependencies and build output hold other projects' AGENTS.md. */
export const SKIPPED_FOLDERS = ["node_modules", ".git", "dist", "out", "build", ".vscode-test"];
/** A rules file is read up to this many bytes; the assembly cuts it further (assembleInstructions.ts). */
export const RULE_FILE_READ_LIMIT_BYTES = 256 * 1024;
const MAX_DEPTH = 8;

export const isRulesFilePath = picomatch(RULES_FILE_GLOBS, { dot: true });

/** `skipped` hears of each rules file left out and why (a link to outside the folder, a FIFO). */
export async function readRulesFolder(root: string, name: string, skipped: (path: string, reason: string) => void = () => undefined): Promise<RulesFolder> {
  const files = new Map<string, string>();
  await walk(root, "", 0, files, skipped);
  return { name, files };
}

async function walk(root: string, relative: string, depth: number, files: Map<string, string>, skipped: (path: string, reason: string) => void): Promise<void> {
  let entries;
  try {
    entries = await readdir(join(root, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
    // Linked folders are not walked (a link can make a loop); a linked file is read when it stays inside.
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH && !SKIPPED_FOLDERS.includes(entry.name)) await walk(root, path, depth + 1, files, skipped);
    } else if (isRulesFilePath(path)) {
      const read = await readFileInsideFolder(root, path, RULE_FILE_READ_LIMIT_BYTES);
      if (read.ok) files.set(path, read.text);
      else skipped(path, read.reason);
    }
  }
}
