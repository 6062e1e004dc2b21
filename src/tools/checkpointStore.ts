import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { rm, rmdir } from "node:fs/promises";
import * as path from "node:path";
import type { GitOptions, ShadowRepository } from "./checkpointGit";
import { readGitOutput, runGit, spawnGit, writeIsolatingAttributes } from "./checkpointGit";
import type { ContentSource } from "./checkpointContent";
import type { FastImport } from "./checkpointImport";
import { fastImportArguments, importOnTwoThreads } from "./checkpointImport";
import type { HeldLock, LockOptions } from "./checkpointLock";
import { acquireRepositoryLock, removeLeftoverGitLocks } from "./checkpointLock";
import { checkpointBranch, checkpointMessage, parseCommit, readCheckpointBranch, readLooseCommit, writeCheckpointCommit } from "./checkpointCommit";
import type { CommitText } from "./checkpointCommit";
import type { ChangeFound, CheckpointId, FileChange } from "./checkpointChanges";
import { changesBetween } from "./checkpointChanges";
import type { Permissions } from "./checkpointModes";
import { applyPermissions, parsePermissions, permissionsText } from "./checkpointModes";
import { ObjectBatch, readChangedFiles, storeLargeFiles } from "./checkpointObjects";
import { objectId } from "./checkpointPack";
import { loadPicture, savePicture } from "./checkpointRecord";
import type { StoredPicture } from "./checkpointRecord";
import type { DirNode } from "./checkpointScan";
import { ExcludeRules, emptyDirectory, fileNodeAt, scanFolder } from "./checkpointScan";
import { buildTree } from "./checkpointTree";

// Checkpoints of workspace folders: take one before tools may change files, list what changed between two,
// read a file as it was, and put the folder back as it was. Each folder has its own shadow git repository in
// the extension's storage (see checkpointGit). A checkpoint is made in this process, without `git add`: the
// scan (checkpointScan) lists the folders and looks at every file's stat data, reads only the files that are
// new or changed (checkpointObjects), builds the trees of the folders that changed (checkpointTree) and writes
// the commit and branch (checkpointCommit), with the files' permissions (checkpointModes). The scan's picture
// is kept between checkpoints, windows and sessions (checkpointRecord). git itself creates the repository,
// stores files of 8 MB and more, lists changes, reads old files and writes them back on Restore. What
// .gitignore files and the editor's files.exclude leave out is neither saved nor restored.

// The types of what changed live with the code that finds it; the store's users import them from here.
export type { CheckpointId, FileChange, FileChangeKind } from "./checkpointChanges";

export interface Checkpoints {
  take(): Promise<CheckpointId>;
  diff(from: CheckpointId, to: CheckpointId): Promise<FileChange[]>;
  /** The file's content in `checkpoint`, null when it did not exist there. */
  fileAt(checkpoint: CheckpointId, folder: string, relativePath: string): Promise<Buffer | null>;
  /** The file's size in bytes in `checkpoint` (to decide whether to show it), null when it did not exist there. */
  fileSizeAt(checkpoint: CheckpointId, folder: string, relativePath: string): Promise<number | null>;
  /** Puts the folders back as they were at `target`; returns a checkpoint of how they were just before. */
  restore(target: CheckpointId): Promise<{ before: CheckpointId; changes: FileChange[] }>;
}

/** The picture is written again once this many files were read since it was last written (see keepPicture). */
const keepPictureAfterFiles = 200;

/** Past this many packs (a checkpoint that saved files adds one) they are merged into one by `git repack`. */
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
 * One workspace folder's shadow repository. Operations on it run one at a time: in this process by a queue,
 * and across windows and processes sharing the repository by its lock file (checkpointLock).
 */
