import { promises as fs } from "node:fs";
import type { FileToolContext } from "./fileToolContext";
import { workspaceRoots } from "./fileToolContext";
import { createPathMatcher } from "./globPattern";
import { decodeUtf8, isBinaryContent, splitLines } from "./textFileContent";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
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
}

export const defaultSearchTextLimits: SearchTextLimits = { maxMatches: 200, maxFileBytes: 1_000_000, maxLineChars: 300 };

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
  let expression: RegExp;
  try {
    expression = new RegExp(args.is_regex === true ? args.query : escapeRegExp(args.query), flags);
  } catch (error) {
    return { output: `The regular expression ${JSON.stringify(args.query)} is not valid: ${(error as Error).message}`, isError: true };
  }
  const included = args.include === undefined ? () => true : createPathMatcher(args.include, { caseSensitive: false });

  const results: string[] = [];
  let capped = false;
  search: for (const root of await workspaceRoots(workspaceFolders)) {
    for await (const file of walkWorkspaceFiles(root.realPath, { excludePatterns: options.excludePatterns ?? [], signal: options.signal })) {
      if (!included(file.relativePath)) continue;
      const content = await readSearchableFile(file.absolutePath, limits.maxFileBytes);
      if (content === null) continue;
      const lines = splitLines(content);
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index] as string;
        if (!expression.test(line)) continue;
        if (results.length === limits.maxMatches) {
          capped = true;
          break search;
        }
        results.push(`${root.displayPrefix}${file.relativePath}:${index + 1}: ${shorten(line.trim(), limits.maxLineChars)}`);
      }
    }
  }
  if (results.length === 0) return `No matches for ${JSON.stringify(args.query)}.`;
  const note = capped ? `\n[... stopped after ${limits.maxMatches} matches; narrow the query or use include]` : "";
  return results.join("\n") + note;
}

async function readSearchableFile(absolutePath: string, maxFileBytes: number): Promise<string | null> {
  try {
    const stats = await fs.stat(absolutePath);
    if (stats.size > maxFileBytes) return null;
    const content = await fs.readFile(absolutePath);
    return isBinaryContent(content) ? null : decodeUtf8(content);
  } catch {
    return null;
  }
}

function shorten(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
