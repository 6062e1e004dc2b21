import type { ChildProcessByStdio } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { ContentSource, ImportResult } from "./checkpointContent";
import { readContent, readInto } from "./checkpointContent";
import type { ShadowRepository } from "./checkpointGit";
import { readyHelper } from "./checkpointHelper";

// Many files stored at once (a first checkpoint) through `git fast-import`: this process reads each file and
// streams it to git, which hashes, compresses and packs it on another core meanwhile, far cheaper per object than
// `git add` (an in-memory object table instead of a look through every pack, no index) or than doing it here
// (zlib's per-call setup). Each blob gets a mark, and git writes each mark's id to a file once it is done.
// `done` at the end makes git refuse a stream cut short. Deltas are off: blobs of different files rarely gain.

/** Where the content of the files goes, and what git needs. */
export interface FastImport {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** The file git writes "mark id" lines to (named in its --export-marks option). */
  marksFile: string;
}

export const fastImportArguments = (marksFile: string) => ["-c", "pack.compression=1", "fast-import", "--quiet", "--depth=0", "--done", `--export-marks=${marksFile}`];

/** The stream is written in chunks of this size; git reads them while the next is filled. */
const chunkBytes = 1024 * 1024;

/**
 * Streams the content of each file to git: read straight into the stream when it fits (no copy), else whole.
 * Rejects when git fails.
 */
export async function importBlobs(fastImport: FastImport, files: readonly ContentSource[]): Promise<ImportResult> {
  const { child, marksFile } = fastImport;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout.resume();
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  // A failed git closes its input: the writes below fail too, and `closed` says why.
  child.stdin.on("error", () => undefined);
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let length = 0;
  const send = async () => {
    const full = child.stdin.write(chunk.subarray(0, length));
    chunk = Buffer.allocUnsafe(chunkBytes);
    length = 0;
    if (!full) await new Promise((resolve) => child.stdin.once("drain", resolve).once("close", resolve));
  };
  /** Appends a content read whole; its length, or null when it could not be read. */
  const appendWhole = async (mark: string, content: Buffer | null): Promise<number | null> => {
    if (!content) return null;
    const room = mark.length + 16 + content.length + 1;
    if (length + room > chunk.length) {
      if (length > 0) await send();
      if (room > chunk.length) chunk = Buffer.allocUnsafe(room);
    }
    length += chunk.write(`${mark}${content.length}\n`, length, "latin1");
    length += content.copy(chunk, length);
    return content.length;
  };
  const lengths: number[] = [];
  for (const [index, file] of files.entries()) {
    const mark = `blob\nmark :${index + 1}\ndata `;
    // A link is read whole: its stat size is not its target's length everywhere.
    const size = file.link ? -1 : file.size;
    let stored: number | null;
    // Room for the mark, the size's digits and line break, the content and one byte more, and the closing line break.
    if (size >= 0 && mark.length + 16 + size + 2 <= chunk.length) {
      if (length + mark.length + 16 + size + 2 > chunk.length) await send();
      const header = `${mark}${size}\n`;
      let read: number | null;
      try {
        read = readInto(file, chunk, length + header.length);
      } catch {
        read = null;
      }
      if (read === size) {
        length += chunk.write(header, length, "latin1") + read;
        stored = read;
      } else stored = read === null ? null : await appendWhole(mark, readContent(file));
    } else stored = await appendWhole(mark, readContent(file));
    if (stored !== null) chunk[length++] = 0x0a;
    lengths.push(stored ?? -1);
  }
  if (length + 5 > chunk.length) await send();
  length += chunk.write("done\n", length, "latin1");
  await send();
  child.stdin.end();
  const code = await closed;
  if (code !== 0) throw new Error(`git fast-import failed: ${stderr.trim() || `exit code ${code}`}`);
  const ids = new Map<number, string>();
  try {
    for (const line of readFileSync(marksFile, "utf8").split("\n")) {
      const match = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
      if (match) ids.set(Number(match[1]), match[2]);
    }
  } finally {
    rmSync(marksFile, { force: true });
  }
  const idsInOrder = files.map((_, index) => {
    if (lengths[index] < 0) return null;
    const id = ids.get(index + 1);
    if (!id) throw new Error(`git fast-import stored no blob for mark ${index + 1}`);
    return id;
  });
  return { ids: idsInOrder, lengths };
}

/**
 * Streams many files to git fast-import, half of them through the helper thread's own when it is ready
 * (checkpointHelper): each thread reads its half and each git hashes and packs it. `start` starts this
 * thread's git; `helperMarksFile` is where the helper's writes its marks; `onGit` is told the helper's git.
 */
export async function importOnTwoThreads(files: readonly ContentSource[], start: () => FastImport, repository: ShadowRepository, helperMarksFile: string, onGit: (pid: number | undefined) => void): Promise<ImportResult> {
  const helper = readyHelper(true);
  const half = helper ? Math.floor(files.length / 2) : files.length;
  const theirs = helper?.request({ op: "import", repository, marksFile: helperMarksFile, files: files.slice(half) }, onGit);
  // Taken up below, once this thread's half is done; a failure meanwhile must not count as unhandled.
  theirs?.catch(() => undefined);
  const ours = await importBlobs(start(), files.slice(0, half));
  if (!theirs) return ours;
  let rest: ImportResult;
  try {
    const reply = await theirs;
    if (!("result" in reply)) throw new Error("the helper thread answered something else");
    rest = reply.result;
  } catch {
    rest = await importBlobs(start(), files.slice(half));
  }
  return { ids: [...ours.ids, ...rest.ids], lengths: [...ours.lengths, ...rest.lengths] };
}
