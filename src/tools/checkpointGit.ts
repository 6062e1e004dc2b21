import { execFile, spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Readable, Writable } from "node:stream";

// Runs the git binary against a shadow repository kept in the extension's storage, with the workspace folder
// as its work tree. Everything git would otherwise find on its own is pinned down, so the user's repository
// (the folder's own .git, its index, branches, hooks and config) is never read or written:
// GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE name the shadow repository explicitly (no discovery, so git never
// follows the folder's .git), and the system and global config are left out, with the per-user attributes and
// ignore files they would name (no hooks, filters, line-ending conversion or fsmonitor of the user's run here).
// Inherited GIT_* variables (a terminal inside a git hook sets some) are dropped for the same reason. The
// workspace's own .gitattributes are overridden by the shadow repository's info/attributes (see
// isolatingAttributes), so Restore writes back the bytes that were saved.

export interface ShadowRepository {
  /** The shadow repository's git directory, outside the workspace. */
  readonly gitDir: string;
  /** The workspace folder whose files are checkpointed. */
  readonly workTree: string;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
}

/** The git binary could not be started: checkpoints are off and the user is told to install git. */
export class GitMissingError extends Error {}

/** Output held in memory for commands that print names or ids; file contents are streamed (readGitOutput). */
const maxOutputBytes = 256 * 1024 * 1024;

export interface GitOptions {
  /** Told the git process's id as it starts (the repository lock records it: see checkpointLock). */
  onStart?: (pid: number | undefined) => void;
  /** Another index file than the shadow repository's own (Restore checks files out through a scratch index). */
  indexFile?: string;
}

export function runGit(repository: ShadowRepository, args: readonly string[], input?: Buffer | string, options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...isolatingOptions, ...args],
      { env: isolatedEnvironment(repository, options.indexFile), cwd: repository.workTree, encoding: "buffer", maxBuffer: maxOutputBytes, windowsHide: true },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === "ENOENT") return reject(new GitMissingError("git was not found on the PATH."));
        if (error) return reject(new Error(`git ${args[0]} failed: ${stderr.toString("utf8").trim() || error.message}`));
        resolve({ stdout, stderr: stderr.toString("utf8") });
      },
    );
    options.onStart?.(child.pid);
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * Runs git and returns all it prints, however large (a file's content as it was: `cat-file blob`); up to
 * Node's largest Buffer, past which it fails saying so.
 */
export function readGitOutput(repository: ShadowRepository, args: readonly string[], options: GitOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...isolatingOptions, ...args], { env: isolatedEnvironment(repository, options.indexFile), cwd: repository.workTree, windowsHide: true, stdio: ["ignore", "pipe", "pipe"] });
    options.onStart?.(child.pid);
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = "";
    let failure: Error | null = null;
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBufferBytes && !failure) {
        failure = new Error(`git ${args[0]} printed more than ${Math.floor(maxBufferBytes / 2 ** 20)} MB, more than can be held in memory`);
        child.kill();
      }
      if (!failure) chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new GitMissingError("git was not found on the PATH.") : error));
    child.on("close", (code) => {
      if (failure) return reject(failure);
      if (code !== 0) return reject(new Error(`git ${args[0]} failed: ${stderr.trim() || `exit code ${code}`}`));
      resolve(Buffer.concat(chunks, bytes));
    });
  });
}

/** Node's largest Buffer (4 GiB on 64-bit Node 20 and later). */
const maxBufferBytes = 2 ** 32 - 1;

/**
 * The shadow repository's info/attributes, which git reads before (and lets win over) every .gitattributes in
 * the workspace: no line-ending conversion (`text`, `eol`, the older `crlf`), no `$Id$` expansion (`ident`), no
 * clean/smudge filter and no re-encoding (`working-tree-encoding`) when Restore writes a file back.
 */
export const isolatingAttributes = "* -text -crlf -eol -ident -filter -working-tree-encoding\n";

/** Writes info/attributes unless it says that already (a repository made by an older version lacks it). */
export function writeIsolatingAttributes(gitDir: string): void {
  const file = path.join(gitDir, "info", "attributes");
  try {
    if (readFileSync(file, "utf8") === isolatingAttributes) return;
  } catch {
    // Missing: written below.
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, isolatingAttributes);
}

/**
 * Starts git with its input and output as streams (fast-import is fed the content of many files); the caller
 * writes its input and waits for it to close.
 */
export function spawnGit(repository: ShadowRepository, args: readonly string[], options: GitOptions = {}): ChildProcessByStdio<Writable, Readable, Readable> {
  const child = spawn("git", [...isolatingOptions, ...args], { env: isolatedEnvironment(repository, options.indexFile), cwd: repository.workTree, windowsHide: true, stdio: ["pipe", "pipe", "pipe"] });
  options.onStart?.(child.pid);
  return child;
}

/** Whether the git binary can be run at all; checked once before checkpoints are offered. */
export function gitVersion(): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["--version"], { windowsHide: true }, (error, stdout) => resolve(error ? null : String(stdout).trim()));
  });
}

const nullDevice = process.platform === "win32" ? "NUL" : "/dev/null";

/** Per-command settings that win over any config file: no hooks, no line-ending or fsmonitor surprises. */
const isolatingOptions = [
  "-c", `core.hooksPath=${nullDevice}`,
  // Without these git reads ~/.config/git/attributes and ignore even with no global config file.
  "-c", `core.attributesFile=${nullDevice}`,
  "-c", `core.excludesFile=${nullDevice}`,
  "-c", "core.autocrlf=false",
  "-c", "core.eol=lf",
  "-c", "core.safecrlf=false",
  "-c", "core.fsmonitor=false",
  "-c", "core.quotepath=false",
  "-c", "core.longpaths=true",
  "-c", "commit.gpgsign=false",
  "-c", "gc.auto=0",
  // Large files are stored by `git hash-object`: above bigFileThreshold it streams them into a pack instead
  // of reading each whole into memory.
  "-c", "core.bigFileThreshold=1",
  "-c", "core.looseCompression=1",
];

/**
 * glibc's allocator hands memory back to the system whenever the top of the heap is free, and git allocates and
 * frees zlib's state once per object: fast-import of 10,000 small files made 40,000 brk calls and spent 7 s in
 * the kernel (git 2.39, Linux, a loaded machine), 0.08 s of CPU with these. Other allocators ignore them.
 */
const mallocSettings = { MALLOC_TOP_PAD_: String(4 * 1024 * 1024), MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024) };

function isolatedEnvironment(repository: ShadowRepository, indexFile = `${repository.gitDir}/index`): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^GIT_/i.test(name)) env[name] = value;
  return {
    ...env,
    GIT_DIR: repository.gitDir,
    GIT_WORK_TREE: repository.workTree,
    GIT_INDEX_FILE: indexFile,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: nullDevice,
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    // Paths are passed as they are, never as patterns: a file named "*.ts" means that file.
    GIT_LITERAL_PATHSPECS: "1",
    GIT_AUTHOR_NAME: "Relay Chat",
    GIT_AUTHOR_EMAIL: "checkpoints@relay-chat.invalid",
    GIT_COMMITTER_NAME: "Relay Chat",
    GIT_COMMITTER_EMAIL: "checkpoints@relay-chat.invalid",
    LC_ALL: "C",
    ...mallocSettings,
  };
}
