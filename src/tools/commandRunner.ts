// Runs one command line that the user has approved, with a time limit and a bounded output.
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { avoidSplittingSurrogatePair } from "./outputTruncation";
import type { RunningCommands } from "./runningCommands";

export interface CommandRunOptions {
  readonly commandLine: string;
  /** Already confined to the workspace by the caller. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  readonly signal?: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the running command is registered, so it can be stopped when the extension deactivates. */
  readonly running?: RunningCommands;
}

export interface CommandRunResult {
  /** null when the process was killed or ended by a signal. */
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Stopped because the extension (or the process hosting it) was shutting down. */
  readonly stoppedOnShutdown?: boolean;
  /** stdout and stderr interleaved in arrival order, cut in the middle when too long. */
  readonly output: string;
  readonly totalOutputChars: number;
  readonly truncated: boolean;
}

export const defaultCommandTimeoutMs = 60_000;

/** After the kill, wait this long for pipes to close; a daemonized grandchild can hold them open forever. */
const settleAfterKillMs = 2_000;

export function runCommandLine(options: CommandRunOptions): Promise<CommandRunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: null, exitSignal: null, timedOut: false, cancelled: true, output: "", totalOutputChars: 0, truncated: false });
      return;
    }
    const output = new HeadAndTailBuffer(options.maxOutputChars);
    const child = spawn(options.commandLine, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: true,
      // Its own process group on POSIX, so a timeout kills the shell and everything it started.
      detached: process.platform !== "win32",
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });

    let timedOut = false;
    let cancelled = false;
    let stoppedOnShutdown = false;
    let settled = false;
    let settleTimer: NodeJS.Timeout | undefined;

    const finish = (exitCode: number | null, exitSignal: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(settleTimer);
      options.signal?.removeEventListener("abort", onAbort);
      unregister?.();
      child.stdout?.destroy();
      child.stderr?.destroy();
      const text = output.text();
      resolve({ exitCode, exitSignal, timedOut, cancelled, stoppedOnShutdown, output: text.value, totalOutputChars: output.total, truncated: text.truncated });
    };

    const kill = (): void => {
      killProcessTree(child.pid);
      settleTimer = setTimeout(() => finish(child.exitCode, child.signalCode), settleAfterKillMs);
    };
    const onAbort = (): void => {
      cancelled = true;
      kill();
    };
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const unregister =
      child.pid === undefined
        ? undefined
        : options.running?.add(child.pid, () => {
            stoppedOnShutdown = true;
            kill();
          });

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder("utf8");
      stream?.on("data", (chunk: Buffer) => output.append(decoder.write(chunk)));
      stream?.on("end", () => output.append(decoder.end()));
    }
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener("abort", onAbort);
      unregister?.();
      reject(error);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
}

function killProcessTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === "win32") {
      spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    } else {
      process.kill(-pid, "SIGKILL");
    }
  } catch {
    // Already gone.
  }
}

/** Keeps the first and the last half of the allowed size: the start shows what ran, the end how it ended. */
class HeadAndTailBuffer {
  private head = "";
  private tail = "";
  total = 0;

  constructor(private readonly maxChars: number) {}

  append(chunk: string): void {
    if (chunk === "") return;
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxChars / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
    }
    this.tail += chunk;
    const tailLimit = Math.floor(this.maxChars / 2);
    // Trim in batches so a chatty process does not cost a string copy per chunk.
    if (this.tail.length > tailLimit * 2 + 4096) this.tail = this.tail.slice(this.tail.length - tailLimit);
  }

  text(): { value: string; truncated: boolean } {
    if (this.total <= this.maxChars) return { value: this.head + this.tail, truncated: false };
    const tailLimit = Math.floor(this.maxChars / 2);
    const tailStart = this.tail.length - tailLimit;
    const tail = this.tail.slice(tailStart + (isLowSurrogateAt(this.tail, tailStart) ? 1 : 0));
    const head = this.head.slice(0, avoidSplittingSurrogatePair(this.head, this.head.length));
    const omitted = this.total - head.length - tail.length;
    return {
      value: `${head}\n[... output truncated: ${omitted} characters omitted, ${head.length + tail.length} of ${this.total} characters shown]\n${tail}`,
      truncated: true,
    };
  }
}

function isLowSurrogateAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}
