import { execFile } from "node:child_process";

// Runs the git binary against a shadow repository kept in the extension's storage, with the workspace folder
// as its work tree. Everything git would otherwise find on its own is pinned down, so the user's repository
// (the folder's own .git, its index, branches, hooks and config) is never read or written:
// GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE name the shadow repository explicitly (no discovery, so git never
// follows the folder's .git), and the system and global config are left out (no hooks, filters or
// fsmonitor of the user's run here). Inherited GIT_* variables (a terminal inside a git hook sets some)
// are dropped for the same reason.

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

/** The shadow repository's index (git's staging area), which keeps the stat data of every file between checkpoints. */
export function indexFile(repository: ShadowRepository): string {
  return `${repository.gitDir}/index`;
}

/** The git binary could not be started: checkpoints are off and the user is told to install git. */
export class GitMissingError extends Error {}

const maxOutputBytes = 256 * 1024 * 1024;

/** `onStart` is told the git process's id as it starts (the repository lock records it: see checkpointLock). */
export function runGit(repository: ShadowRepository, args: readonly string[], input?: Buffer | string, onStart?: (pid: number | undefined) => void): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...isolatingOptions, ...args],
      { env: isolatedEnvironment(repository), cwd: repository.workTree, encoding: "buffer", maxBuffer: maxOutputBytes, windowsHide: true },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === "ENOENT") return reject(new GitMissingError("git was not found on the PATH."));
        if (error) return reject(new Error(`git ${args[0]} failed: ${stderr.toString("utf8").trim() || error.message}`));
        resolve({ stdout, stderr: stderr.toString("utf8") });
      },
    );
    onStart?.(child.pid);
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Whether the git binary can be run at all; checked once before checkpoints are offered. */
export function gitVersion(): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["--version"], { windowsHide: true }, (error, stdout) => resolve(error ? null : String(stdout).trim()));
  });
}

/** Per-command settings that win over any config file: no hooks, no line-ending or fsmonitor surprises. */
const isolatingOptions = [
  "-c", "core.hooksPath=/dev/null",
  "-c", "core.autocrlf=false",
  "-c", "core.safecrlf=false",
  "-c", "core.fsmonitor=false",
  "-c", "core.quotepath=false",
  "-c", "core.longpaths=true",
  "-c", "commit.gpgsign=false",
  "-c", "advice.addEmbeddedRepo=false",
  "-c", "gc.auto=0",
  // A first checkpoint of a large workspace writes every file once. Above bigFileThreshold `git add` streams
  // files into one pack instead of one loose object file each, which halves its system time; git then
  // treats them as binary in content diffs, which checkpoints never ask for (they list names only).
  "-c", "core.bigFileThreshold=1",
  "-c", "core.looseCompression=1",
];

/**
 * glibc's allocator hands memory back to the system whenever the top of the heap is free, and zlib allocates
 * and frees its ~270 KB of state once per file: on a first checkpoint of 10,000 files that was 166,000 page
 * faults and 0.6 s of system time in `git add`, against 1,000 faults and 0.15 s with these (measured with
 * git 2.39 on Linux). Other allocators (macOS, Git for Windows) ignore them.
 */
const mallocSettings = { MALLOC_TOP_PAD_: String(4 * 1024 * 1024), MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024) };

function isolatedEnvironment(repository: ShadowRepository): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^GIT_/i.test(name)) env[name] = value;
  return {
    ...env,
    GIT_DIR: repository.gitDir,
    GIT_WORK_TREE: repository.workTree,
    GIT_INDEX_FILE: indexFile(repository),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: process.platform === "win32" ? "NUL" : "/dev/null",
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
