import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { mkdir, rm, rmdir } from "node:fs/promises";
import * as path from "node:path";
import type { ShadowRepository } from "./checkpointGit";
import { indexFile, runGit } from "./checkpointGit";
import type { HeldLock, LockOptions } from "./checkpointLock";
import { checkpointBranch, readCheckpointBranch, readLooseCommitTree, writeCheckpointCommit } from "./checkpointCommit";
import { acquireRepositoryLock, removeLeftoverGitLocks } from "./checkpointLock";
import { writeIndexTree } from "./checkpointTree";

// Checkpoints of workspace folders: take one before tools may change files, list what changed between two,
// read a file as it was, and put the folder back as it was. Each folder has its own shadow git repository in
// the extension's storage (see checkpointGit), so a checkpoint costs what `git add -A` costs: every file is
// hashed the first time, and afterwards only files whose size or times changed (the shadow index keeps their
// stat data between checkpoints, windows and sessions). It starts one git, `add`: the folder trees that changed
// are written from the index without one (checkpointTree; the first checkpoint runs `git write-tree`), and so
// are the commit and branch (checkpointCommit). What git ignores (.gitignore files, and the
// editor's files.exclude written to the shadow's info/exclude) is neither saved nor restored.

/** A checkpoint of every workspace folder: folder path -> commit id in that folder's shadow repository. */
export type CheckpointId = Record<string, string>;

export type FileChangeKind = "added" | "modified" | "deleted";

export interface FileChange {
  /** The workspace folder the file is in. */
  folder: string;
  /** Relative to the folder, with forward slashes. */
  path: string;
  /** What happened to the file from the first checkpoint to the second. */
  kind: FileChangeKind;
}

export interface Checkpoints {
  take(): Promise<CheckpointId>;
  diff(from: CheckpointId, to: CheckpointId): Promise<FileChange[]>;
  /** The file's content in `checkpoint`, null when it did not exist there. */
  fileAt(checkpoint: CheckpointId, folder: string, relativePath: string): Promise<Buffer | null>;
  /** Puts the folders back as they were at `target`; returns a checkpoint of how they were just before. */
  restore(target: CheckpointId): Promise<{ before: CheckpointId; changes: FileChange[] }>;
}

/**
 * A checkpoint that saved files adds up to two small packs (the files' from `git add`, the folder trees');
 * past this many they are merged into one (`git repack`, about as often as at 50 when it was one a checkpoint).
 */
const maxPacks = 100;

export interface FolderCheckpointOptions {
  /** The editor's files.exclude globs that are on; read at every checkpoint so a change applies. */
  excludes?: () => readonly string[];
  /**
   * Files open in the editor with unsaved changes (relative path -> text): a checkpoint saves that text,
   * because edits the model proposed are applied unsaved and are what the turn changed.
   */
  unsavedFiles?: () => ReadonlyMap<string, string>;
  /** How the lock shared with other windows on the folder waits and decides it is stale (tests shorten it). */
  lock?: LockOptions;
  /** Told when git lock files left by a killed git were removed, so the log can say so. */
  onRecovered?: (removedLockFiles: readonly string[]) => void;
}

/**
 * One workspace folder's shadow repository. Operations on it run one at a time (git's index lock): in this
 * process by a queue, and across windows and processes sharing the repository by its lock file (checkpointLock).
 */
export class FolderCheckpoints {
  private readonly repository: ShadowRepository;
  private queue: Promise<unknown> = Promise.resolve();
  private initialized = false;
  /** Tree ids of checkpoint commits: commit -> tree. */
  private readonly trees = new Map<string, string>();
  private lock: HeldLock | null = null;

  constructor(
    storageDirectory: string,
    readonly folder: string,
    private readonly options: FolderCheckpointOptions = {},
  ) {
    const key = createHash("sha256").update(path.resolve(folder)).digest("hex").slice(0, 16);
    this.repository = { gitDir: path.join(storageDirectory, `${key}.git`), workTree: folder };
  }

  get gitDir(): string {
    return this.repository.gitDir;
  }

  take(): Promise<string> {
    return this.serialized(() => this.locked(() => this.commitWorkTree()));
  }

  diff(from: string, to: string): Promise<FileChange[]> {
    return this.serialized(() => this.changesBetween(from, to));
  }

  fileAt(commit: string, relativePath: string): Promise<Buffer | null> {
    return this.serialized(async () => {
      try {
        return (await this.git(["cat-file", "blob", `${commit}:${relativePath}`])).stdout;
      } catch {
        return null;
      }
    });
  }

