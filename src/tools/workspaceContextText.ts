// The editor context a person would otherwise paste (Problems, the terminal's last commands, the git changes,
// a folder's files, a symbol's definition) as plain text for the model, each within a size limit that is said
// where it cuts. The same text goes out as a `#` chip of the message and as a read-only tool's result; the
// editor gathers the facts (src/host/), this module only words and limits them, so tests reach it without VS Code.

import { avoidSplittingSurrogatePair } from "./outputTruncation";

export const MAX_PROBLEM_ENTRIES = 200;
/** Terminal output is cut from the start: the end of a run (the error, the summary) is what matters. */
export const MAX_TERMINAL_CHARS = 20_000;
export const MAX_CHANGES_CHARS = 40_000;
export const MAX_FOLDER_ENTRIES = 1_000;
export const MAX_SYMBOL_CHARS = 20_000;

export type ProblemSeverity = "error" | "warning" | "info" | "hint";
const SEVERITY_ORDER: readonly ProblemSeverity[] = ["error", "warning", "info", "hint"];

export interface ProblemEntry {
  /** Workspace-relative, "/"-separated. */
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  severity: ProblemSeverity;
  message: string;
  source?: string;
  code?: string;
}

/** One problem as `path:line:col severity message [source code]`, on one line. */
export function problemLine(entry: ProblemEntry): string {
  const message = entry.message.replace(/\s*\r?\n\s*/g, " ");
  const code = entry.code ?? "";
  const source = entry.source === undefined ? "" : ` [${entry.source}${code === "" ? "" : ` ${code}`}]`;
  return `${entry.path}:${entry.line}:${entry.column} ${entry.severity} ${message}${source}`;
}

