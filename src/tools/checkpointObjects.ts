import { closeSync, openSync, readFileSync, readSync, readlinkSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { PackObject } from "./checkpointPack";
import { PackBuilder, objectId, writeLooseObject } from "./checkpointPack";
import type { FileToRead } from "./checkpointScan";

// The content of the files a scan found changed, read and stored as git blobs: small files are read here and
// their blobs gathered into packs (checkpointPack); large ones are left to git (`hash-object --stdin-paths`),
// which streams them instead of holding them in memory. The content is stored exactly as read: no
// line-ending conversion, filter or `ident` expansion of the workspace's .gitattributes applies.
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

/**
 * Reads the files, stores blobs that are new, and updates each file's blob id. Large files are stored by
 * `storeLarge` (git), which returns their ids in the order of the paths it is given (null: unreadable).
 */
export async function readChangedFiles(files: readonly FileToRead[], batch: ObjectBatch, storeLarge: (relativePaths: string[]) => Promise<(string | null)[]>, checkpointStartedMs: number, fileSystemNowMs: () => number): Promise<void> {
  const large: FileToRead[] = [];
  let sliceStarted = performance.now();
  for (const [index, file] of files.entries()) {
    if (!file.node.link && file.node.size >= largeFileBytes) {
      large.push(file);
      continue;
    }
    let content: Buffer;
    try {
      content = file.node.link ? readlinkSync(file.absolute, { encoding: "buffer" }) : readContent(file.absolute, file.node.size);
    } catch {
      unreadable(file);
      continue;
    }
    const id = objectId("blob", content);
    if (id !== file.node.oid) batch.add("blob", id, content);
    file.node.oid = id;
    // Read while it was being written: its stat data is older than what was read.
    file.node.racy = !file.node.link && content.length !== file.node.size;
    if ((index & 63) === 63 && performance.now() - sliceStarted > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
  if (large.length > 0) {
    const ids = await storeLarge(large.map((file) => file.relative));
    large.forEach((file, index) => {
      const id = ids[index];
      if (id) {
        file.node.oid = id;
        file.node.racy = false;
      } else unreadable(file);
    });
  }
  markRacy(files, Math.min(checkpointStartedMs, files.length > 0 ? fileSystemNowMs() : Infinity) - racyMarginMs);
}

/** One buffer for the content of every file up to its size: the object batch copies what it keeps. */
const scratch = Buffer.allocUnsafeSlow(256 * 1024);

/**
 * The file's content, read into the scratch buffer when it fits (no allocation, and no fstat: the scan knows
 * the size); a larger file, or one that grew since its stat data was taken, is read whole.
 */
function readContent(absolute: string, size: number): Buffer {
  if (size + 1 > scratch.length) return readFileSync(absolute);
  const descriptor = openSync(absolute, "r");
  try {
    let length = 0;
    while (length <= size) {
      const read = readSync(descriptor, scratch, length, size + 1 - length, null);
      if (read === 0) break;
      length += read;
    }
    return length > size ? readFileSync(absolute) : scratch.subarray(0, length);
  } finally {
    closeSync(descriptor);
  }
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
