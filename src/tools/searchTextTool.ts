import type { FileToolContext } from "./fileToolContext";
import { workspaceRoots } from "./fileToolContext";
import { createPathMatcher } from "./globPattern";
import { defaultMatchBudgetMs, LineMatchWorker } from "./lineMatchWorker";
import { decodeUtf8, isBinaryContent, splitLines } from "./textFileContent";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import { openVerified } from "./verifiedOpen";
import { walkWorkspaceFiles } from "./workspaceWalk";

export interface SearchTextArguments {
  query: string;
  is_regex?: boolean;
  case_sensitive?: boolean;
  include?: string;
}

export interface SearchTextLimits {
  readonly maxMatches: number;
  /** Bigger files are skipped: they are usually generated or data, and slow every search. */
  readonly maxFileBytes: number;
  /** Long lines are shown shortened; minified files would otherwise fill the whole result. */
  readonly maxLineChars: number;
  /** Matching one file may take this long before the search is stopped as runaway backtracking. */
  readonly matchBudgetMs: number;
}

export const defaultSearchTextLimits: SearchTextLimits = { maxMatches: 200, maxFileBytes: 1_000_000, maxLineChars: 300, matchBudgetMs: defaultMatchBudgetMs };

export function createSearchTextTool(context: FileToolContext, limits: SearchTextLimits = defaultSearchTextLimits): Tool {
  return defineTool<SearchTextArguments>({
    name: "search_text",
    description:
      "Search the text of workspace files for a literal string (or a JavaScript regular expression with is_regex). " +
      "Case-insensitive unless case_sensitive is true. Results are lines as path:line: text. " +
      "node_modules, .git, .gitignore'd, excluded, binary and very large files are skipped.",
    risk: "read",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "Text or regular expression to look for within single lines." },
        is_regex: { type: "boolean", description: "Treat query as a regular expression. Default false." },
        case_sensitive: { type: "boolean", description: "Match case exactly. Default false." },
        include: { type: "string", description: 'Optional glob limiting which files are searched, e.g. "**/*.ts".' },
      },
      required: ["query"],
      additionalProperties: false,
    },
    run: async (args, signal) =>
      searchWorkspaceText(context.workspaceFolders(), args, { excludePatterns: context.excludePatterns?.() ?? [], limits, signal }),
  });
}

export async function searchWorkspaceText(
  workspaceFolders: readonly string[],
  args: SearchTextArguments,
  options: { excludePatterns?: readonly string[]; limits?: SearchTextLimits; signal?: AbortSignal } = {},
): Promise<string | { output: string; isError: true }> {
  const limits = options.limits ?? defaultSearchTextLimits;
  // No "u" flag: it rejects escapes like "\-" that models often write in ordinary patterns.
  const flags = args.case_sensitive === true ? "" : "i";
  const included = args.include === undefined ? () => true : createPathMatcher(args.include, { caseSensitive: false });
  let matcher: LineMatchWorker;
  try {
    matcher = new LineMatchWorker(args.is_regex === true ? args.query : escapeRegExp(args.query), flags, limits.matchBudgetMs);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { output: `The regular expression ${JSON.stringify(args.query)} is not valid: ${(error as Error).message}`, isError: true };
  }

  const results: string[] = [];
  let capped = false;
  try {
    search: for (const root of await workspaceRoots(workspaceFolders)) {
      for await (const file of walkWorkspaceFiles(root.realPath, { excludePatterns: options.excludePatterns ?? [], signal: options.signal })) {
        if (!included(file.relativePath)) continue;
        const content = await readSearchableFile(file.absolutePath, limits.maxFileBytes);
        if (content === null) continue;
        const lines = splitLines(content);
        const shownPath = root.displayPrefix + file.relativePath;
        // One more than still fits, to know whether the list was cut.
        const matched = await matcher.match(lines, limits.maxMatches - results.length + 1, options.signal);
        if (matched.kind === "cancelled") throw options.signal?.reason ?? new Error("The search was cancelled.");
        if (matched.kind === "over_budget") return { output: runawayPatternReport(args.query, shownPath, matched.budgetMs, results), isError: true };
        for (const index of matched.lineIndexes) {
          if (results.length === limits.maxMatches) {
            capped = true;
            break search;
          }
          results.push(`${shownPath}:${index + 1}: ${shorten((lines[index] as string).trim(), limits.maxLineChars)}`);
        }
      }
    }
  } finally {
    await matcher.dispose();
  }
  if (results.length === 0) return `No matches for ${JSON.stringify(args.query)}.`;
  const note = capped ? `\n[... stopped after ${limits.maxMatches} matches; narrow the query or use include]` : "";
  return results.join("\n") + note;
}

/** What the model needs to write a better pattern: why it was stopped, where, and what was found before. */
function runawayPatternReport(query: string, shownPath: string, budgetMs: number, found: readonly string[]): string {
  const seconds = `${budgetMs / 1000} s`;
  const before = found.length === 0 ? "No matches were found before it was stopped." : `Matches found before it was stopped:\n${found.join("\n")}`;
  return (
    `The search was stopped: the regular expression ${JSON.stringify(query)} took more than ${seconds} on the lines of ${shownPath}. ` +
    `Nested or overlapping repetition such as (a+)+, (a|a)* or (.*)* makes matching take exponential time on long lines. ` +
    `Rewrite the pattern without nested quantifiers, anchor it, or search for a literal string instead. ${before}`
  );
}

/** Null for anything not worth searching: too big, binary, not a regular file, unreadable, or swapped while opening. */
async function readSearchableFile(absolutePath: string, maxFileBytes: number): Promise<string | null> {
  const opened = await openVerified(absolutePath, absolutePath);
  if (!opened.ok) return null;
  try {
    const stats = await opened.handle.stat();
    if (!stats.isFile() || stats.size > maxFileBytes) return null;
    const content = await opened.handle.readFile();
    return isBinaryContent(content) ? null : decodeUtf8(content);
  } catch {
    return null;
  } finally {
    await opened.handle.close();
  }
}

function shorten(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