/** Errors first, then by path and position; beyond `maxEntries` the rest are counted. Empty: says none were reported. */
export function formatProblems(entries: readonly ProblemEntry[], scope: string, maxEntries = MAX_PROBLEM_ENTRIES): string {
  if (entries.length === 0) return `No problems reported ${scope}.`;
  const sorted = [...entries].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column,
  );
  const counts = SEVERITY_ORDER.map((severity) => [severity, sorted.filter((entry) => entry.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}${count === 1 ? "" : "s"}`);
  const lines = [`Problems ${scope} (${counts.join(", ")}):`, ...sorted.slice(0, maxEntries).map(problemLine)];
  if (sorted.length > maxEntries) lines.push(`[... ${sorted.length - maxEntries} more problems not shown]`);
  return lines.join("\n");
}

export interface TerminalRun {
  /** The terminal's name as VS Code shows it. */
  terminal: string;
  commandLine: string;
  /** Where it ran, when the shell said. */
  cwd?: string;
  /** Undefined when the shell did not report it. */
  exitCode: number | undefined;
  /** The raw output as shell integration read it (escape sequences included). */
  output: string;
}

/**
 * Terminal output as a person reads it: colour and cursor escape sequences removed, a line redrawn with
 * carriage returns (progress bars) reduced to what it showed last.
 */
export function cleanTerminalOutput(raw: string): string {
  const withoutEscapes = raw
    // OSC sequences (titles, shell integration marks, links), ended by BEL or ST.
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, "")
    // CSI sequences (colours, cursor moves, erase line).
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, "")
    // Other two-character escapes.
    .replace(/\u001b[@-Z\\-_]/g, "");
  return withoutEscapes
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const parts = line.split("\r");
      return parts.reverse().find((part) => part !== "") ?? "";
    })
    .join("\n")
    .replace(/[^\S\n]+$/gm, "")
    .trim();
}

/** The runs, oldest first, each with its command, exit code and cleaned output; the output budget is shared, newest first. */
export function formatTerminalRuns(runs: readonly TerminalRun[], maxChars = MAX_TERMINAL_CHARS): string {
  if (runs.length === 0) return "No command has finished in the terminal since Relay Chat started watching it.";
  let budget = maxChars;
  const blocks: string[] = [];
  for (const run of [...runs].reverse()) {
    const output = cleanTerminalOutput(run.output);
    const exit = run.exitCode === undefined ? "exit code not reported" : `exit code ${run.exitCode}`;
    const header = `$ ${run.commandLine}\n(terminal "${run.terminal}"${run.cwd ? `, in ${run.cwd}` : ""}, ${exit})`;
    blocks.unshift(`${header}\n${keepEnd(output, Math.max(0, budget)) || NO_OUTPUT}`);
    budget -= output.length;
  }
  return blocks.join("\n\n");
}

/**
 * Said for a command whose output was empty. VS Code passes a command's output to extensions from the moment it
 * reports the command's start (src/host/context/terminalHistory.ts reads it from there, a quick command's included), so
 * what a command printed before that, such as its own echo of the prompt, is not output here.
 */
export const NO_OUTPUT = "(no output reached Relay Chat after the command started)";

/** Said instead of output when shell integration cannot read the terminal. */
export function terminalUnavailableText(terminal: string | null): string {
  return terminal === null
    ? "No terminal is open, so there is no command output to read."
    : `The terminal "${terminal}" has no shell integration, so VS Code cannot tell Relay Chat its commands and their output. ` +
        "Shell integration starts for bash, zsh, fish and PowerShell when terminal.integrated.shellIntegration.enabled is on.";
}

function keepEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars === 0) return `[output not shown: the limit of ${MAX_TERMINAL_CHARS} characters is used by later commands]`;
  const start = text.length - maxChars;
  const safeStart = start < text.length && text.charCodeAt(start) >= 0xdc00 && text.charCodeAt(start) <= 0xdfff ? start + 1 : start;
  return `[... the first ${safeStart} of ${text.length} characters cut]\n${text.slice(safeStart)}`;
}

export interface ChangesText {
  text: string;
  /** True when the diff was cut at the limit. */
  cut: boolean;
}

/** The staged and unstaged diffs of the working tree, each under its heading, cut at `maxChars` in all. */
export function formatChanges(diffs: { staged: string; unstaged: string; untracked: readonly string[] }, maxChars = MAX_CHANGES_CHARS): ChangesText {
  const parts: string[] = [];
  if (diffs.staged.trim() !== "") parts.push(`Staged changes (git diff --cached):\n${diffs.staged.trimEnd()}`);
  if (diffs.unstaged.trim() !== "") parts.push(`Unstaged changes (git diff):\n${diffs.unstaged.trimEnd()}`);
  if (diffs.untracked.length > 0) parts.push(`Untracked files (not in the diff):\n${diffs.untracked.join("\n")}`);
  if (parts.length === 0) return { text: "No changes: the working tree matches the last commit.", cut: false };
  const whole = parts.join("\n\n");
  if (whole.length <= maxChars) return { text: whole, cut: false };
  const keep = avoidSplittingSurrogatePair(whole, maxChars);
  return { text: `${whole.slice(0, keep)}\n[... diff cut: ${keep} of ${whole.length} characters shown]`, cut: true };
}

/** A folder's files (workspace-relative paths), as the `#` picker's list has them: .gitignore and files.exclude respected. */
export function formatFolderListing(folder: string, files: readonly string[], maxEntries = MAX_FOLDER_ENTRIES): ChangesText {
  if (files.length === 0) return { text: `The folder ${folder} has no files (or all are ignored).`, cut: false };
  const prefix = folder === "" || folder === "." ? "" : `${folder}/`;
  const shown = files.slice(0, maxEntries).map((file) => (file.startsWith(prefix) ? file.slice(prefix.length) : file));
  const more = files.length > maxEntries ? `\n[... ${files.length - maxEntries} more files not shown]` : "";
  return { text: `Files in ${folder || "."} (${files.length}, ignored files left out):\n${shown.join("\n")}${more}`, cut: files.length > maxEntries };
}

export interface SymbolDefinition {
  name: string;
  /** Class, function, method… as the symbol provider says. */
  kind: string;
  path: string;
  /** 1-based first and last line of the definition. */
  startLine: number;
  endLine: number;
  text: string;
}

export function formatSymbol(symbol: SymbolDefinition, maxChars = MAX_SYMBOL_CHARS): ChangesText {
  const header = `${symbol.kind} ${symbol.name}, defined in ${symbol.path}:${symbol.startLine}-${symbol.endLine}:`;
  if (symbol.text.length <= maxChars) return { text: `${header}\n${symbol.text}`, cut: false };
  const keep = avoidSplittingSurrogatePair(symbol.text, maxChars);
  return { text: `${header}\n${symbol.text.slice(0, keep)}\n[... definition cut: ${keep} of ${symbol.text.length} characters shown]`, cut: true };
}
