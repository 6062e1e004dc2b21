import { performance } from "node:perf_hooks";
import type { PackObject } from "./checkpointPack";
import { PackBuilder, objectId, writeLooseObject } from "./checkpointPack";
import type { ContentSource, ImportResult } from "./checkpointContent";
import { readContent } from "./checkpointContent";
import type { GitResult } from "./checkpointGit";
import type { FileToRead } from "./checkpointScan";

// The content of the files a scan found changed, read and stored as git blobs: a few small files are read,
// hashed and compressed here and their blobs gathered into packs (checkpointPack); many at once (a first
// checkpoint) are read here and streamed to git fast-import (checkpointImport); large ones are left to git
// (`hash-object --stdin-paths`), which streams them instead of holding them in memory. The content is stored
// exactly as read: no line-ending conversion, filter or `ident` expansion of the workspace's .gitattributes.
//
// A file's stat data vouches for its content only if the file did not change again within the same tick of its
// modification time after it was read (racy git, Documentation/technical/racy-git.txt). Files whose times are
// within `racyMarginMs` of the checkpoint (by this machine's clock and by the file system's own, which can
// differ on a network drive) are read again at the next checkpoint: a few files, the ones just written.

/** Files at least this large are stored by git, streaming. */
export const largeFileBytes = 8 * 1024 * 1024;
/** The objects waiting are written as a pack once they reach this many bytes (compressed). */
const packBytes = 32 * 1024 * 1024;
/** Covers file systems whose times have a coarse tick (FAT's 2 s, 1 s on some network drives). */
const racyMarginMs = 2_000;
/** Reading yields to the event loop this often, so the editor stays responsive during a large first checkpoint. */
const sliceMs = 10;

/** New objects gathered and written as packs of about `packBytes` (one or two alone as loose files). */
export class ObjectBatch {
  private pack = new PackBuilder();
  /** The first objects as given, written loose if no third one comes (two loose files cost less than a pack's two). */
  private few: PackObject[] = [];
  private readonly ids = new Set<string>();

  constructor(private readonly gitDir: string) {}

  /** `content` may be reused by the caller once this returns. */
  add(type: PackObject["type"], id: string, content: Buffer): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.pack.count === 0 && this.few.length < 2) {
      this.few.push({ id, type, content: Buffer.from(content) });
      return;
    }
    for (const object of this.few) this.pack.add(object);
    this.few = [];
    this.pack.add({ id, type, content });
    if (this.pack.size >= packBytes) this.flush();
  }

  /** Writes what is waiting; after it, every object added is in the repository. */
  flush(): void {
    if (this.pack.count > 0) this.pack.write(this.gitDir);
    for (const object of this.few) writeLooseObject(this.gitDir, object.type, object.content, object.id);
    this.pack = new PackBuilder();
    this.few = [];
  }
}

/** How files that changed are stored besides the object batch: by git, for large files and for many files at once. */
export interface BlobStorage {
  batch: ObjectBatch;
  /** Stores large files (git hash-object); their ids in the order of the paths, null for one it could not read. */
  storeLarge(relativePaths: string[]): Promise<(string | null)[]>;
  /** Streams many files at once to git fast-import (on two threads when it can: see checkpointHelper). */
  importFiles(files: readonly ContentSource[]): Promise<ImportResult>;
}

/**
 * Stores files of 8 MB and more with `git hash-object --stdin-paths`, which streams them; their ids in order,
 * null for a file it could not read.
 */
export async function storeLargeFiles(git: (args: readonly string[], input: string) => Promise<GitResult>, relativePaths: readonly string[]): Promise<(string | null)[]> {
  const hash = async (paths: readonly string[]) => (await git(["hash-object", "-w", "--no-filters", "--stdin-paths"], paths.map(quotePathLine).join("\n") + "\n")).stdout.toString("utf8").split("\n").filter(Boolean);
  try {
    return await hash(relativePaths);
  } catch {
    // One file it could not read stops git: each is tried alone.
    const ids: (string | null)[] = [];
    for (const relativePath of relativePaths) ids.push((await hash([relativePath]).catch(() => []))[0] ?? null);
    return ids;
  }
}

/** A path as `git hash-object --stdin-paths` reads a line: C-quoted when it starts with a quote or holds a line break or backslash. */
function quotePathLine(relativePath: string): string {
  if (!/^"|[\\\n\r\t"]/.test(relativePath)) return relativePath;
  return `"${relativePath.replace(/[\\"]/g, (character) => `\\${character}`).replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}"`;
}

/** From this many files on, their content goes to git fast-import (a process costs more than a few files). */
const importFromFiles = 256;

/** Reads the files, stores their blobs where new, and updates each file's blob id and racy mark. */
export async function readChangedFiles(files: readonly FileToRead[], storage: BlobStorage, checkpointStartedMs: number, fileSystemNowMs: () => number): Promise<void> {
  const large = files.filter((file) => !file.node.link && file.node.size >= largeFileBytes);
  const small = large.length === 0 ? files : files.filter((file) => file.node.link || file.node.size < largeFileBytes);
  if (small.length < importFromFiles || !(await importFiles(small, storage))) await storeHere(small, storage.batch);
  if (large.length > 0) {
    const ids = await storage.storeLarge(large.map((file) => file.relative));
    large.forEach((file, index) => setBlob(file, ids[index] ?? null, false));
  }
  markRacy(files, Math.min(checkpointStartedMs, files.length > 0 ? fileSystemNowMs() : Infinity) - racyMarginMs);
}

/** Reads, hashes and compresses here, yielding to the event loop now and then. */
async function storeHere(files: readonly FileToRead[], batch: ObjectBatch): Promise<void> {
  let sliceStarted = performance.now();
  for (const [index, file] of files.entries()) {
    const content = readContent(contentSource(file));
    if (content) {
      const id = objectId("blob", content);
      if (id !== file.node.oid) batch.add("blob", id, content);
      setBlob(file, id, !file.node.link && content.length !== file.node.size);
    } else setBlob(file, null, true);
    if ((index & 63) === 63 && performance.now() - sliceStarted > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
}

/** Streams the files to git fast-import; false when git could not take them (they are then stored here). */
async function importFiles(files: readonly FileToRead[], storage: BlobStorage): Promise<boolean> {
  let imported: ImportResult;
  try {
    imported = await storage.importFiles(files.map(contentSource));
  } catch {
    return false;
  }
  files.forEach((file, index) => setBlob(file, imported.ids[index], !file.node.link && imported.lengths[index] !== file.node.size));
  return true;
}

function contentSource(file: FileToRead): ContentSource {
  return { absolute: file.absolute, size: file.node.size, link: file.node.link };
}

/** Records what was read (racy: read while it was being written, its stat data is older than its content). */
function setBlob(file: FileToRead, id: string | null, racy: boolean): void {
  if (id === null) return unreadable(file);
  file.node.oid = id;
  file.node.racy = racy;
}

function markRacy(files: readonly FileToRead[], since: number): void {
  for (const { node } of files) if (node.mtimeMs >= since || node.ctimeMs >= since) node.racy = true;
}

/**
 * A file that could not be read: one saved before keeps its last content (and is tried again next time), as
 * `git add --ignore-errors` leaves it; a new one is not saved, and its folder is listed again next time.
 */
function unreadable(file: FileToRead): void {
  file.node.racy = true;
  if (file.node.oid !== null) return;
  if (file.folder.files.get(file.name) === file.node) file.folder.files.delete(file.name);
  file.folder.listing = [];
}
