import { closeSync, openSync, readFileSync, readSync, readlinkSync } from "node:fs";

// A file's content as it is now, read the cheap way for a checkpoint: a small file into one reused buffer
// (no allocation, and no fstat: the scan knows its size), a link's target as bytes. Used on the main thread
// and on the helper thread (checkpointWorker), each with its own buffer.

/** What is read of a file: where it is, the size its stat data gave, whether it is a symbolic link. */
export interface ContentSource {
  absolute: string;
  size: number;
  link: boolean;
}

/** What an import of contents into git returns (checkpointImport.ts, on either thread), in the files' order: the blob ids (null for a file that could not be read) and the lengths read. */
export interface ImportResult {
  ids: (string | null)[];
  lengths: number[];
}

/** One buffer for the content of every file up to its size: what is kept of it is copied. */
const scratch = Buffer.allocUnsafeSlow(256 * 1024);

/** The content now; null when it cannot be read. The returned buffer may be the scratch buffer: copy what is kept. */
export function readContent(source: ContentSource): Buffer | null {
  try {
    if (source.link) return readlinkSync(source.absolute, { encoding: "buffer" });
    if (source.size + 1 > scratch.length) return readFileSync(source.absolute);
    const length = readInto(source, scratch, 0);
    // Grew since its stat data was taken: read whole.
    return length > source.size ? readFileSync(source.absolute) : scratch.subarray(0, length);
  } catch {
    return null;
  }
}

/**
 * Reads a regular file into `target` at `offset`, asking one byte more than its size: a file reads whole at
 * once, short only at its end, so more than its size means it grew. Throws when it cannot be read.
 */
export function readInto(source: ContentSource, target: Buffer, offset: number): number {
  const descriptor = openSync(source.absolute, "r");
  try {
    return readSync(descriptor, target, offset, source.size + 1, 0);
  } finally {
    closeSync(descriptor);
  }
}
