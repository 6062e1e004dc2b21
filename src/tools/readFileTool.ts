import type { FileToolContext } from "./fileToolContext";
import { decodeUtf8, isBinaryContent, splitLines } from "./textFileContent";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import { openVerified } from "./verifiedOpen";
import { resolveInsideWorkspace } from "./workspacePaths";

export interface ReadFileArguments {
  path: string;
  start_line?: number;
  end_line?: number;
}

export interface ReadFileLimits {
  /** Larger files are refused: whole-file reads of that size would only be truncated anyway. */
  readonly maxFileBytes: number;
}

export const defaultReadFileLimits: ReadFileLimits = { maxFileBytes: 1_000_000 };

export function createReadFileTool(context: FileToolContext, limits: ReadFileLimits = defaultReadFileLimits): Tool {
  return defineTool<ReadFileArguments>({
    name: "read_file",
    description:
      "Read a text file from the workspace. Paths are relative to the workspace folder. " +
      "Optionally give start_line and end_line (1-based, inclusive) to read part of a long file.",
    risk: "read",
    argumentRoles: { path: "path" },
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace folder." },
        start_line: { type: "integer", minimum: 1, description: "First line to read, 1-based." },
        end_line: { type: "integer", minimum: 1, description: "Last line to read, inclusive." },
      },
      required: ["path"],
      additionalProperties: false,
    },
    run: async (args) => readWorkspaceFile(context.workspaceFolders(), args, limits),
  });
}

export async function readWorkspaceFile(
  workspaceFolders: readonly string[],
  args: ReadFileArguments,
  limits: ReadFileLimits = defaultReadFileLimits,
): Promise<string | { output: string; isError: true }> {
  const fail = (output: string): { output: string; isError: true } => ({ output, isError: true });
  if (args.start_line !== undefined && args.end_line !== undefined && args.end_line < args.start_line) {
    return fail(`end_line (${args.end_line}) is before start_line (${args.start_line}).`);
  }
  const resolved = await resolveInsideWorkspace(workspaceFolders, args.path);
  if (!resolved.ok) return fail(resolved.problem);
  if (!resolved.exists) return fail(`The file "${args.path}" does not exist.`);

  // Read through the handle that was verified, never by path again.
  const opened = await openVerified(resolved.absolutePath, args.path);
  if (!opened.ok) return fail(opened.problem);
  let content: Buffer;
  try {
    const stats = await opened.handle.stat();
    if (stats.isDirectory()) return fail(`"${args.path}" is a folder, not a file; use list_directory to see its entries.`);
    if (!stats.isFile()) return fail(`"${args.path}" is not a regular file.`);
    if (stats.size > limits.maxFileBytes) {
      return fail(`The file "${args.path}" is ${stats.size} bytes, larger than the ${limits.maxFileBytes}-byte limit for read_file; use search_text to find the relevant lines.`);
    }
    content = await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
  if (isBinaryContent(content)) return fail(`The file "${args.path}" looks binary (it contains NUL bytes); read_file only reads text files.`);

  const lines = splitLines(decodeUtf8(content));
  const total = content.length === 0 ? 0 : lines.length;
  if (args.start_line === undefined && args.end_line === undefined) {
    return `${resolved.relativePath} (${total} lines)\n${total === 0 ? "" : lines.join("\n")}`;
  }
  const start = args.start_line ?? 1;
  if (start > total) return fail(`start_line ${start} is past the end of "${args.path}", which has ${total} lines.`);
  const end = Math.min(args.end_line ?? total, total);
  return `${resolved.relativePath} (lines ${start}-${end} of ${total})\n${lines.slice(start - 1, end).join("\n")}`;
}
