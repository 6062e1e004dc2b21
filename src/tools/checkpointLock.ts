import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { link, open, rename, stat, unlink, utimes } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

// One writer at a time on a shadow repository, across VS Code windows and processes: two windows on one
// folder share its shadow repository, and two gits at once fail with "index.lock: File exists". The lock is
// a file created exclusively in the git directory, naming its owner (pid, host) and the git it runs now;
// its owner touches it every few seconds while it holds it. A lock is stale, and is broken, when its owner
// and that git are dead (same host), or when it was not touched for `staleAfterMs` (owner frozen, or on
// another host). Breaking happens under a second, short-lived lock so two waiters never break one lock twice.
//
// While this lock is held, nothing of ours runs git on the repository, so a git lock file found then
// (index.lock, a ref's .lock) was left by a git that was killed mid-run (power loss, OOM, a killed window):
// the holder removes it (removeLeftoverGitLocks), and checkpoints work again instead of failing forever.
//
// The lock's small local files are created, read and removed with synchronous calls: as promises each was a
// round trip through libuv's thread pool, and they added 3 ms of wall time to every checkpoint. Waiting for
// another owner, touching the lock and recording the running git stay asynchronous.

export interface LockOptions {
  /** A lock untouched this long is stale whatever its owner (its owner touches it every staleAfterMs / 4). */
  staleAfterMs?: number;
  /** How long to wait for a live owner before giving up with an error. */
  waitLimitMs?: number;
}

interface LockOwner {
  token: string;
  pid: number;
  host: string;
  /** The git process the owner runs now, if any: it may outlive its owner (an orphan still writing). */
  gitPid?: number;
}

const defaultStaleAfterMs = 30_000;
const defaultWaitLimitMs = 10 * 60_000;

/** Git's own lock files in a shadow repository that a killed git can leave behind. */
const gitLockFiles = ["index.lock", "relay-chat-restore-index.lock", "HEAD.lock", "config.lock", "packed-refs.lock", path.join("refs", "heads", "checkpoints.lock")];

export class HeldLock {
  private readonly heartbeat: NodeJS.Timeout;
  /** Writes of the owner record, one after another so two never interleave in the file. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly owner: LockOwner,
    staleAfterMs: number,
  ) {
    this.heartbeat = setInterval(() => void utimes(file, new Date(), new Date()).catch(() => undefined), Math.max(50, staleAfterMs / 4));
    this.heartbeat.unref();
  }

  /** Records the git process running now, so a waiter does not break the lock while that git still writes. */
  noteGit(pid: number | undefined): void {
    const owner = { ...this.owner, ...(pid === undefined ? {} : { gitPid: pid }) };
    this.writing = this.writing.then(() => writeOwner(this.file, owner)).catch(() => undefined);
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.writing;
    // Only our own lock is removed: if it was broken as stale (we froze), the file may now be another's.
    if (readOwner(this.file)?.token === this.owner.token) removeIfPresent(this.file);
  }
}

/** Takes the repository's lock, waiting for a live owner and breaking a stale one. */
export async function acquireRepositoryLock(gitDir: string, options: LockOptions = {}): Promise<HeldLock> {
  const staleAfterMs = options.staleAfterMs ?? defaultStaleAfterMs;
  const waitLimitMs = options.waitLimitMs ?? defaultWaitLimitMs;
  const file = path.join(gitDir, "relay-chat.lock");
  const owner: LockOwner = { token: randomUUID(), pid: process.pid, host: os.hostname() };
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    if (createExclusively(file, owner)) return new HeldLock(file, owner, staleAfterMs);
    if (await isStale(file, staleAfterMs)) {
      await breakStaleLock(file, staleAfterMs);
      continue;
    }
    if (Date.now() - started > waitLimitMs) {
      throw new Error(`another window has been taking a checkpoint of this folder for over ${Math.round(waitLimitMs / 1000)} s (lock ${file})`);
    }
    await delay(Math.min(200, 10 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
  }
}

/** Removes git lock files left by a killed git. Call only while holding the repository lock. */
export async function removeLeftoverGitLocks(gitDir: string): Promise<string[]> {
  const removed: string[] = [];
  // Not there is the usual case: looked for without an exception per file.
  for (const name of gitLockFiles) if (removeIfPresent(path.join(gitDir, name))) removed.push(name);
  return removed;
}

function createExclusively(file: string, owner: LockOwner): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      // The git directory is not there yet (a first checkpoint): nothing to lock against but ourselves.
      mkdirSync(path.dirname(file), { recursive: true });
      return createExclusively(file, owner);
    }
    throw error;
  }
  try {
    writeFileSync(descriptor, JSON.stringify(owner));
  } finally {
    closeSync(descriptor);
  }
  return true;
}

/** Removes `file` if it is there; true when it was. */
function removeIfPresent(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false; // Removed by someone else meanwhile.
  }
}

async function isStale(file: string, staleAfterMs: number): Promise<boolean> {
  let touched: number;
  try {
    touched = (await stat(file)).mtimeMs;
  } catch {
    return false; // Gone already: the next attempt creates it.
  }
  if (Date.now() - touched > staleAfterMs) return true;
  const owner = readOwner(file);
  // Unreadable (its owner died between creating and writing it, or is writing it now): the age decides.
  if (!owner || owner.host !== os.hostname()) return false;
  return !isAlive(owner.pid) && (owner.gitPid === undefined || !isAlive(owner.gitPid));
}

/**
 * Breaks a stale lock under a short-lived second lock, after checking again that it is still the same
 * stale lock: without that, two waiters could both see it stale, and the second would remove the lock the
 * first has just taken.
 */
async function breakStaleLock(file: string, staleAfterMs: number): Promise<void> {
  const breaker = `${file}.break`;
  const breakerOwner: LockOwner = { token: randomUUID(), pid: process.pid, host: os.hostname() };
  if (!createExclusively(breaker, breakerOwner)) {
    // Someone else is breaking it; a breaker left by a killed process is itself stale after a moment.
    if (await isStale(breaker, Math.min(staleAfterMs, 5_000))) await unlink(breaker).catch(() => undefined);
    await delay(20);
    return;
  }
  try {
    const stale = readOwner(file);
    if (!(await isStale(file, staleAfterMs))) return;
    // Move it aside, then make sure what was moved is the lock judged stale; if its owner released it and
    // another took a new one in between, put that one back (link fails if a lock exists again: then it is not ours to touch).
    const aside = `${file}.${breakerOwner.token}`;
    try {
      await rename(file, aside);
    } catch {
      return;
    }
    const moved = readOwner(aside);
    if (moved?.token !== stale?.token) await link(aside, file).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Partial<LockOwner>;
    return typeof owner.token === "string" && typeof owner.pid === "number" && typeof owner.host === "string" ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

async function writeOwner(file: string, owner: LockOwner): Promise<void> {
  const handle = await open(file, "r+");
  try {
    const text = JSON.stringify(owner);
    await handle.truncate(0);
    await handle.write(text, 0, "utf8");
  } finally {
    await handle.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
