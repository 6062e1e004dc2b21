import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { deflateSync, inflateSync } from "node:zlib";

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

/** The tree of a commit stored as a loose object (as this code writes them), or null when it is packed: ask git then. */
export function readLooseCommitTree(gitDir: string, commit: string): string | null {
  if (!objectIdPattern.test(commit)) return null;
  let stored: Buffer;
  try {
    stored = inflateSync(readFileSync(path.join(gitDir, "objects", commit.slice(0, 2), commit.slice(2))));
  } catch {
    return null;
  }
  const match = /^commit \d+\0tree ([0-9a-f]{40})\n/.exec(stored.subarray(0, 80).toString("latin1"));
  return match ? match[1] : null;
}

/** Writes a checkpoint commit of `tree` on top of `parent` and moves the branch to it; returns its id. */
export function writeCheckpointCommit(gitDir: string, tree: string, parent: string | null, now = new Date()): string {
  if (!objectIdPattern.test(tree) || (parent !== null && !objectIdPattern.test(parent))) throw new Error(`not a SHA-1 object id: ${tree} ${parent ?? ""}`);
  const when = `${Math.floor(now.getTime() / 1000)} +0000`;
  const body = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : []), `author ${identity} ${when}`, `committer ${identity} ${when}`, "", "Relay Chat checkpoint", ""].join("\n");
  const id = writeLooseObject(gitDir, "commit", Buffer.from(body, "utf8"));
  moveBranch(gitDir, id, parent);
  return id;
}

function writeLooseObject(gitDir: string, type: string, content: Buffer): string {
  const stored = Buffer.concat([Buffer.from(`${type} ${content.length}\0`, "utf8"), content]);
  const id = createHash("sha1").update(stored).digest("hex");
  const directory = path.join(gitDir, "objects", id.slice(0, 2));
  mkdirSync(directory, { recursive: true });
  const temporary = path.join(directory, `tmp_obj_relay_${process.pid}_${Date.now()}`);
  writeNewFile(temporary, deflateSync(stored, { level: 1 }), 0o444);
  renameSync(temporary, path.join(directory, id.slice(2)));
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

/** Creates `file` (failing when it exists, as git's lock and temporary files do) holding `content`. */
function writeNewFile(file: string, content: Buffer | string, mode = 0o666): void {
  const descriptor = openSync(file, "wx", mode);
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
