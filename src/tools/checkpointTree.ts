import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { deflateSync } from "node:zlib";
import { writePack } from "./checkpointPack";

// The tree of the shadow index, written without starting `git write-tree`: one git process fewer on every
// checkpoint after the first. On the 10,000-file benchmark after 20 changes, `git write-tree` took 9-12 ms of
// CPU plus 2 ms in this process to start it; this takes 2.5-3 ms once V8 has optimized it (it reads the whole
// index, 1 MB, but no work-tree file). The new trees go into one pack (checkpointPack), or loose when few.
// git keeps, in the index's cache-tree extension (TREE), the tree id of every folder whose files did not change
// since a tree was last written; `git add` marks the folders it changed invalid. So only those folders' trees
// are made here, from the index entries, exactly as git makes them; every other folder's tree is the one git
// recorded. The index itself is not written (only git writes it), so folders stay marked until git writes a
// tree again: past `maxTreesToWrite` folders, or when the index holds anything unusual (a format or entry this
// code does not read), null is returned and the caller runs `git write-tree`, which also marks them valid again.

/** More folders to write than this and `git write-tree` does it (and refreshes the cache-tree) instead. */
const maxTreesToWrite = 64;

interface CachedTree {
  /** Index entries under the folder; -1 when `git add` changed something in it since its tree was written. */
  entryCount: number;
  id: string | null;
}

/** An index as this code reads it: entries by offset (their paths decoded only where needed) and the cache-tree. */
interface IndexView {
  buffer: Buffer;
  /** Byte offset of each entry. */
  offsets: Uint32Array;
  /** Folder path with a trailing slash ("" for the root) -> its cached tree. */
  cachedTrees: Map<string, CachedTree>;
}

class UnreadableIndex extends Error {}

/**
 * The tree id of the index at `indexFile`, its new folder trees written into `gitDir` (as one pack, or loose
 * when there are one or two); null when git should write it (see above). `unchangedTree`: the last
 * checkpoint's tree, whose folder trees need no writing.
 */
