import { lstatSync } from "node:fs";
import { Worker } from "node:worker_threads";

// The stat data of every file a checkpoint saves, taken on two threads when there are many: looking at each
// file's size and times is most of what a checkpoint costs once it has read the files, and two cores do it in
// half the time, as git's own index preload does with threads. The helper thread is started the first time
// many files are looked at (that checkpoint does them all here, meanwhile) and lives as long as the process,
// never keeping it alive; if it fails, everything is done on this thread from then on.

/** Per file: its kind, size, modification and change times (ms), inode and mode. */
export const statFieldCount = 6;
export const kindMissing = 0;
export const kindFile = 1;
export const kindLink = 2;
/** A folder, FIFO, socket or device: not what a file entry was. */
export const kindOther = 3;

/** Fewer files than this are looked at here only: a message to the helper costs more. */
const helperFromFiles = 2_000;

/**
 * The helper's code, as a script rather than a module so it needs no file of its own in the bundle. It fills
 * the fields exactly as statInto below does (the two must be kept alike).
 */
const helperSource = `
const { parentPort } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
parentPort.on("message", ({ id, paths }) => {
  const fields = new Float64Array(paths.length * ${statFieldCount});
  for (let index = 0; index < paths.length; index += 1) {
    const stats = lstatSync(paths[index], { throwIfNoEntry: false });
    const offset = index * ${statFieldCount};
    if (!stats) continue;
    fields[offset] = stats.isFile() ? ${kindFile} : stats.isSymbolicLink() ? ${kindLink} : ${kindOther};
    fields[offset + 1] = stats.size;
    fields[offset + 2] = stats.mtimeMs;
    fields[offset + 3] = stats.ctimeMs;
    fields[offset + 4] = stats.ino;
    fields[offset + 5] = stats.mode;
  }
  parentPort.postMessage({ id, fields }, [fields.buffer]);
});
parentPort.postMessage({ ready: true });
`;

function statInto(absolute: string, fields: Float64Array, offset: number): void {
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  if (!stats) return;
  fields[offset] = stats.isFile() ? kindFile : stats.isSymbolicLink() ? kindLink : kindOther;
  fields[offset + 1] = stats.size;
  fields[offset + 2] = stats.mtimeMs;
  fields[offset + 3] = stats.ctimeMs;
  fields[offset + 4] = stats.ino;
  fields[offset + 5] = stats.mode;
}

class StatHelper {
  private readonly worker: Worker;
  private ready = false;
  private failed = false;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (fields: Float64Array) => void; reject: (error: Error) => void }>();

  constructor() {
    this.worker = new Worker(helperSource, { eval: true });
    this.worker.unref();
    this.worker.on("message", (message: { ready?: boolean; id?: number; fields?: Float64Array }) => {
      if (message.ready) this.ready = true;
      if (message.id === undefined || !message.fields) return;
      this.waiting.get(message.id)?.resolve(message.fields);
      this.settled(message.id);
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", () => this.fail(new Error("the stat helper thread stopped")));
  }

  get usable(): boolean {
    return this.ready && !this.failed;
  }

  stat(paths: readonly string[]): Promise<Float64Array> {
    const id = this.nextId++;
    // Kept alive while it works for a checkpoint, so the process waits for its answer.
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, paths });
    });
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.failed = true;
    for (const [id, { reject }] of this.waiting) {
      reject(error);
      this.settled(id);
    }
  }
}

let helper: StatHelper | null = null;

/** Whether the helper thread is up and takes half of large lists (tests and diagnostics). */
export function statHelperUsable(): boolean {
  return helper?.usable ?? false;
}

/** The stat data of each path (statFieldCount numbers per path; kind 0 where there is nothing). */
export async function statAll(paths: readonly string[]): Promise<Float64Array> {
  const fields = new Float64Array(paths.length * statFieldCount);
  if (paths.length < helperFromFiles || !helper?.usable) {
    if (paths.length >= helperFromFiles) helper ??= startHelper();
    for (let index = 0; index < paths.length; index += 1) statInto(paths[index], fields, index * statFieldCount);
    return fields;
  }
  const half = Math.floor(paths.length / 2);
  const theirs = helper.stat(paths.slice(half));
  for (let index = 0; index < half; index += 1) statInto(paths[index], fields, index * statFieldCount);
  try {
    fields.set(await theirs, half * statFieldCount);
  } catch {
    for (let index = half; index < paths.length; index += 1) statInto(paths[index], fields, index * statFieldCount);
  }
  return fields;
}

function startHelper(): StatHelper | null {
  try {
    return new StatHelper();
  } catch {
    return null;
  }
}