  restore(target: string): Promise<{ before: string; changes: FileChange[] }> {
    return this.serialized(() => this.locked(async () => {
      const before = await this.commitWorkTree();
      const changes = await this.changesBetween(before, target);
      // From now to the target: a file the target lacks is deleted, every other change is written back.
      const deleted = changes.filter((change) => change.kind === "deleted").map((change) => change.path);
      const written = changes.filter((change) => change.kind !== "deleted").map((change) => change.path);
      // Deleted first: a file that became a folder (or the other way) since the target is in the way otherwise.
      for (const relativePath of deleted) await this.removeFile(relativePath);
      if (written.length > 0) await this.git(["checkout", target, "--pathspec-from-file=-", "--pathspec-file-nul"], written.join("\0"));
      await this.commitWorkTree();
      return { before, changes };
    }));
  }

  private async commitWorkTree(): Promise<string> {
    await this.initialize();
    this.writeExcludes();
    await this.git(["add", "--all", "--ignore-errors", "--", "."]).catch((error: Error) => {
      // --ignore-errors still exits non-zero when a file could not be read; what could be read is staged.
      if (!/unable to index file|could not open|Permission denied/i.test(error.message)) throw error;
    });
    await this.stageUnsavedTexts();
    const head = await this.head();
    // Before the first checkpoint git has recorded no trees in the index: it writes them all.
    const tree = (head ? await writeIndexTree(this.repository.gitDir, indexFile(this.repository), await this.treeOf(head)) : null) ?? text(await this.git(["write-tree"]));
    if (head && (await this.treeOf(head)) === tree) return head;
    const commit = writeCheckpointCommit(this.repository.gitDir, tree, head);
    this.trees.set(commit, tree);
    await this.mergePacksWhenMany();
    return commit;
  }

  /**
   * The exclude file is written only when it changes, so a checkpoint costs no write when the globs are the same.
   * Like the other small files of a checkpoint (its lock, commit and branch), read and written synchronously: as a
   * promise each is a round trip through libuv's thread pool that costs more than the read.
   */
  private writeExcludes(): void {
    const wanted = excludeFileText(this.options.excludes?.() ?? []);
    const file = path.join(this.repository.gitDir, "info", "exclude");
    if (readTextOrNull(file) !== wanted) writeFileSync(file, wanted);
  }

  /** Stages the unsaved text of open files in place of what is on disk; ignored files stay out (they are not staged). */
  private async stageUnsavedTexts(): Promise<void> {
    const unsaved = this.options.unsavedFiles?.() ?? new Map<string, string>();
    if (unsaved.size === 0) return;
    const staged = (await this.git(["ls-files", "-z", "--cached", "--", ...unsaved.keys()])).stdout.toString("utf8");
    for (const relativePath of staged.split("\0").filter((name) => unsaved.has(name))) {
      const blob = text(await this.git(["hash-object", "-w", "--stdin", `--path=${relativePath}`], unsaved.get(relativePath)));
      await this.git(["update-index", "--cacheinfo", `100644,${blob},${relativePath}`]);
    }
  }

  private async mergePacksWhenMany(): Promise<void> {
    const packs = namesIn(path.join(this.repository.gitDir, "objects", "pack")).filter((name) => name.endsWith(".pack"));
    if (packs.length > maxPacks) await this.git(["repack", "-a", "-d", "-q"]);
  }

