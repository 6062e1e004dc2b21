// Tests lines against the model's regular expression in a worker thread, under a time budget. JavaScript's
// regular expressions backtrack: `^(a+)+$` or `(a|a)*$` on a long line runs for minutes, and on the extension
// host's thread that would freeze every extension. Here the host only waits for a message; a worker that
// overruns its budget, or whose call is cancelled, is terminated (V8 interrupts a running match for that).
import { Worker } from "node:worker_threads";

/**
 * One file's lines may take this long; a pattern that needs more is treated as runaway backtracking. A sane
 * pattern needs a few milliseconds for the largest file searched (1 MB), so this leaves a wide margin even on a
 * busy machine, while the whole search, worker start included, stays well within 2 s.
 */
export const defaultMatchBudgetMs = 800;

export type LineMatchResult =
  /** Indexes of the matching lines, in order, at most `limit` of them. */
  | { readonly kind: "matched"; readonly lineIndexes: number[] }
  | { readonly kind: "over_budget"; readonly budgetMs: number }
  | { readonly kind: "cancelled" };

/**
 * The worker's program, as plain JavaScript started with `eval: true`: it then needs no file of its own, so
 * the bundled extension, the CLI and the tests under tsx all start the same code from memory. It compiles the
 * expression once and answers each batch of lines with the indexes that match.
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const expression = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ lines, limit }) => {
  const lineIndexes = [];
  for (let index = 0; index < lines.length && lineIndexes.length < limit; index++) {
    if (expression.test(lines[index])) lineIndexes.push(index);
  }
  parentPort.postMessage(lineIndexes);
});
`;

/**
 * Throws a SyntaxError for an invalid pattern, on the caller's thread: compiling is linear in the pattern,
 * only matching can run away. One worker serves every batch of one search; dispose it when done.
 */
export class LineMatchWorker {
  private worker: Worker | null = null;
  private online: Promise<void> | null = null;
  private busy = false;

  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly budgetMs = defaultMatchBudgetMs,
  ) {
    new RegExp(source, flags);
    // Started now, so it comes up while the caller walks the workspace and reads the first file.
    this.start().unref();
  }

  /** One batch at a time; the budget clock starts once the worker is running, so its start-up is not counted. */
  async match(lines: readonly string[], limit: number, signal?: AbortSignal): Promise<LineMatchResult> {
    if (this.busy) throw new Error("LineMatchWorker.match was called again before the previous batch ended.");
    if (signal?.aborted) return { kind: "cancelled" };
    this.busy = true;
    const worker = this.start();
    // Kept referenced only while a batch is out, so an idle worker never keeps a CLI or a test run alive.
    worker.ref();
    try {
      const started = await untilAbortedOrDone(this.online as Promise<void>, signal);
      if (!started) {
        await this.dispose();
        return { kind: "cancelled" };
      }
      return await this.exchange(worker, lines, limit, signal);
    } finally {
      this.busy = false;
      if (this.worker === worker) worker.unref();
    }
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.online = null;
    if (worker !== null) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { source: this.source, flags: this.flags },
      // A pattern cannot use much memory, but a runaway one should never take the host's with it.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.worker = worker;
    // A worker that ended on its own (out of memory, say) is replaced on the next batch, not written to.
    worker.once("exit", () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.online = null;
    });
    this.online = new Promise((resolve, reject) => {
      worker.once("online", () => resolve());
      worker.once("error", reject);
    });
    // Handled per exchange; this keeps a failure between batches from being an unhandled rejection.
    this.online.catch(() => undefined);
    return worker;
  }

  private exchange(worker: Worker, lines: readonly string[], limit: number, signal: AbortSignal | undefined): Promise<LineMatchResult> {
    return new Promise<LineMatchResult>((resolve, reject) => {
      const finish = (result: LineMatchResult | Error, terminate: boolean): void => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
        const settle = () => (result instanceof Error ? reject(result) : resolve(result));
        if (terminate) void this.dispose().then(settle, settle);
        else settle();
      };
      const onMessage = (lineIndexes: number[]): void => finish({ kind: "matched", lineIndexes }, false);
      const onError = (error: Error): void => finish(new Error(`The search worker failed: ${error.message}`), true);
      const onExit = (code: number): void => finish(new Error(`The search worker stopped unexpectedly (exit code ${code}).`), true);
      const onAbort = (): void => finish({ kind: "cancelled" }, true);
      const timer = setTimeout(() => finish({ kind: "over_budget", budgetMs: this.budgetMs }, true), this.budgetMs);
      worker.on("message", onMessage);
      worker.once("error", onError);
      worker.once("exit", onExit);
      signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage({ lines, limit });
    });
  }
}

function untilAbortedOrDone(work: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) return work.then(() => true);
  return new Promise<boolean>((resolve, reject) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(!signal.aborted);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
