// get_diagnostics: the problems VS Code shows in its Problems panel, so the model can see what is broken.
import * as path from "node:path";
import * as vscode from "vscode";
import type { Tool } from "../toolContract";
import { defineTool } from "../toolContract";
import { workspaceDisplayPath } from "../workspaceDisplayPath";
import { problemLine } from "../workspaceContextText";
import type { ProblemEntry, ProblemSeverity } from "../workspaceContextText";
import { resolveInsideWorkspace } from "../workspacePaths";

export interface GetDiagnosticsArguments {
  path?: string;
}

export interface DiagnosticsToolOptions {
  workspaceFolders(): readonly string[];
  /** Entries beyond this are counted, not listed: a broken build can report thousands. */
  readonly maxEntries?: number;
  /** How long to wait for a language server to look at a file that was not open yet. */
  readonly settleMs?: number;
}

export const defaultMaxDiagnostics = 200;

export function createDiagnosticsTool(options: DiagnosticsToolOptions): Tool {
  return defineTool<GetDiagnosticsArguments>({
    name: "get_diagnostics",
    description:
      "List the problems (errors, warnings, hints) VS Code currently reports, for one file or the whole workspace, " +
      "as path:line:col severity message [source]. Errors come first. Language servers usually report only on files " +
      "they have looked at, so a clean result for the workspace does not prove the project builds.",
    risk: "read",
    argumentRoles: { path: "path" },
    parameters: {
      type: "object",
      properties: { path: { type: "string", minLength: 1, description: "File path relative to the workspace folder. Omit for the whole workspace." } },
      additionalProperties: false,
    },
    run: async (args, signal) => {
      const folders = options.workspaceFolders();
      const maxEntries = options.maxEntries ?? defaultMaxDiagnostics;
      if (args.path === undefined) return formatWorkspaceDiagnostics(folders, maxEntries);

      const resolved = await resolveInsideWorkspace(folders, args.path);
      if (!resolved.ok) return { output: resolved.problem, isError: true };
      if (!resolved.exists) return { output: `The file "${args.path}" does not exist.`, isError: true };
      // The folder as VS Code was given it, not the real path: diagnostics are keyed by the editor's URI.
      const uri = vscode.Uri.file(path.join(resolved.folder, resolved.relativePath));
      const shown = workspaceDisplayPath(folders, uri.fsPath) ?? resolved.relativePath;
      let diagnostics: readonly vscode.Diagnostic[] = vscode.languages.getDiagnostics(uri);
      if (diagnostics.length === 0 && !isOpen(uri)) diagnostics = await diagnosticsAfterOpening(uri, options.settleMs ?? 2000, signal);
      if (diagnostics.length === 0) return `No problems reported for ${shown}.`;
      return formatEntries(diagnostics.map((diagnostic) => ({ shownPath: shown, diagnostic })), maxEntries);
    },
  });
}

function formatWorkspaceDiagnostics(folders: readonly string[], maxEntries: number): string {
  const entries: DiagnosticEntry[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    // Problems of files outside the workspace (or of virtual documents) are not the model's to see.
    const shownPath = uri.scheme === "file" ? workspaceDisplayPath(folders, uri.fsPath) : undefined;
    if (shownPath === undefined) continue;
    for (const diagnostic of diagnostics) entries.push({ shownPath, diagnostic });
  }
  if (entries.length === 0) return "No problems reported in the workspace.";
  return formatEntries(entries, maxEntries);
}

interface DiagnosticEntry {
  readonly shownPath: string;
  readonly diagnostic: vscode.Diagnostic;
}

function formatEntries(entries: DiagnosticEntry[], maxEntries: number): string {
  entries.sort(
    (a, b) =>
      a.diagnostic.severity - b.diagnostic.severity ||
      (a.shownPath < b.shownPath ? -1 : a.shownPath > b.shownPath ? 1 : 0) ||
      a.diagnostic.range.start.line - b.diagnostic.range.start.line ||
      a.diagnostic.range.start.character - b.diagnostic.range.start.character,
  );
  const lines = entries.slice(0, maxEntries).map(({ shownPath, diagnostic }) => formatDiagnostic(shownPath, diagnostic));
  if (entries.length > maxEntries) lines.push(`... ${entries.length - maxEntries} more`);
  return lines.join("\n");
}

export function formatDiagnostic(shownPath: string, diagnostic: vscode.Diagnostic): string {
  return problemLine(problemEntryOf(shownPath, diagnostic));
}

/** A diagnostic as the plain record the Problems chip and this tool word the same way (src/tools/workspaceContextText.ts). */
export function problemEntryOf(shownPath: string, diagnostic: vscode.Diagnostic): ProblemEntry {
  const { line, character } = diagnostic.range.start;
  const code = diagnosticCode(diagnostic.code);
  return {
    path: shownPath,
    line: line + 1,
    column: character + 1,
    severity: severityName(diagnostic.severity),
    message: diagnostic.message,
    ...(diagnostic.source === undefined ? {} : { source: diagnostic.source }),
    ...(code === "" ? {} : { code }),
  };
}

function severityName(severity: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return "error";
    case vscode.DiagnosticSeverity.Warning:
      return "warning";
    case vscode.DiagnosticSeverity.Information:
      return "info";
    case vscode.DiagnosticSeverity.Hint:
      return "hint";
  }
}

function diagnosticCode(code: vscode.Diagnostic["code"]): string {
  if (code === undefined) return "";
  return typeof code === "object" ? String(code.value) : String(code);
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString());
}

/**
 * A file nobody has opened has usually not been checked yet; opening it (without showing it, so the user's tabs
 * stay as they are) lets a push-based language server report, and the first report for it, or the time limit,
 * ends the wait. Servers that pull diagnostics only for visible editors (JSON, for one) stay silent here.
 */
async function diagnosticsAfterOpening(uri: vscode.Uri, settleMs: number, signal: AbortSignal): Promise<readonly vscode.Diagnostic[]> {
  const key = uri.toString();
  const reported = new Promise<void>((resolve) => {
    const timer = setTimeout(finish, settleMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((changed) => changed.toString() === key)) finish();
    });
    signal.addEventListener("abort", finish, { once: true });
    function finish(): void {
      clearTimeout(timer);
      subscription.dispose();
      signal.removeEventListener("abort", finish);
      resolve();
    }
  });
  try {
    await vscode.workspace.openTextDocument(uri);
  } catch {
    // A binary or unreadable file has no text to check; report what is known.
    return vscode.languages.getDiagnostics(uri);
  }
  await reported;
  return vscode.languages.getDiagnostics(uri);
}
