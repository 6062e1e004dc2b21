import { existsSync } from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { ContentSource, ImportResult } from "./checkpointContent";
import type { ShadowRepository } from "./checkpointGit";

// A helper thread for checkpoints (checkpointWorker), which takes half of the per-file work when there is a lot
// of it, as git's own index preload does with threads: the stat data of half of the files (most of what a
// checkpoint costs once it has read them), and the reading of half of the files of a first checkpoint, which
// it streams to a `git fast-import` of its own. It is started the first time there is a lot of work (that
// checkpoint does it all on this thread meanwhile) and lives as long as the process, never keeping it alive
// while idle; if it fails, everything is done on this thread from then on.

export type HelperRequest =
  | { op: "stat"; paths: readonly string[] }
  | { op: "import"; repository: ShadowRepository; marksFile: string; files: readonly ContentSource[] };

export type HelperReply =
  | { ready: true }
  | { id: number; fields: Float64Array }
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

class Helper {
  private readonly worker: Worker;
  private ready = false;
  private failed = false;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

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

/** Whether the helper thread is up and takes half of large lists (tests and diagnostics). */
export function helperUsable(): boolean {
  return helper?.usable ?? false;
}