export class FolderCheckpoints {
  private readonly repository: ShadowRepository;
  private queue: Promise<unknown> = Promise.resolve();
  private initialized = false;
  /** Checkpoint commits read or written here: commit -> its tree and message (a commit never changes). */
  private readonly commits = new Map<string, CommitText>();
  private picture: StoredPicture | null = null;
  /** Whether the shadow repository holds a picture, and how many files this window read since it wrote one. */
  private pictureKept = false;
  private filesReadSinceKept = 0;
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
    return this.serialized(async () => (await this.changesBetween(from, to)).map(({ change }) => change));
  }

  /** Streamed from git, so a file of any size comes back whole (up to the largest Buffer, 4 GiB). */
  fileAt(commit: string, relativePath: string): Promise<Buffer | null> {
    return this.serialized(async () => ((await this.sizeOf(commit, relativePath)) === null ? null : readGitOutput(this.repository, ["cat-file", "blob", `${commit}:${relativePath}`])));
  }

  fileSizeAt(commit: string, relativePath: string): Promise<number | null> {
    return this.serialized(() => this.sizeOf(commit, relativePath));
  }

  restore(target: string): Promise<{ before: string; changes: FileChange[] }> {
    return this.serialized(() => this.locked(async () => {
      const before = await this.commitWorkTree();
      const changes = await this.changesBetween(before, target);
      // From now to the target: a file the target lacks is deleted, every other change is written back.
      // Deleted first: a file that became a folder (or the other way) since the target is in the way otherwise.
      for (const { change } of changes) if (change.kind === "deleted") await this.removeFile(change.path);
      const written = changes.filter(({ change, contentChanged }) => change.kind !== "deleted" && contentChanged).map(({ change }) => change.path);
      if (written.length > 0) await this.checkOut(target, written);
      const permissions = await this.permissionsOf(target);
      if (permissions) applyPermissions(this.folder, changes.filter(({ change }) => change.kind !== "deleted").map(({ change }) => change.path), permissions);
      await this.commitWorkTree();
      return { before, changes: changes.map(({ change }) => change) };
    }));
  }

  private async commitWorkTree(): Promise<string> {
    const startedMs = Date.now();
    // git init (only for a new shadow repository) runs while this process scans the folder; its failure (no
    // git) is taken up after the scan, and must not count as unhandled meanwhile.
    const initialized = this.initialize();
    initialized.catch(() => undefined);
    const picture = this.currentPicture();
    const excludes = new ExcludeRules(this.options.excludes?.() ?? []);
    const reclassify = excludes.key !== picture.excludesKey;
    picture.excludesKey = excludes.key;
    const { toRead, changed } = await scanFolder(this.folder, picture.root, excludes, reclassify);
    await initialized;
    const batch = new ObjectBatch(this.repository.gitDir);
    const storage = {
      batch,
      storeLarge: (paths: string[]) => storeLargeFiles((args, input) => this.git(args, input), paths),
      importFiles: (files: readonly ContentSource[]) => importOnTwoThreads(files, () => this.startFastImport(), this.repository, path.join(this.repository.gitDir, "relay-chat-marks-helper"), (pid) => this.lock?.noteGit(pid)),
    };
    await readChangedFiles(toRead, storage, startedMs, () => this.fileSystemNowMs());
    const tree = buildTree(picture.root, batch, this.unsavedBlobs(picture.root, batch));
    batch.flush();
    this.keepPicture(picture, changed, toRead.length);
    const details = permissionsText(picture.root);
    const message = checkpointMessage(details);
    const head = await this.head();
    if (head) {
      const headCommit = await this.commitText(head);
      if (headCommit.tree === tree && headCommit.message === message) return head;
    }
    const commit = writeCheckpointCommit(this.repository.gitDir, tree, head, details);
    this.commits.set(commit, { tree, message });
    await this.mergePacksWhenMany();
    return commit;
  }

  /** The picture of the folder: this window's, else the one kept in the shadow repository, else an empty one. */
  private currentPicture(): StoredPicture {
    if (!this.picture) {
      const kept = loadPicture(this.repository.gitDir);
      this.pictureKept = kept !== null;
      this.picture = kept ?? { excludesKey: "", root: emptyDirectory() };
    }
    return this.picture;
  }

  /**
   * Keeps the picture in the shadow repository once everything it names is stored. Writing it costs about what
   * reading 200 small files does, so after a checkpoint that read a few files it is left as it was: a window
   * that starts from an older picture reads again the files changed since, and nothing else.
   */
  private keepPicture(picture: StoredPicture, changed: boolean, filesRead: number): void {
    this.filesReadSinceKept += filesRead;
    if (!changed || (this.pictureKept && this.filesReadSinceKept < keepPictureAfterFiles)) return;
    savePicture(this.repository.gitDir, picture);
    this.pictureKept = true;
    this.filesReadSinceKept = 0;
  }

  /** The blobs of unsaved texts of files the checkpoint saves (ignored files stay out), by path. */
  private unsavedBlobs(root: DirNode, batch: ObjectBatch): Map<string, string> {
    const blobs = new Map<string, string>();
    for (const [relativePath, text] of this.options.unsavedFiles?.() ?? []) {
      const file = fileNodeAt(root, relativePath);
      if (!file || file.link || file.oid === null) continue;
      const content = Buffer.from(text, "utf8");
      const id = objectId("blob", content);
      if (id !== file.oid) batch.add("blob", id, content);
      blobs.set(relativePath, id);
    }
    return blobs;
  }

  private startFastImport(): FastImport {
    const marksFile = path.join(this.repository.gitDir, "relay-chat-marks");
    const lock = this.lock;
    return { child: spawnGit(this.repository, fastImportArguments(marksFile), { onStart: lock ? (pid) => lock.noteGit(pid) : undefined }), marksFile };
  }

  /** The file system's time now (it can differ from this machine's clock on a network drive). */
  private fileSystemNowMs(): number {
    const stamp = path.join(this.repository.gitDir, "relay-chat-stamp");
    writeFileSync(stamp, "");
    return statSync(stamp).mtimeMs;
  }

  private async checkOut(target: string, relativePaths: readonly string[]): Promise<void> {
    // Through a scratch index, so no index of the shadow repository is kept or needed between checkpoints.
    const indexFile = path.join(this.repository.gitDir, "relay-chat-restore-index");
    await rm(indexFile, { force: true });
    try {
      await this.git(["checkout", target, "--pathspec-from-file=-", "--pathspec-file-nul"], relativePaths.join("\0"), { indexFile });
    } finally {
      await rm(indexFile, { force: true });
    }
  }

  private async mergePacksWhenMany(): Promise<void> {
    const packs = namesIn(path.join(this.repository.gitDir, "objects", "pack")).filter((name) => name.endsWith(".pack"));
    // Unreachable objects are kept: the picture may name the blob of a file whose unsaved text was saved instead.
    if (packs.length > maxPacks) await this.git(["repack", "-a", "-d", "-q", "--keep-unreachable"]);
  }

  /** What changed between two checkpoints (checkpointChanges). */
  private changesBetween(from: string, to: string): Promise<ChangeFound[]> {
    return changesBetween(this.folder, from, to, { git: (args) => this.git(args), permissionsOf: (commit) => this.permissionsOf(commit) });
  }

  /** The permissions a checkpoint recorded; null for one made before they were recorded (or on Windows). */
  private async permissionsOf(commit: string): Promise<Permissions | null> {
    const { message } = await this.commitText(commit);
    return message.includes("Permissions: ") ? parsePermissions(message) : null;
  }

  private async sizeOf(commit: string, relativePath: string): Promise<number | null> {
    try {
      return Number((await this.git(["cat-file", "-s", `${commit}:${relativePath}`])).stdout.toString("utf8").trim());
    } catch {
      return null;
    }
  }

  /** The branch's newest checkpoint: its ref file is read without starting a git, unless it is unusual. */
  private async head(): Promise<string | null> {
    const read = readCheckpointBranch(this.repository.gitDir);
    if (read !== undefined) return read;
    try {
      return (await this.git(["rev-parse", "--verify", "--quiet", checkpointBranch])).stdout.toString("utf8").trim();
    } catch {
      return null;
    }
  }

  /** A checkpoint's tree and message: remembered, or read from its loose object, or from git when packed. */
  private async commitText(commit: string): Promise<CommitText> {
    const known = this.commits.get(commit) ?? readLooseCommit(this.repository.gitDir, commit) ?? parseCommit((await this.git(["cat-file", "commit", commit])).stdout.toString("utf8"));
    if (!known) throw new Error(`checkpoint ${commit} is not a commit`);
    this.commits.set(commit, known);
    return known;
  }

  private async initialize(): Promise<void> {
    if (this.initialized) return;
    // A repository made by an earlier window or session is used as it is: `git init` again would cost a process.
    // git creates HEAD, then the object folders: with both there, it finished (a killed init is run again).
    const gitDir = this.repository.gitDir;
    if (!existsSync(path.join(gitDir, "HEAD")) || !existsSync(path.join(gitDir, "objects", "pack"))) {
      mkdirSync(gitDir, { recursive: true });
      // No template: its sample hooks and description are never used here (hooks are off) and cost file writes.
      await this.git(["init", "--quiet", "--template="]);
    }
    writeIsolatingAttributes(gitDir);
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

  /** Runs work that writes the repository (objects, refs, the picture) holding the lock shared with other processes. */
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

  private git(args: readonly string[], input?: Buffer | string, options: GitOptions = {}) {
    const lock = this.lock;
    return runGit(this.repository, args, input, { ...options, onStart: lock ? (pid) => lock.noteGit(pid) : undefined });
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
    const [store, commit] = this.folderAt(checkpoint, folder);
    return store && commit ? store.fileAt(commit, relativePath) : null;
  }

  async fileSizeAt(checkpoint: CheckpointId, folder: string, relativePath: string): Promise<number | null> {
    const [store, commit] = this.folderAt(checkpoint, folder);
    return store && commit ? store.fileSizeAt(commit, relativePath) : null;
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

  private folderAt(checkpoint: CheckpointId, folder: string): [FolderCheckpoints | undefined, string | undefined] {
    return [this.folders.find((candidate) => candidate.folder === folder), checkpoint[folder]];
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

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
