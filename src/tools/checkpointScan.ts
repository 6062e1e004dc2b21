import { lstatSync, readFileSync, readdirSync } from "node:fs";
import type { Dirent, Stats } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { GitignoreFile } from "./gitignoreRules";
import { isIgnoredByGitignore, parseGitignore } from "./gitignoreRules";
import { createPathMatcher } from "./globPattern";

// What a checkpoint saves of a workspace folder, found by this process rather than by `git add`: every file and
// symbolic link that .gitignore files and the editor's files.exclude do not leave out, with the stat data it had
// when its content was last read. Checkpoints keep this picture between checkpoints (and on disk, see
// checkpointRecord), so a checkpoint lists each folder again (new and removed names) and looks at each file's
// stat data, and reads only the files whose stat data changed, as git's index lets `git add` do.
//
// Git's rules are kept where they decide what is saved: a `.git` entry is never entered or saved (a nested
// repository's files are saved as files, which `git add` would have stored as a commit id that Restore cannot
// put back); folders a rule ignores are not entered, so nothing below one can be included again; sockets, FIFOs
// and devices are not saved; a symbolic link is saved as its target, never followed. Unlike git, the full
// permission bits are kept (git keeps only the owner's execute bit), so Restore can put them back.

export interface FileNode {
  /** A symbolic link (its target is saved) rather than a regular file. */
  link: boolean;
  /** st_mode & 0o7777. */
  perm: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** The blob id of the content read at this stat data; null until it has been read. */
  oid: string | null;
  /** Changed too recently for the stat data to vouch for the content (see checkpointObjects): read again next time. */
  racy: boolean;
}

export interface DirNode {
  /** The names the folder had when it was last classified, in the order the file system listed them. */
  listing: readonly string[];
  /** Files and links saved, by name. */
  files: Map<string, FileNode>;
  /** Folders entered, by name. */
  dirs: Map<string, DirNode>;
  /** Stat data of the folder's .gitignore when it was read ("" when it has none). */
  gitignoreStamp: string;
  /** Its rules; undefined until read in this process (a picture loaded from disk has only the stamp). */
  gitignore?: GitignoreFile | null;
  /** The folder's tree id while nothing under it changed; null when it must be built again. */
  tree: string | null;
  /** The tree id it had before it last changed: a rebuilt tree with that id is stored already. */
  lastTree?: string | null;
}

/** A file whose content must be read: its stat data changed, it is new, or its last read was racy. */
export interface FileToRead {
  node: FileNode;
  folder: DirNode;
  name: string;
  absolute: string;
  /** "/"-separated, relative to the workspace folder. */
  relative: string;
}

export function emptyDirectory(): DirNode {
  return { listing: [], files: new Map(), dirs: new Map(), gitignoreStamp: "", tree: null };
}

/** The picture's file at a "/"-separated path, if it saves one there. */
export function fileNodeAt(root: DirNode, relativePath: string): FileNode | undefined {
  const parts = relativePath.split("/");
  let node: DirNode | undefined = root;
  for (const part of parts.slice(0, -1)) node = node?.dirs.get(part);
  return node?.files.get(parts[parts.length - 1]);
}

/** The editor's files.exclude globs that are on, as matchers; a change of the list classifies every folder again. */
export class ExcludeRules {
  readonly key: string;
  private readonly matchers: ((relativePath: string) => boolean)[];

  constructor(globs: readonly string[]) {
    this.key = JSON.stringify([...globs].sort());
    this.matchers = globs.map((glob) => createPathMatcher(glob));
  }

  excludes(relativePath: string): boolean {
    for (const matches of this.matchers) if (matches(relativePath)) return true;
    return false;
  }
}

/**
 * Brings `root`, the picture of `folder` from the last checkpoint, up to date: returns the files to read, and
 * whether the picture changed at all. `reclassify`: the exclude globs changed, so every name is judged again.
 */
export async function scanFolder(folder: string, root: DirNode, excludes: ExcludeRules, reclassify: boolean): Promise<{ toRead: FileToRead[]; changed: boolean }> {
  const scan: Scan = { excludes, toRead: [], sliceStarted: performance.now() };
  // The folder itself must be readable: an empty checkpoint of a folder that is gone would "delete" everything.
  readdirSync(folder);
  const changed = (await scanDirectory(scan, root, folder, "", [], reclassify, false)) !== unchanged;
  return { toRead: scan.toRead, changed };
}

interface Scan {
  excludes: ExcludeRules;
  toRead: FileToRead[];
  /** When the scan last let the event loop run (see sliceMs). */
  sliceStarted: number;
}

/** The scan lets the event loop run this often between folders: a workspace of 100,000 files takes a while. */
const sliceMs = 10;

const separator = path.sep;
/** Git never enters or saves a `.git` entry; file systems that ignore case would let `.GIT` be the same. */
const caseInsensitive = process.platform === "win32" || process.platform === "darwin";

function isGitEntry(name: string): boolean {
  return caseInsensitive ? name.length === 4 && name.toLowerCase() === ".git" : name === ".git";
}

/** What a scan of a folder found: nothing changed, something changed (its tree is built again), or no folder there. */
const unchanged = 0;
const changedBelow = 1;
const notAFolder = 2;
type FolderScan = typeof unchanged | typeof changedBelow | typeof notAFolder;

