import { lstatSync, readFileSync, readdirSync } from "node:fs";
import type { Dirent, Stats } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { StatList, StatRun } from "./checkpointStat";
import { kindFile, kindLink, startStats, statFieldCount, statList } from "./checkpointStat";
import type { GitignoreFile } from "./gitignoreRules";
import { isIgnoredByGitignore, parseGitignore } from "./gitignoreRules";
import { createPathMatcher } from "./globPattern";

// What a checkpoint saves of a workspace folder, found by this process rather than by `git add`: every file and
// symbolic link that .gitignore files and the editor's files.exclude do not leave out, with the stat data it had
// when its content was last read. Checkpoints keep this picture between checkpoints (and on disk, see
// checkpointRecord), so a checkpoint lists each folder again (new and removed names) and looks at each file's
// stat data (checkpointStat), and reads only the files whose stat data changed, as git's index lets `git add` do.
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
 * In three steps: the folders are listed (and their names judged where they changed), the stat data of every
 * file is taken at once (checkpointStat, on two threads when there are many), and each is compared with the
 * picture's. A folder where a file vanished or changed kind (or a folder that is no longer one) is listed and
 * judged again, once.
 */
export async function scanFolder(folder: string, root: DirNode, excludes: ExcludeRules, reclassify: boolean): Promise<{ toRead: FileToRead[]; changed: boolean }> {
  // The folder itself must be readable: an empty checkpoint of a folder that is gone would "delete" everything.
  readdirSync(folder);
  // The helper thread starts on the last scan's list while this thread lists the folders; used if it is the same.
  const last = lastLists.get(root);
  const early = last ? startStats(last.stats) : undefined;
  const scan = newScan(excludes);
  let toRead: FileToRead[];
  try {
    await walk(scan, { node: root, absolute: folder, relative: "", inherited: [] }, reclassify, null);
    toRead = await compare(scan, statsFor(scan, root, early));
  } catch (error) {
    early?.abandon();
    throw error;
  }
  if (scan.again.size > 0) {
    const again = newScan(excludes);
    for (const place of scan.again.values()) {
      place.node.listing = [];
      await walk(again, place, false, null);
    }
    const seen = new Set(toRead.map((file) => file.node));
    for (const file of await compare(again, statsFor(again, null, undefined))) if (!seen.has(file.node)) toRead.push(file);
    for (const node of again.changed) scan.changed.add(node);
  }
  return { toRead, changed: settle(root, scan.changed) };
}

/** The files a scan of a picture looked at, in order, and their paths: the next scan's list while no folder's entries change. */
interface ScanList {
  files: readonly FileNode[];
  stats: StatList;
}

const lastLists = new WeakMap<DirNode, ScanList>();
/** A number for each picture scanned, under which the helper thread keeps its list. */
const slots = new WeakMap<DirNode, number>();
let slotCount = 0;

/**
 * The paths of the scan's files and their stat data being taken: the last scan's (started early) when the scan
 * met the same files in the same order, which holds while no folder's entries changed (a file's node stays at
 * its path: the picture reuses a node only for the same name in the same folder). `root`: the picture scanned,
 * whose list is kept for the next scan (null for a second look at a few folders).
 */
function statsFor(scan: Scan, root: DirNode | null, early: StatRun | undefined): { paths: readonly string[]; run: StatRun } {
  const last = root ? lastLists.get(root) : undefined;
  if (last && early && sameNodes(last.files, scan.files)) return { paths: last.stats.paths, run: early };
  early?.abandon();
  const paths = scan.files.map((_, index) => scan.places[index].absolute + separator + scan.names[index]);
  let slot: number | undefined;
  if (root) {
    slot = slots.get(root) ?? (slotCount += 1);
    slots.set(root, slot);
  }
  const stats = statList(paths, slot);
  if (root) lastLists.set(root, { files: scan.files, stats });
  return { paths, run: startStats(stats) };
}

