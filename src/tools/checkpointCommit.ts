import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { inflateSync } from "node:zlib";
import { writeLooseObject } from "./checkpointPack";

// The checkpoint commit and the branch that points at it, written straight into the shadow repository
// instead of by `git commit-tree` and `git update-ref`: two fewer processes on every checkpoint that saved
// something. Both are among git's simplest and most stable formats (a zlib-compressed loose object named by
// its SHA-1, and a ref file holding an id), written the way git writes them (a temporary file renamed into
// place; the ref under its `.lock` file), and only while the repository lock is held (checkpointLock), so no
// other writer of ours runs meanwhile. No reflog is kept: nothing reads it, and every checkpoint stays
// reachable from the branch through its parents. The files are small and local, so they are read and written
// synchronously, as the trees are (checkpointTree): a dozen promise round trips through libuv's thread pool cost
// 3-12 ms of a checkpoint's wall time on the 10,000-file benchmark, these calls well under one.

/** The branch every checkpoint of a folder is on. */
export const checkpointBranch = "refs/heads/checkpoints";

const objectIdPattern = /^[0-9a-f]{40}$/;

const identity = "Relay Chat <checkpoints@relay-chat.invalid>";
const checkpointTitle = "Relay Chat checkpoint";

/**
 * The branch's newest checkpoint as its ref file says, or null when there is none yet. `undefined` when the
 * file says something unexpected (a packed or symbolic ref, which this code never writes): ask git then.
 */
export function readCheckpointBranch(gitDir: string): string | null | undefined {
  let content: string;
  try {
    content = readFileSync(branchFile(gitDir), "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    // No loose ref: a new repository, unless refs were packed by someone (then git knows).
    return readTextOrEmpty(path.join(gitDir, "packed-refs")).includes(checkpointBranch) ? undefined : null;
  }
  return objectIdPattern.test(content) ? content : undefined;
}

/** A commit as git stores it: its tree and its message. */
export interface CommitText {
  tree: string;
  message: string;
}

/** A commit stored as a loose object (as this code writes them), or null when it is packed: ask git then. */
export function readLooseCommit(gitDir: string, commit: string): CommitText | null {
  if (!objectIdPattern.test(commit)) return null;
  let stored: Buffer;
  try {
    stored = inflateSync(readFileSync(path.join(gitDir, "objects", commit.slice(0, 2), commit.slice(2))));
  } catch {
    return null;
  }
  const header = /^commit \d+\0/.exec(stored.subarray(0, 32).toString("latin1"));
  return header ? parseCommit(stored.subarray(header[0].length).toString("utf8")) : null;
}

/** The tree and message of a commit's text (what `git cat-file commit` prints). */
export function parseCommit(text: string): CommitText | null {
  const tree = /^tree ([0-9a-f]{40})\n/.exec(text);
  const bodyStart = text.indexOf("\n\n");
  return tree ? { tree: tree[1], message: bodyStart < 0 ? "" : text.slice(bodyStart + 2) } : null;
}

/** The message of a checkpoint commit: its title, and the details after a blank line. */
export function checkpointMessage(details: string): string {
  return details ? `${checkpointTitle}\n\n${details}` : `${checkpointTitle}\n`;
}

/**
 * Writes a checkpoint commit of `tree` on top of `parent` and moves the branch to it; returns its id. `details`
 * (the files' permissions, checkpointModes) follow the title in the message.
 */
export function writeCheckpointCommit(gitDir: string, tree: string, parent: string | null, details = "", now = new Date()): string {
  if (!objectIdPattern.test(tree) || (parent !== null && !objectIdPattern.test(parent))) throw new Error(`not a SHA-1 object id: ${tree} ${parent ?? ""}`);
  const when = `${Math.floor(now.getTime() / 1000)} +0000`;
  const body = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : []), `author ${identity} ${when}`, `committer ${identity} ${when}`, "", checkpointMessage(details)].join("\n");
  const id = writeLooseObject(gitDir, "commit", Buffer.from(body, "utf8"));
  moveBranch(gitDir, id, parent);
  return id;
}

/** Moves the branch from `expected` to `id` under git's own ref lock, refusing if it moved meanwhile. */
function moveBranch(gitDir: string, id: string, expected: string | null): void {
  const file = branchFile(gitDir);
  const lock = `${file}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeNewFile(lock, `${id}\n`);
  try {
    // A packed ref (undefined here) was looked up by git for `expected`; the loose ref written now overrides it.
    const current = readCheckpointBranch(gitDir);
    if (current !== undefined && current !== expected) throw new Error(`the checkpoint branch moved while a checkpoint was taken (now ${current ?? "none"}, expected ${expected ?? "none"})`);
    renameSync(lock, file);
  } catch (error) {
    try {
      unlinkSync(lock);
    } catch {
      // Gone already.
    }
    throw error;
  }
}

/** Creates `file` (failing when it exists, as git's lock files do) holding `content`. */
function writeNewFile(file: string, content: Buffer | string): void {
  const descriptor = openSync(file, "wx");
  try {
    writeFileSync(descriptor, content);
  } finally {
    closeSync(descriptor);
  }
}

function readTextOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function branchFile(gitDir: string): string {
  return path.join(gitDir, ...checkpointBranch.split("/"));
}
