import { lstatSync } from "node:fs";
import { readyHelper } from "./checkpointHelper";

// The stat data of every file a checkpoint saves, as numbers, taken on two threads when there are many
// (checkpointHelper): looking at each file's size and times is most of what a checkpoint costs once it has
// read the files.

/** Per file: its kind, size, modification and change times (ms), inode and mode. */
export const statFieldCount = 6;
export const kindMissing = 0;
export const kindFile = 1;
export const kindLink = 2;
/** A folder, FIFO, socket or device: not what a file entry was. */
export const kindOther = 3;

/** Fewer files than this are looked at here only: a message to the helper thread costs more. */
const helperFromFiles = 2_000;

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

/** The stat data of each path (statFieldCount numbers per path), half of it taken by the helper thread when there are many. */
export async function statAll(paths: readonly string[]): Promise<Float64Array> {
  const fields = new Float64Array(paths.length * statFieldCount);
  const helper = readyHelper(paths.length >= helperFromFiles);
  const half = helper && paths.length >= helperFromFiles ? Math.floor(paths.length / 2) : paths.length;
  const theirs = half < paths.length ? helper?.request({ op: "stat", paths: paths.slice(half) }) : undefined;
  for (let index = 0; index < half; index += 1) statInto(paths[index], fields, index * statFieldCount);
  if (theirs) {
    try {
      const reply = await theirs;
      if ("fields" in reply) fields.set(reply.fields, half * statFieldCount);
      else throw new Error("the helper thread answered something else");
    } catch {
      for (let index = half; index < paths.length; index += 1) statInto(paths[index], fields, index * statFieldCount);
    }
  }
  return fields;
}
