// What a single word tells the command-safety checks: which program a command word names, whether a path leaves
// the workspace, and which environment variables only change how output looks.

/**
 * The program a command word names, read the way every platform could run it: without its folder, in lower case
 * (macOS and Windows file systems ignore case), without a Windows extension (git.exe, npm.cmd) and without cmd.exe's
 * ^ escapes. So `/usr/bin/git`, `GIT`, `git.exe` and `g^it` all name git.
 */
export function programName(word: string): string {
  const base = word.split(/[\\/]/).pop() ?? word;
  return base
    .replace(/\^/g, "")
    .toLowerCase()
    .replace(/\.(exe|cmd|bat|com)$/, "");
}

/** Whether a command word names its program by a path (./git, /usr/bin/git) rather than by a name looked up in PATH. */
export function namesProgramByPath(word: string): boolean {
  return /[\\/]/.test(word);
}

/**
 * Whether a path, as written, may lead outside the workspace: absolute (/x, C:\x, \\server), in a home folder (~),
 * or climbing with a `..` segment. Read from the words alone (the command's folder may be a subfolder of the
 * workspace, so this is cautious); a symbolic link inside the workspace is followed by the program as usual.
 */
export function reachesOutsideWorkspace(path: string): boolean {
  if (path === "" || path === "-") return false;
  if (/^[/\\~]/.test(path) || /^[A-Za-z]:/.test(path) || /^file:/i.test(path)) return true;
  return path.split(/[\\/]/).includes("..");
}

/** Targets of output that are not files. */
export function isHarmlessTarget(path: string): boolean {
  return path === "/dev/null" || path === "/dev/stdout" || path === "/dev/stderr" || /^nul$/i.test(path);
}

/**
 * Variables that change only how a program reports (colours, language, CI mode). Any other assignment before a
 * command may change what it runs (PATH, NODE_OPTIONS, GIT_*, LD_PRELOAD, BASH_ENV, HOME, npm_config_*, PAGER...).
 */
const harmlessVariables = new Set(["CI", "FORCE_COLOR", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS", "LINES", "LANG", "LANGUAGE", "TZ", "NODE_ENV", "TERM_PROGRAM"]);

export function isHarmlessVariable(name: string): boolean {
  return harmlessVariables.has(name) || /^LC_[A-Z]+$/.test(name);
}

const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function isAssignment(word: string): boolean {
  return assignment.test(word);
}
