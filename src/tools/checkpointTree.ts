import type { ObjectBatch } from "./checkpointObjects";
import { objectId } from "./checkpointPack";
import type { DirNode } from "./checkpointScan";

// The tree of a checkpoint, built from the scan's picture of the folder (checkpointScan) exactly as git builds
// trees: only the folders where something changed are built again; every other folder keeps the tree id it had.
// New trees go into the checkpoint's object batch (checkpointObjects). Git's rules: entries sorted by name as
// bytes, a folder compared as if its name ended in "/"; an empty folder has no entry; modes 100644, 100755
// (the owner may execute it), 120000 (a symbolic link) and 40000 (a folder).

/** The id git gives the empty tree (an empty workspace folder). */
export const emptyTreeId = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

interface TreeEntry {
  mode: string;
  name: string;
  /** The name as sorted: a folder's with "/" after it. */
  key: string;
  id: string;
}

/**
 * The root tree id of `root`. `overrides` ("/"-separated relative path -> blob id) stand in for the content on
 * disk (the editor's unsaved text); folders holding one are built for this checkpoint only, never remembered.
 */
export function buildTree(root: DirNode, batch: ObjectBatch, overrides: ReadonlyMap<string, string> = new Map()): string {
  const overridden = new Set<string>();
  for (const relativePath of overrides.keys()) {
    for (let slash = relativePath.lastIndexOf("/"); slash > 0; slash = relativePath.lastIndexOf("/", slash - 1)) overridden.add(relativePath.slice(0, slash));
    overridden.add("");
  }
  return treeOf(root, "", batch, overrides, overridden);
}

function treeOf(node: DirNode, relative: string, batch: ObjectBatch, overrides: ReadonlyMap<string, string>, overridden: ReadonlySet<string>): string {
  const holdsOverride = overridden.has(relative);
  if (node.tree !== null && !holdsOverride) return node.tree;
  const entries: TreeEntry[] = [];
  const prefix = relative === "" ? "" : `${relative}/`;
  for (const [name, file] of node.files) {
    if (file.oid === null) continue;
    const mode = file.link ? "120000" : file.perm & 0o100 ? "100755" : "100644";
    entries.push({ mode, name, key: name, id: (holdsOverride && overrides.get(prefix + name)) || file.oid });
  }
  for (const [name, directory] of node.dirs) {
    const id = treeOf(directory, prefix + name, batch, overrides, overridden);
    if (id !== emptyTreeId) entries.push({ mode: "40000", name, key: `${name}/`, id });
  }
  entries.sort(entries.some((entry) => hasSurrogate(entry.key)) ? compareAsBytes : compareAsText);
  const content = treeContent(entries);
  const id = objectId("tree", content);
  // A tree with the id this folder had before it changed (a file touched, not changed) is stored already.
  if (id !== node.lastTree || holdsOverride) batch.add("tree", id, content);
  if (!holdsOverride) {
    node.tree = id;
    node.lastTree = null;
  }
  return id;
}

/** Byte order of the UTF-8 names, which UTF-16 order (JavaScript's) agrees with unless a name has a surrogate pair. */
function compareAsText(a: TreeEntry, b: TreeEntry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function compareAsBytes(a: TreeEntry, b: TreeEntry): number {
  return Buffer.compare(Buffer.from(a.key, "utf8"), Buffer.from(b.key, "utf8"));
}

function hasSurrogate(text: string): boolean {
  return /[\ud800-\udfff]/.test(text);
}

/** A tree as git stores it: per entry the octal mode, a space, the name (UTF-8), NUL and the binary object id. */
function treeContent(entries: readonly TreeEntry[]): Buffer {
  let size = 0;
  for (const entry of entries) size += entry.mode.length + 1 + Buffer.byteLength(entry.name, "utf8") + 1 + 20;
  const content = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const entry of entries) {
    offset += content.write(`${entry.mode} ${entry.name}\0`, offset, "utf8");
    offset += content.write(entry.id, offset, "hex");
  }
  return content;
}