function sameNodes(a: readonly FileNode[], b: readonly FileNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** A folder of the picture and where it is. */
interface Place {
  node: DirNode;
  absolute: string;
  relative: string;
  /** The .gitignore rules of the folders above it. */
  inherited: readonly GitignoreFile[];
}

interface Scan {
  excludes: ExcludeRules;
  /** The files to look at, as three lists side by side: the file, its name, its folder. */
  files: FileNode[];
  names: string[];
  places: Place[];
  /** Folders whose own entries changed (their trees, and their parents', are built again). */
  changed: Set<DirNode>;
  /** Folders to list and judge again. */
  again: Map<DirNode, Place>;
  /** When the scan last let the event loop run (see sliceMs). */
  sliceStarted: number;
}

function newScan(excludes: ExcludeRules): Scan {
  return { excludes, files: [], names: [], places: [], changed: new Set(), again: new Map(), sliceStarted: performance.now() };
}

/** The scan lets the event loop run this often between folders: a workspace of 100,000 files takes a while. */
const sliceMs = 10;

const separator = path.sep;
/**
 * Git never enters or saves a `.git` entry, in any case (it refuses to write `.GIT` too, which is `.git` where
 * case is ignored).
 */
function isGitEntry(name: string): boolean {
  return name.length === 4 && name.toLowerCase() === ".git";
}

/**
 * A name that is not valid UTF-8 reaches JavaScript with U+FFFD in place of its bytes and cannot be opened
 * by the name it gets: such a file is not saved (git would store its bytes; this code names files as text).
 */
function unreachable(absolute: string, name: string): boolean {
  return name.includes("\ufffd") && lstatSync(absolute + separator + name, { throwIfNoEntry: false }) === undefined;
}

/** Lists the folder (judging its names again where they changed) and the folders below, noting every file to look at. */
async function walk(scan: Scan, place: Place, reclassify: boolean, parent: Place | null): Promise<void> {
  if (performance.now() - scan.sliceStarted > sliceMs) {
    await new Promise((resolve) => setImmediate(resolve));
    scan.sliceStarted = performance.now();
  }
  const { node, absolute, relative } = place;
  let names: string[];
  try {
    names = readdirSync(absolute);
  } catch {
    // Gone, turned into a file, or unreadable since the parent was listed: the parent is judged again.
    node.files = new Map();
    node.dirs = new Map();
    node.listing = [];
    scan.changed.add(node);
    if (parent) scan.again.set(parent.node, parent);
    return;
  }
  if (readGitignore(node, absolute, relative, names)) reclassify = true;
  const rules = node.gitignore ? [...place.inherited, node.gitignore] : place.inherited;
  if (reclassify || !sameNames(names, node.listing)) {
    classify(scan, node, absolute, relative, rules);
    scan.changed.add(node);
  }
  for (const [name, file] of node.files) {
    scan.files.push(file);
    scan.names.push(name);
    scan.places.push(place);
  }
  for (const [name, directory] of node.dirs) {
    await walk(scan, { node: directory, absolute: absolute + separator + name, relative: relative === "" ? name : `${relative}/${name}`, inherited: rules }, reclassify, place);
  }
}

/** Takes every noted file's stat data (`stats`: their paths, and the run taking it) and compares it with the picture's; returns the files to read. */
async function compare(scan: Scan, stats: { paths: readonly string[]; run: StatRun }): Promise<FileToRead[]> {
  const { files, names, places } = scan;
  const { paths } = stats;
  const fields = await stats.run.finish();
  const toRead: FileToRead[] = [];
  for (let index = 0, offset = 0; index < files.length; index += 1, offset += statFieldCount) {
    const file = files[index];
    const place = places[index];
    const kind = fields[offset];
    if (kind !== (file.link ? kindLink : kindFile)) {
      // Removed since the listing, or another kind under the same name (a file now a folder or a link).
      scan.again.set(place.node, place);
      continue;
    }
    // Read one by one (no array per file: this runs for every file of the workspace).
    const size = fields[offset + 1];
    const mtimeMs = fields[offset + 2];
    const ctimeMs = fields[offset + 3];
    const ino = fields[offset + 4];
    const perm = fields[offset + 5] & 0o7777;
    if (!file.racy && file.size === size && file.mtimeMs === mtimeMs && file.ctimeMs === ctimeMs && file.ino === ino && file.perm === perm) continue;
    file.size = size;
    file.mtimeMs = mtimeMs;
    file.ctimeMs = ctimeMs;
    file.ino = ino;
    file.perm = perm;
    const name = names[index];
    toRead.push({ node: file, folder: place.node, name, absolute: paths[index], relative: place.relative === "" ? name : `${place.relative}/${name}` });
    scan.changed.add(place.node);
  }
  return toRead;
}

/** Marks the tree of every changed folder, and of the folders above it, to be built again; true when the root's is. */
function settle(node: DirNode, changed: ReadonlySet<DirNode>): boolean {
  let below = changed.has(node);
  for (const directory of node.dirs.values()) if (settle(directory, changed)) below = true;
  if (below && node.tree !== null) {
    node.lastTree = node.tree;
    node.tree = null;
  }
  return below;
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
    if (isGitEntry(name) || unreachable(absolute, name)) continue;
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

/** An unchanged folder lists its names in the same order; any other order is treated as a change (it is rare). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
