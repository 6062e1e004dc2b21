import { execFile } from "node:child_process";
import type { ChangesText } from "./workspaceContextText";
import { MAX_CHANGES_CHARS, formatChanges } from "./workspaceContextText";

// The working tree's changes in the person's own repository, as `git diff` shows them: staged, unstaged and the
// untracked file names. Read-only, and nothing the repository configures may run: no external diff tools or
// textconv filters (--no-ext-diff, --no-textconv), no fsmonitor hook, no pager; inherited GIT_* variables are
// dropped so a terminal inside a git hook cannot point this at another repository.

const GIT_OPTIONS = ["-c", "core.fsmonitor=false", "-c", "core.quotepath=false", "--no-pager"];
const DIFF_OPTIONS = ["--no-color", "--no-ext-diff", "--no-textconv"];
/** Far more than the limit: the text is cut with words, not the process with an error. */
const MAX_BUFFER = 64 * 1024 * 1024;

/**
 * A repository's own configuration can name programs git runs while diffing (clean filters of .gitattributes),
 * so, as VS Code's git extension does, nothing is read from git in a workspace the person has not trusted.
 */
export const UNTRUSTED_WORKSPACE_CHANGES = "The workspace is not trusted, so its git changes are not read: the repository's own git configuration could run programs. Trust the workspace to read them.";

export type GitChangesResult = ({ ok: true } & ChangesText) | { ok: false; problem: string };

/** The changes of each folder's repository; with several folders, each under its name. */
export async function workingTreeChanges(folders: readonly string[], trusted: boolean, maxChars = MAX_CHANGES_CHARS): Promise<GitChangesResult> {
  if (!trusted) return { ok: false, problem: UNTRUSTED_WORKSPACE_CHANGES };
  if (folders.length === 0) return { ok: false, problem: "No workspace folder is open, so there is no git repository to read." };
  const results = await Promise.all(folders.map((folder) => folderChanges(folder, Math.floor(maxChars / folders.length))));
  if (folders.length === 1) return results[0]!;
  const readable = results.filter((result): result is { ok: true } & ChangesText => result.ok);
  if (readable.length === 0) return results[0]!;
  return {
    ok: true,
    text: results.map((result, index) => `Folder ${folders[index]}:\n${result.ok ? result.text : result.problem}`).join("\n\n"),
    cut: readable.some((result) => result.cut),
  };
}

async function folderChanges(folder: string, maxChars: number): Promise<GitChangesResult> {
  const inside = await git(folder, ["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok) return inside.missing ? { ok: false, problem: "git was not found on the PATH; install git to read the changes." } : { ok: false, problem: `${folder} is not in a git repository.` };
  const [staged, unstaged, untracked] = await Promise.all([
    git(folder, ["diff", "--cached", ...DIFF_OPTIONS]),
    git(folder, ["diff", ...DIFF_OPTIONS]),
    git(folder, ["ls-files", "--others", "--exclude-standard"]),
  ]);
  for (const result of [staged, unstaged, untracked]) if (!result.ok) return { ok: false, problem: result.problem };
  const text = (result: typeof staged) => (result.ok ? result.stdout : "");
  return {
    ok: true,
    ...formatChanges({ staged: text(staged), unstaged: text(unstaged), untracked: text(untracked).split("\n").filter(Boolean) }, maxChars),
  };
}

type GitOutput = { ok: true; stdout: string } | { ok: false; missing: boolean; problem: string };

function git(cwd: string, args: readonly string[]): Promise<GitOutput> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GIT_")));
  return new Promise((resolve) => {
    execFile("git", [...GIT_OPTIONS, ...args], { cwd, env: { ...env, GIT_OPTIONAL_LOCKS: "0" }, maxBuffer: MAX_BUFFER, windowsHide: true, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === "ENOENT") return resolve({ ok: false, missing: true, problem: "git was not found on the PATH." });
      if (error) return resolve({ ok: false, missing: false, problem: `git ${args[0]} failed: ${String(stderr).trim() || error.message}` });
      resolve({ ok: true, stdout: String(stdout) });
    });
  });
}
