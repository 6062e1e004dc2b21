import { existsSync } from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { ContentSource, ImportResult } from "./checkpointContent";
import type { ShadowRepository } from "./checkpointGit";

// A helper thread for checkpoints (checkpointWorker), which takes half of the per-file work when there is a lot
// of it, as git's own index preload does with threads: the stat data of about half of the files (most of what
// a checkpoint costs once it has read them; the two threads share them out as they go), and the reading of
// half of the files of a first checkpoint, which it streams to a `git fast-import` of its own. It is started
// the first time there is a lot of work (that checkpoint does it all on this thread meanwhile) and lives as
// long as the process, never keeping it alive while idle; if it fails, everything is done on this thread from
// then on.

export type HelperRequest =
  | StatRequest
  | { op: "import"; repository: ShadowRepository; marksFile: string; files: readonly ContentSource[] };

/**
 * Take chunks of the list from the shared counter into the shared fields (checkpointStat). The list is sent
 * once per version; the helper keeps the last one of each slot (a workspace folder), and forgets a slot the
 * other side no longer keeps.
 */
export interface StatRequest {
  op: "stat";
  slot?: number;
  version: number;
  /** Left out when the helper keeps this version of the slot's list already. */
  paths?: readonly string[];
  counter: Int32Array;
  fields: Float64Array;
  forget?: number;
}

export type HelperReply =
  | { ready: true }
  | { id: number; taken: number }
  | { id: number; result: ImportResult }
  | { id: number; gitPid: number | undefined }
  | { id: number; error: string };

interface Waiting {
  resolve: (reply: HelperReply) => void;
  reject: (error: Error) => void;
  onGit?: (pid: number | undefined) => void;
}

/** What the helper thread did: started (ready for work), or stopped or failed (checkpoints are then taken on one thread). */
export type HelperEvent = { ready: true } | { failed: string };

let watcher: ((event: HelperEvent) => void) | undefined;

/** Tells `watch` when the helper thread is ready and when it fails (the extension's log says both). */
export function watchCheckpointHelper(watch: (event: HelperEvent) => void): void {
  watcher = watch;
}

/** The helper keeps the lists of this many workspace folders (slots): a path list costs about 100 bytes a file. */
const keptSlots = 8;

class Helper {
  private readonly worker: Worker;
  private ready = false;
  private failed = false;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  /** The list version the helper keeps for each slot, least recently used first. */
  private readonly kept = new Map<number, number>();

  constructor() {
    const { file, execArgv } = workerFile();
    this.worker = new Worker(file, { execArgv });
    this.worker.on("message", (reply: HelperReply) => this.answer(reply));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", () => this.fail(new Error("the checkpoint helper thread stopped")));
    // After the listeners: adding a message listener keeps a worker's port alive again.
    this.worker.unref();
  }

  get usable(): boolean {
    return this.ready && !this.failed;
  }

  /** `onGit` is told the id of a git the helper starts for this request (the repository lock records it). */
  request(request: HelperRequest, onGit?: (pid: number | undefined) => void): Promise<HelperReply> {
    const id = this.nextId++;
    // Kept alive while it works for a checkpoint, so the process waits for its answer.
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onGit });
      this.worker.postMessage({ id, ...request });
    });
  }

  /** Has the helper take chunks of the list's stat data (see checkpointStat); resolves with how many it took. */
  async stat(list: { paths: readonly string[]; slot?: number; version: number }, counter: Int32Array, fields: Float64Array): Promise<number> {
    const { slot, version } = list;
    const kept = slot !== undefined && this.kept.get(slot) === version;
    let forget: number | undefined;
    if (slot !== undefined) {
      this.kept.delete(slot);
      this.kept.set(slot, version);
      if (this.kept.size > keptSlots) {
        forget = this.kept.keys().next().value;
        if (forget !== undefined) this.kept.delete(forget);
      }
    }
    try {
      const reply = await this.request({ op: "stat", slot, version, paths: kept ? undefined : list.paths, counter, fields, forget });
      if (!("taken" in reply)) throw new Error("the helper thread answered something else");
      return reply.taken;
    } catch (error) {
      // Whatever it keeps now is unknown: the next list of the slot is sent whole.
      if (slot !== undefined) this.kept.delete(slot);
      throw error;
    }
  }

  private answer(reply: HelperReply): void {
    if ("ready" in reply) {
      this.ready = true;
      watcher?.({ ready: true });
      return;
    }
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    if ("gitPid" in reply) return waiting.onGit?.(reply.gitPid);
    this.settled(reply.id);
    if ("error" in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply);
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    if (!this.failed) watcher?.({ failed: error.message });
    this.failed = true;
    for (const [id, { reject }] of this.waiting) {
      this.settled(id);
      reject(error);
    }
  }
}

/** Bundled, the helper is dist/checkpointWorker.js beside this code; from the sources (tests, benchmarks), the TypeScript module run through tsx. */
function workerFile(): { file: string; execArgv?: string[] } {
  const bundled = path.join(__dirname, "checkpointWorker.js");
  if (existsSync(bundled)) return { file: bundled };
  const source = path.join(__dirname, "checkpointWorker.ts");
  if (!existsSync(source)) throw new Error(`its code is missing (${bundled})`);
  return { file: source, execArgv: ["--require", "tsx/cjs"] };
}

let helper: Helper | null = null;
/** The helper could not be started (no threads, or no code for one): not tried again in this process. */
let cannotStart = false;

/** The helper thread if it is ready to take work; `start`: start it (for the next time) when it is not. */
export function readyHelper(start: boolean): Helper | null {
  if (helper?.usable) return helper;
  if (start && !helper && !cannotStart) {
    try {
      helper = new Helper();
    } catch (error) {
      // No threads here, or no code for one: everything stays on this thread.
      cannotStart = true;
      watcher?.({ failed: (error as Error).message });
    }
  }
  return null;
}

/** Whether the helper thread is up and takes its share of large lists (tests and diagnostics). */
export function helperUsable(): boolean {
  return helper?.usable ?? false;
}