  private async changesBetween(from: string, to: string): Promise<FileChange[]> {
    if (from === to) return [];
    const output = (await this.git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to])).stdout.toString("utf8");
    const fields = output.split("\0").filter((field) => field !== "");
    const changes: FileChange[] = [];
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const status = fields[index];
      changes.push({ folder: this.folder, path: fields[index + 1], kind: status === "A" ? "added" : status === "D" ? "deleted" : "modified" });
    }
    return changes;
  }

  /** The branch's newest checkpoint: its ref file is read without starting a git, unless it is unusual. */
  private async head(): Promise<string | null> {
    const read = readCheckpointBranch(this.repository.gitDir);
    if (read !== undefined) return read;
    try {
      return text(await this.git(["rev-parse", "--verify", "--quiet", checkpointBranch]));
    } catch {
      return null;
    }
  }

  /** A checkpoint's tree, remembered for the checkpoints this window made or looked up (a commit never changes). */
  private async treeOf(commit: string): Promise<string> {
    const known = this.trees.get(commit) ?? readLooseCommitTree(this.repository.gitDir, commit);
    if (known) return known;
    const tree = text(await this.git(["rev-parse", `${commit}^{tree}`]));
    this.trees.set(commit, tree);
    return tree;
  }

  private async initialize(): Promise<void> {
    if (this.initialized) return;
    // A repository made by an earlier window or session is used as it is: `git init` again would cost a process.
    // git creates HEAD, then the object folders: with both there, it finished (a killed init is run again).
    const gitDir = this.repository.gitDir;
    if (!existsSync(path.join(gitDir, "HEAD")) || !existsSync(path.join(gitDir, "objects", "pack"))) {
      await mkdir(this.repository.gitDir, { recursive: true });
      // No template: its sample hooks and description are never used here (hooks are off) and cost file writes.
      await this.git(["init", "--quiet", "--template="]);
    }
    mkdirSync(path.join(this.repository.gitDir, "info"), { recursive: true });
    this.initialized = true;
  }

  /** Removes a file the target did not have, and the folders it leaves empty (never the folder itself). */
  private async removeFile(relativePath: string): Promise<void> {
    const absolute = path.join(this.folder, relativePath);
    await rm(absolute, { force: true });
    for (let directory = path.dirname(absolute); directory.startsWith(this.folder + path.sep); directory = path.dirname(directory)) {
      try {
        await rmdir(directory);
      } catch {
        return;
      }
    }
  }

  /** Runs work that writes the repository (index, refs, packs) holding the lock shared with other processes. */
  private async locked<T>(work: () => Promise<T>): Promise<T> {
    this.lock = await acquireRepositoryLock(this.repository.gitDir, this.options.lock);
    try {
      const removed = await removeLeftoverGitLocks(this.repository.gitDir);
      if (removed.length > 0) this.options.onRecovered?.(removed);
      return await work();
    } finally {
      const held = this.lock;
      this.lock = null;
      await held.release();
    }
  }

  private git(args: readonly string[], input?: Buffer | string) {
    const lock = this.lock;
    return runGit(this.repository, args, input, lock ? (pid) => lock.noteGit(pid) : undefined);
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Checkpoints of several workspace folders, taken and restored together. */
export class WorkspaceCheckpoints implements Checkpoints {
  constructor(private readonly folders: readonly FolderCheckpoints[]) {}

  async take(): Promise<CheckpointId> {
    const commits = await Promise.all(this.folders.map((folder) => folder.take()));
    return Object.fromEntries(this.folders.map((folder, index) => [folder.folder, commits[index]]));
  }

  async diff(from: CheckpointId, to: CheckpointId): Promise<FileChange[]> {
    const perFolder = await Promise.all(this.both(from, to).map(([folder, fromCommit, toCommit]) => folder.diff(fromCommit, toCommit)));
    return perFolder.flat();
  }

  async fileAt(checkpoint: CheckpointId, folder: string, relativePath: string): Promise<Buffer | null> {
    const store = this.folders.find((candidate) => candidate.folder === folder);
    const commit = checkpoint[folder];
    return store && commit ? store.fileAt(commit, relativePath) : null;
  }

  async restore(target: CheckpointId): Promise<{ before: CheckpointId; changes: FileChange[] }> {
    const before: CheckpointId = {};
    const changes: FileChange[] = [];
    for (const folder of this.folders) {
      const commit = target[folder.folder];
      if (!commit) continue;
      const restored = await folder.restore(commit);
      before[folder.folder] = restored.before;
      changes.push(...restored.changes);
    }
    return { before, changes };
  }

  /** Folders both checkpoints know about; a folder added or removed in between is left alone. */
  private both(from: CheckpointId, to: CheckpointId): [FolderCheckpoints, string, string][] {
    return this.folders.flatMap((folder): [FolderCheckpoints, string, string][] => {
      const fromCommit = from[folder.folder];
      const toCommit = to[folder.folder];
      return fromCommit && toCommit ? [[folder, fromCommit, toCommit]] : [];
    });
  }
}

/**
 * files.exclude globs as gitignore lines. Both read `**` and `*` alike; a brace list (`*.{js,map}`) has no
 * gitignore form, so it becomes one line per choice. The user's own .git is never added by git in any case.
 */
export function excludeFileText(globs: readonly string[]): string {
  return globs.flatMap(expandBraces).map((glob) => `/${glob.replace(/^\/+/, "")}`).join("\n") + "\n";
}

function expandBraces(glob: string): string[] {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (!match) return [glob];
  return match[1].split(",").flatMap((choice) => expandBraces(glob.slice(0, match.index) + choice + glob.slice(match.index + match[0].length)));
}

function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function text(result: { stdout: Buffer }): string {
  return result.stdout.toString("utf8").trim();
}
