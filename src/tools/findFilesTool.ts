import type { FileToolContext } from "./fileToolContext";
import { workspaceRoots } from "./fileToolContext";
import { createPathMatcher } from "./globPattern";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import { walkWorkspaceFiles } from "./workspaceWalk";

export interface FindFilesArguments {
  pattern: string;
}

export const defaultMaxFoundFiles = 500;

export function createFindFilesTool(context: FileToolContext, maxResults = defaultMaxFoundFiles): Tool {
  return defineTool<FindFilesArguments>({
    name: "find_files",
    description:
      'Find workspace files by glob pattern, e.g. "**/*.ts", "src/**/test_*.py" or "package.json". ' +
      "A pattern without \"/\" matches file names at any depth. Matching ignores case. " +
      "node_modules, .git, .gitignore'd and excluded files are skipped.",
    risk: "read",
    parameters: {
      type: "object",
      properties: { pattern: { type: "string", minLength: 1, description: "Glob pattern relative to the workspace folder." } },
      required: ["pattern"],
      additionalProperties: false,
    },
    run: async (args, signal) =>
      findWorkspaceFiles(context.workspaceFolders(), args.pattern, { excludePatterns: context.excludePatterns?.() ?? [], maxResults, signal }),
  });
}

export async function findWorkspaceFiles(
  workspaceFolders: readonly string[],
  pattern: string,
  options: { excludePatterns?: readonly string[]; maxResults?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const maxResults = options.maxResults ?? defaultMaxFoundFiles;
  const matches = createPathMatcher(pattern, { caseSensitive: false });
  const found: string[] = [];
  let capped = false;
  search: for (const root of await workspaceRoots(workspaceFolders)) {
    for await (const file of walkWorkspaceFiles(root.realPath, { excludePatterns: options.excludePatterns ?? [], signal: options.signal })) {
      if (!matches(file.relativePath)) continue;
      if (found.length === maxResults) {
        capped = true;
        break search;
      }
      found.push(root.displayPrefix + file.relativePath);
    }
  }
  if (found.length === 0) return `No files match "${pattern}".`;
  const note = capped ? `\n[... stopped after ${maxResults} files; use a narrower pattern]` : "";
  return found.join("\n") + note;
}
