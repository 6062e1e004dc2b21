import type { FileToolContext } from "./fileToolContext";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import { readFolderVerified } from "./verifiedOpen";
import { resolveInsideWorkspace } from "./workspacePaths";

export interface ListDirectoryArguments {
  path?: string;
}

export const defaultMaxDirectoryEntries = 1000;

export function createListDirectoryTool(context: FileToolContext, maxEntries = defaultMaxDirectoryEntries): Tool {
  return defineTool<ListDirectoryArguments>({
    name: "list_directory",
    description: 'List the entries of a workspace folder, sorted by name; folders end with "/". Path defaults to the workspace root.',
    risk: "read",
    argumentRoles: { path: "folder" },
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: 'Folder path relative to the workspace folder; "." for the root.' } },
      additionalProperties: false,
    },
    run: async (args) => listWorkspaceDirectory(context.workspaceFolders(), args.path ?? ".", maxEntries),
  });
}

export async function listWorkspaceDirectory(
  workspaceFolders: readonly string[],
  requestedPath: string,
  maxEntries = defaultMaxDirectoryEntries,
): Promise<string | { output: string; isError: true }> {
  const resolved = await resolveInsideWorkspace(workspaceFolders, requestedPath);
  if (!resolved.ok) return { output: resolved.problem, isError: true };
  if (!resolved.exists) return { output: `The folder "${requestedPath}" does not exist.`, isError: true };
  const listing = await readFolderVerified(resolved.absolutePath, requestedPath);
  if (!listing.ok) return { output: listing.problem, isError: true };
  const entries = listing.entries;
  const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  // Code-unit order, not locale order: the same listing on every machine.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) return "(empty folder)";
  const shown = names.slice(0, maxEntries);
  const more = names.length > shown.length ? `\n[... ${names.length - shown.length} more entries not shown]` : "";
  return shown.join("\n") + more;
}