async function scanDirectory(scan: Scan, node: DirNode, absolute: string, relative: string, inherited: readonly GitignoreFile[], reclassify: boolean, retried: boolean): Promise<FolderScan> {
  if (performance.now() - scan.sliceStarted > sliceMs) {
    await new Promise((resolve) => setImmediate(resolve));
    scan.sliceStarted = performance.now();
  }
  let names: string[];
  try {
    names = readdirSync(absolute);
  } catch {
    // Gone, turned into a file, or unreadable since the parent was listed: the parent classifies its names again.
    node.files = new Map();
    node.dirs = new Map();
    node.listing = [];
    invalidate(node, true);
    return notAFolder;
  }
  let changed = false;
  if (readGitignore(node, absolute, relative, names)) reclassify = true;
  const rules = node.gitignore ? [...inherited, node.gitignore] : inherited;
  if (reclassify || !sameNames(names, node.listing)) {
    classify(scan, node, absolute, relative, rules);
    changed = true;
  }
  // Removed since the listing, or another kind under the same name (a file now a folder or a link): the folder
  // is classified again.
  let kindChanged = false;
  for (const [name, file] of node.files) {
    const absoluteFile = absolute + separator + name;
    const stats = lstatSync(absoluteFile, { throwIfNoEntry: false });
    if (!stats || !(stats.isSymbolicLink() ? file.link : stats.isFile() && !file.link)) {
      kindChanged = true;
      continue;
    }
    if (file.racy || differs(file, stats)) {
      file.size = stats.size;
      file.mtimeMs = stats.mtimeMs;
      file.ctimeMs = stats.ctimeMs;
      file.ino = stats.ino;
      file.perm = stats.mode & 0o7777;
      scan.toRead.push({ node: file, folder: node, name, absolute: absoluteFile, relative: relative === "" ? name : `${relative}/${name}` });
      changed = true;
    }
  }
  for (const [name, directory] of node.dirs) {
    const found = await scanDirectory(scan, directory, absolute + separator + name, relative === "" ? name : `${relative}/${name}`, rules, reclassify, false);
    if (found === notAFolder) kindChanged = true;
    if (found !== unchanged) changed = true;
  }
  if (kindChanged && !retried) {
    await scanDirectory(scan, node, absolute, relative, inherited, true, true);
    changed = true;
  }
  invalidate(node, changed);
  return changed ? changedBelow : unchanged;
}

function invalidate(node: DirNode, changed: boolean): void {
  if (changed && node.tree !== null) {
    node.lastTree = node.tree;
    node.tree = null;
  }
}

/** Reads the folder's .gitignore again when its stat data changed; true when its rules changed. */
function readGitignore(node: DirNode, absolute: string, relative: string, names: readonly string[]): boolean {
  let stamp = "";
  let stats: Stats | undefined;
  if (names.includes(".gitignore")) {
    stats = lstatSync(absolute + separator + ".gitignore", { throwIfNoEntry: false });
    // A folder or a link named .gitignore holds no rules (git reads neither).
    if (stats?.isFile()) stamp = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
  }
  const changed = stamp !== node.gitignoreStamp;
  if (changed || node.gitignore === undefined) {
    let rules: GitignoreFile | null = null;
    if (stamp !== "") {
      try {
        rules = parseGitignore(readFileSync(absolute + separator + ".gitignore", "utf8"), relative);
      } catch {
        // Unreadable: it ignores nothing, as for git.
      }
    }
    node.gitignore = rules;
    node.gitignoreStamp = stamp;
  }
  return changed;
}

/** Judges every name of the folder again: what is saved, what is entered, what is left out. */
function classify(scan: Scan, node: DirNode, absolute: string, relative: string, rules: readonly GitignoreFile[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(absolute, { withFileTypes: true });
  } catch {
    entries = [];
  }
  const files = new Map<string, FileNode>();
  const dirs = new Map<string, DirNode>();
  for (const entry of entries) {
    const name = entry.name;
    if (isGitEntry(name)) continue;
    const relativePath = relative === "" ? name : `${relative}/${name}`;
    if (entry.isDirectory()) {
      if (isIgnoredByGitignore(rules, relativePath, true) || scan.excludes.excludes(relativePath)) continue;
      dirs.set(name, node.dirs.get(name) ?? emptyDirectory());
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (isIgnoredByGitignore(rules, relativePath, false) || scan.excludes.excludes(relativePath)) continue;
      const link = entry.isSymbolicLink();
      const known = node.files.get(name);
      files.set(name, known && known.link === link ? known : newFile(link));
    }
  }
  node.files = files;
  node.dirs = dirs;
  node.listing = entries.map((entry) => entry.name);
}

function newFile(link: boolean): FileNode {
  return { link, perm: 0, size: -1, mtimeMs: 0, ctimeMs: 0, ino: 0, oid: null, racy: true };
}

function differs(file: FileNode, stats: Stats): boolean {
  return file.size !== stats.size || file.mtimeMs !== stats.mtimeMs || file.ctimeMs !== stats.ctimeMs || file.ino !== stats.ino || file.perm !== (stats.mode & 0o7777);
}

/** An unchanged folder lists its names in the same order; any other order is treated as a change (it is rare). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