export async function writeIndexTree(gitDir: string, indexFile: string, unchangedTree?: string): Promise<string | null> {
  let index: IndexView;
  try {
    // Read at once (1 MB for 10,000 files, from the page cache git just wrote it to): as a promise it is read in
    // 512 KB pieces, each a trip through the thread pool.
    index = readIndex(readFileSync(indexFile));
  } catch (error) {
    if (error instanceof UnreadableIndex || (error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // Without a valid root entry git has no trees recorded (a new index): git writes them all at once.
  if (!index.cachedTrees.has("")) return null;
  const newTrees: { id: string; content: Buffer }[] = [];
  try {
    const root = buildTree(index, 0, "", newTrees).id;
    // The same tree as the last checkpoint's: every folder tree in it is stored already.
    if (root === unchangedTree) return root;
    // Two folders with the same files have one tree: it is written once. Folders git has not marked valid
    // again are built and packed again each time (a few KB): remembering what was written would need to know
    // it stayed reachable (a checkpoint whose commit failed leaves its trees for the next repack to drop).
    const unique = new Map(newTrees.map((tree) => [tree.id, tree.content]));
    if (unique.size >= 3) writePack(gitDir, [...unique].map(([id, content]) => ({ id, type: "tree" as const, content })));
    else for (const [id, content] of unique) writeTreeUnlessPresent(gitDir, id, content);
    return root;
  } catch (error) {
    if (error instanceof UnreadableIndex) return null;
    throw error;
  }
}

/** Builds the tree of the entries from `start` under `prefix`; returns its id and the first entry after them. */
function buildTree(index: IndexView, start: number, prefix: string, newTrees: { id: string; content: Buffer }[]): { id: string; end: number } {
  const cached = index.cachedTrees.get(prefix);
  if (cached && cached.entryCount >= 0 && cached.id) {
    const end = start + cached.entryCount;
    // The recorded count must cover exactly the entries under the folder; anything else and git decides.
    if (end > index.offsets.length || (cached.entryCount > 0 && !entryPath(index, end - 1).startsWith(prefix)) || (end < index.offsets.length && entryPath(index, end).startsWith(prefix))) {
      throw new UnreadableIndex("cache-tree does not match the entries");
    }
    return { id: cached.id, end };
  }
  const parts: { mode: string; name: string; id: Buffer }[] = [];
  let position = start;
  while (position < index.offsets.length) {
    const entry = entryPath(index, position);
    if (!entry.startsWith(prefix)) break;
    const rest = entry.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) {
      parts.push({ mode: entryMode(index, position), name: rest, id: entryId(index, position) });
      position += 1;
    } else {
      const name = rest.slice(0, slash);
      const subtree = buildTree(index, position, `${prefix}${name}/`, newTrees);
      parts.push({ mode: "40000", name, id: Buffer.from(subtree.id, "hex") });
      position = subtree.end;
    }
  }
  if (newTrees.length >= maxTreesToWrite) throw new UnreadableIndex("too many folders changed");
  const content = treeContent(parts);
  const id = objectId("tree", content);
  newTrees.push({ id, content });
  return { id, end: position };
}

/** A tree as git stores it: per entry the octal mode, a space, the name, NUL and the binary object id. Names are bytes (latin1). */
function treeContent(entries: readonly { mode: string; name: string; id: Buffer }[]): Buffer {
  let size = 0;
  for (const entry of entries) size += entry.mode.length + 1 + entry.name.length + 1 + 20;
  const content = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const entry of entries) {
    offset += content.write(`${entry.mode} ${entry.name}\0`, offset, "latin1");
    offset += entry.id.copy(content, offset);
  }
  return content;
}

/** A tree's id is known before it is written, so a folder's tree can name its subfolders' trees. */
function objectId(type: string, content: Buffer): string {
  return createHash("sha1").update(`${type} ${content.length}\0`, "latin1").update(content).digest("hex");
}

/**
 * Written synchronously (as the pack is): a few small file operations cost less so than as promises, each a
 * trip through libuv's thread pool (22 trees: 2 ms against 4.5 ms, Node 20 on Linux). git's own way: a
 * temporary file renamed into place, never replacing an object.
 */
function writeTreeUnlessPresent(gitDir: string, id: string, content: Buffer): void {
  const directory = path.join(gitDir, "objects", id.slice(0, 2));
  const file = path.join(directory, id.slice(2));
  if (existsSync(file)) return;
  const stored = deflateSync(Buffer.concat([Buffer.from(`tree ${content.length}\0`, "latin1"), content]), { level: 1 });
  const temporary = path.join(directory, `tmp_obj_relay_${process.pid}_${Date.now()}_${id.slice(2, 10)}`);
  // Made when missing without an exception (a thrown error costs more than the call).
  mkdirSync(directory, { recursive: true });
  writeFileSync(temporary, stored, { flag: "wx", mode: 0o444 });
  renameSync(temporary, file);
}

// The index file format (git's Documentation/gitformat-index.txt): "DIRC", version, entry count; each entry
// 62 bytes of stat data, mode, object id and flags, then its path and NUL padding to a multiple of 8 bytes
// (version 2 and 3); then extensions (4-byte signature, 4-byte size); then a SHA-1 of all that.

const entryHeaderBytes = 62;
const modeOffset = 24;
const idOffset = 40;
const flagsOffset = 60;

function readIndex(buffer: Buffer): IndexView {
  if (buffer.length < 32 || buffer.toString("latin1", 0, 4) !== "DIRC") throw new UnreadableIndex("not an index");
  const version = buffer.readUInt32BE(4);
  // Version 4 compresses paths; only git writes that (when configured), and then git makes the tree.
  if (version !== 2 && version !== 3) throw new UnreadableIndex(`index version ${version}`);
  const count = buffer.readUInt32BE(8);
  const end = buffer.length - 20;
  const offsets = new Uint32Array(count);
  let offset = 12;
  for (let entry = 0; entry < count; entry += 1) {
    if (offset + entryHeaderBytes > end) throw new UnreadableIndex("truncated");
    // Bytes read directly: this loop runs once per file, mostly before V8 has optimized it (a checkpoint is
    // taken once per tool round), and a Buffer method call per entry costs more then.
    const flags = (buffer[offset + flagsOffset] << 8) | buffer[offset + flagsOffset + 1];
    // Extended flags (intent-to-add, skip-worktree) and merge stages: never written for checkpoints; git decides.
    if (flags & 0x4000 || flags & 0x3000) throw new UnreadableIndex("extended or staged entry");
    const nameLength = flags & 0xfff;
    // 0xfff means "this long or longer": the name ends at its NUL.
    const nameEnd = nameLength < 0xfff ? offset + entryHeaderBytes + nameLength : buffer.indexOf(0, offset + entryHeaderBytes);
    if (nameEnd < 0 || nameEnd >= end) throw new UnreadableIndex("truncated name");
    offsets[entry] = offset;
    offset += (nameEnd - offset + 8) & ~7;
  }
  const cachedTrees = new Map<string, CachedTree>();
  while (offset + 8 <= end) {
    const signature = buffer.toString("latin1", offset, offset + 4);
    const size = buffer.readUInt32BE(offset + 4);
    const data = offset + 8;
    if (data + size > end) throw new UnreadableIndex("truncated extension");
    // A lowercase signature is one git requires a reader to understand (a split or sparse index): git decides.
    if (signature[0] < "A" || signature[0] > "Z") throw new UnreadableIndex(`required extension ${signature}`);
    if (signature === "TREE") readCachedTrees(buffer, data, data + size, cachedTrees);
    offset = data + size;
  }
  return { buffer, offsets, cachedTrees };
}

/** The cache-tree extension: folders in pre-order, each "name NUL entry-count SP subtree-count LF [id]". */
function readCachedTrees(buffer: Buffer, start: number, end: number, into: Map<string, CachedTree>): void {
  let position = start;
  const readNode = (parent: string | null): void => {
    const nameEnd = buffer.indexOf(0, position);
    const space = buffer.indexOf(0x20, nameEnd);
    const newline = buffer.indexOf(0x0a, space);
    if (nameEnd < 0 || space < 0 || newline < 0 || newline >= end) throw new UnreadableIndex("cache-tree");
    const name = buffer.toString("latin1", position, nameEnd);
    const entryCount = Number(buffer.toString("latin1", nameEnd + 1, space));
    const subtreeCount = Number(buffer.toString("latin1", space + 1, newline));
    if (!Number.isInteger(entryCount) || !Number.isInteger(subtreeCount) || subtreeCount < 0) throw new UnreadableIndex("cache-tree counts");
    position = newline + 1;
    let id: string | null = null;
    if (entryCount >= 0) {
      if (position + 20 > end) throw new UnreadableIndex("cache-tree id");
      id = buffer.toString("hex", position, position + 20);
      position += 20;
    }
    // The root's name is empty; every folder below is named relative to its parent.
    const folder = parent === null ? "" : `${parent}${name}/`;
    into.set(folder, { entryCount, id });
    for (let subtree = 0; subtree < subtreeCount; subtree += 1) readNode(folder);
  };
  if (position < end) readNode(null);
}

function entryPath(index: IndexView, entry: number): string {
  const offset = index.offsets[entry];
  const nameStart = offset + entryHeaderBytes;
  const nameLength = index.buffer.readUInt16BE(offset + flagsOffset) & 0xfff;
  const nameEnd = nameLength < 0xfff ? nameStart + nameLength : index.buffer.indexOf(0, nameStart);
  return index.buffer.toString("latin1", nameStart, nameEnd);
}

/** Checked only for the entries a new tree names (the rest are in trees git wrote): a folder entry (sparse index) and git decides. */
function entryMode(index: IndexView, entry: number): string {
  const mode = index.buffer.readUInt32BE(index.offsets[entry] + modeOffset);
  // Spelled out: no number formatting per entry.
  if (mode === 0o100644) return "100644";
  if (mode === 0o100755) return "100755";
  if (mode === 0o120000) return "120000";
  if (mode === 0o160000) return "160000";
  throw new UnreadableIndex(`mode ${mode.toString(8)}`);
}

function entryId(index: IndexView, entry: number): Buffer {
  const offset = index.offsets[entry] + idOffset;
  return index.buffer.subarray(offset, offset + 20);
}
