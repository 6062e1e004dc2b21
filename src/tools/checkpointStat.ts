import { lstatSync } from "node:fs";
import { readyHelper } from "./checkpointHelper";

// The stat data of every file a checkpoint saves, as numbers, taken on two threads when there are many
// (checkpointHelper): looking at each file's size and times is most of what a checkpoint costs once it has
// read the files, one system call per file. The two threads take the paths in chunks from one shared counter
// until none is left, so neither waits for the other when one is slowed down (a busy machine, the other
// thread's garbage collection), and the helper can start before this thread has listed the folders (see
// checkpointScan). A list that stays the same between checkpoints (no file added or removed) is sent to the
// helper once: it keeps it, and a checkpoint sends only the list's number.

/** Per file: its kind, size, modification and change times (ms), inode and mode. */
export const statFieldCount = 6;
export const kindMissing = 0;
export const kindFile = 1;
export const kindLink = 2;
/** A folder, FIFO, socket or device: not what a file entry was. */
export const kindOther = 3;
/** The helper could not take this one (an error other than "no such file"): taken again here, where the error is thrown. */
export const kindRetry = 4;

/** Fewer files than this are looked at here only: a message to the helper thread costs more. */
const helperFromFiles = 2_000;
/** Paths taken from the shared counter at once: about a millisecond of system calls, so the last wait is short. */
export const statChunk = 128;

/** Fills `fields` at `offset` with the path's stat data (left 0, kindMissing, when there is nothing there). */
export function statInto(absolute: string, fields: Float64Array, offset: number): void {
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  if (!stats) return;
  fields[offset] = stats.isFile() ? kindFile : stats.isSymbolicLink() ? kindLink : kindOther;
  fields[offset + 1] = stats.size;
  fields[offset + 2] = stats.mtimeMs;
  fields[offset + 3] = stats.ctimeMs;
  fields[offset + 4] = stats.ino;
  fields[offset + 5] = stats.mode;
}

/**
 * Takes chunks of `paths` from the shared counter until there are none left; returns how many paths it took.
 * Both threads run this on the same counter and fields.
 */
export function statChunks(paths: readonly string[], counter: Int32Array, fields: Float64Array, onError?: (offset: number) => void): number {
  let taken = 0;
  for (let start = Atomics.add(counter, 0, statChunk); start < paths.length; start = Atomics.add(counter, 0, statChunk)) {
    const end = Math.min(start + statChunk, paths.length);
    for (let index = start; index < end; index += 1) {
      if (!onError) statInto(paths[index], fields, index * statFieldCount);
      else {
        try {
          statInto(paths[index], fields, index * statFieldCount);
        } catch {
          onError(index * statFieldCount);
        }
      }
    }
    taken += end - start;
  }
  return taken;
}

/** Paths to look at; `slot` (one per workspace folder) when the helper may keep the list for the next checkpoint. */
export interface StatList {
  readonly paths: readonly string[];
  readonly slot?: number;
  /** Tells one list of the slot from the next. */
  readonly version: number;
}

let versions = 0;

export function statList(paths: readonly string[], slot?: number): StatList {
  versions += 1;
  return { paths, slot, version: versions };
}

/** Stat data being taken: the helper thread may have started; `finish` takes the rest here. */
export interface StatRun {
  /** The stat data of every path (statFieldCount numbers per path). */
  finish(): Promise<Float64Array>;
  /** The list turned out stale: the helper stops at its next chunk, and its figures are not used. */
  abandon(): void;
}

/** Starts taking the stat data of the list: at once on the helper thread when there are many paths (and it is ready). */
export function startStats(list: StatList): StatRun {
  const { paths } = list;
  const helper = readyHelper(paths.length >= helperFromFiles);
  const shared = helper !== null && paths.length >= helperFromFiles;
  const counter = new Int32Array(shared ? new SharedArrayBuffer(4) : new ArrayBuffer(4));
  const fields = new Float64Array(shared ? new SharedArrayBuffer(paths.length * statFieldCount * 8) : new ArrayBuffer(paths.length * statFieldCount * 8));
  const theirs = shared ? helper.stat(list, counter, fields) : undefined;
  // Its failure is taken up in finish (or not at all, abandoned): it must not count as unhandled meanwhile.
  theirs?.catch(() => undefined);
  return {
    async finish() {
      const mine = statChunks(paths, counter, fields);
      if (theirs && mine < paths.length) {
        try {
          await theirs;
        } catch {
          // The helper failed somewhere in its chunks: everything is taken again here.
          fields.fill(0);
          for (let index = 0; index < paths.length; index += 1) statInto(paths[index], fields, index * statFieldCount);
          return fields;
        }
        for (let offset = 0; offset < fields.length; offset += statFieldCount) {
          if (fields[offset] !== kindRetry) continue;
          fields[offset] = kindMissing;
          statInto(paths[offset / statFieldCount], fields, offset);
        }
      }
      return fields;
    },
    abandon() {
      Atomics.store(counter, 0, paths.length);
    },
  };
}
