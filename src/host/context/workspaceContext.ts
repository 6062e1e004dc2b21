import * as vscode from "vscode";
import type { ContextAttachmentResult, ContextRequest, WorkspaceContextSource } from "../../panel/panelServices";
import type { FileMatchView } from "../../panel/protocol";
import { problemEntryOf } from "../../tools/builtin/diagnosticsTool";
import { workingTreeChanges } from "../../tools/gitChanges";
import { terminalText } from "../../tools/terminalOutputTool";
import type { TerminalSnapshot } from "../../tools/terminalOutputTool";
import { workspaceDisplayPath } from "../../tools/workspaceDisplayPath";
import type { ProblemEntry } from "../../tools/workspaceContextText";
import { MAX_PROBLEM_ENTRIES, formatProblems, formatSymbol } from "../../tools/workspaceContextText";

// What `#` and the paperclip gather from the editor beside files: the Problems panel (the workspace's or the
// current file's), the active terminal's last command (src/host/context/terminalHistory.ts), the git changes of the
// working tree and a workspace symbol's definition. Only files inside the workspace folders are named or read.
// The wording and the limits are in src/tools/workspaceContextText.ts, shared with the read-only tools.

const MAX_SYMBOL_MATCHES = 8;

export function editorWorkspaceContext(folders: () => readonly string[], terminal: () => TerminalSnapshot): WorkspaceContextSource {
  return {
    attachment: (request) => attachmentFor(request, folders(), terminal),
    symbols: (query) => symbolMatches(query, folders()),
  };
}

async function attachmentFor(request: ContextRequest, folders: readonly string[], terminal: () => TerminalSnapshot): Promise<ContextAttachmentResult> {
  switch (request.source) {
    case "problems":
      return problemsAttachment(null, folders);
    case "problemsInFile":
      return problemsAttachment(vscode.window.activeTextEditor?.document.uri ?? null, folders);
    case "terminal":
      return terminalAttachment(terminal());
    case "changes":
      return changesAttachment(folders);
    case "symbol":
      return symbolAttachment(request.name ?? "", request.path ?? "", folders);
  }
}

export function problemsAttachment(file: vscode.Uri | null, folders: readonly string[]): ContextAttachmentResult {
  const entries: ProblemEntry[] = [];
  if (file !== null) {
    const shown = file.scheme === "file" ? workspaceDisplayPath(folders, file.fsPath) : undefined;
    if (shown === undefined) return { ok: false, problem: vscode.l10n.t("Open a file of the workspace in the editor to attach its problems.") };
    for (const diagnostic of vscode.languages.getDiagnostics(file)) entries.push(problemEntryOf(shown, diagnostic));
    const listed = formatProblems(entries, `in ${shown}`);
    return { ok: true, attachment: { kind: "problems", label: vscode.l10n.t("Problems in {0}", shown), text: listed, language: "", ...cutNote(entries.length) } };
  }
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    // Problems of files outside the workspace (or of virtual documents) are not the model's to see.
    const shown = uri.scheme === "file" ? workspaceDisplayPath(folders, uri.fsPath) : undefined;
    if (shown === undefined) continue;
    for (const diagnostic of diagnostics) entries.push(problemEntryOf(shown, diagnostic));
  }
  return { ok: true, attachment: { kind: "problems", label: vscode.l10n.t("Problems"), text: formatProblems(entries, "in the workspace"), language: "", ...cutNote(entries.length) } };
}

function cutNote(count: number): { note?: string } {
  return count > MAX_PROBLEM_ENTRIES ? { note: vscode.l10n.t("The first {0} of {1} problems are listed.", MAX_PROBLEM_ENTRIES, count) } : {};
}

export function terminalAttachment(snapshot: TerminalSnapshot): ContextAttachmentResult {
  if (!snapshot.available && snapshot.terminal === null) return { ok: false, problem: vscode.l10n.t("No terminal is open.") };
  const label = vscode.l10n.t("Terminal {0}", snapshot.terminal ?? "");
  const text = terminalText(snapshot, 1);
  if (!snapshot.available) {
    const note = vscode.l10n.t("The terminal has no shell integration, so its commands and output cannot be read; the model is told so.");
    return { ok: true, attachment: { kind: "terminal", label, text, language: "", note } };
  }
  if (snapshot.runs.length === 0) {
    return { ok: true, attachment: { kind: "terminal", label, text, language: "", note: vscode.l10n.t("No command has finished in this terminal since Relay Chat started.") } };
  }
  return { ok: true, attachment: { kind: "terminal", label, text, language: "" } };
}

async function changesAttachment(folders: readonly string[]): Promise<ContextAttachmentResult> {
  const changes = await workingTreeChanges(folders, vscode.workspace.isTrusted);
  if (!changes.ok) return { ok: false, problem: vscode.l10n.t("The changes could not be read: {0}", changes.problem) };
  return {
    ok: true,
    attachment: { kind: "changes", label: vscode.l10n.t("Changes"), text: changes.text, language: "diff", ...(changes.cut ? { note: vscode.l10n.t("The diff is long and was cut; the cut is said at its end.") } : {}) },
  };
}

async function workspaceSymbols(query: string, folders: readonly string[]): Promise<{ symbol: vscode.SymbolInformation; shown: string }[]> {
  const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query)) ?? [];
  return found.flatMap((symbol) => {
    const uri = symbol.location.uri;
    const shown = uri.scheme === "file" ? workspaceDisplayPath(folders, uri.fsPath) : undefined;
    return shown === undefined ? [] : [{ symbol, shown }];
  });
}

async function symbolMatches(query: string, folders: readonly string[]): Promise<FileMatchView[]> {
  const found = await workspaceSymbols(query, folders);
  return found.slice(0, MAX_SYMBOL_MATCHES).map(({ symbol, shown }) => ({
    kind: "symbol" as const,
    path: `${shown}:${symbol.location.range.start.line + 1}`,
    name: symbol.name,
    detail: symbolKindName(symbol.kind),
  }));
}

async function symbolAttachment(name: string, place: string, folders: readonly string[]): Promise<ContextAttachmentResult> {
  const found = name === "" ? [] : await workspaceSymbols(name, folders);
  const match = found.find(({ symbol, shown }) => symbol.name === name && `${shown}:${symbol.location.range.start.line + 1}` === place) ?? found.find(({ symbol }) => symbol.name === name);
  if (match === undefined) return { ok: false, problem: vscode.l10n.t('The symbol "{0}" was not found in the workspace.', name) };
  const document = await vscode.workspace.openTextDocument(match.symbol.location.uri);
  const range = (await definitionRange(document.uri, match.symbol)) ?? match.symbol.location.range;
  const whole = new vscode.Range(range.start.line, 0, range.end.line, document.lineAt(range.end.line).text.length);
  const definition = formatSymbol({
    name: match.symbol.name,
    kind: symbolKindName(match.symbol.kind),
    path: match.shown,
    startLine: whole.start.line + 1,
    endLine: whole.end.line + 1,
    text: document.getText(whole),
  });
  return {
    ok: true,
    attachment: { kind: "symbol", label: `${match.symbol.name} (${match.shown}:${whole.start.line + 1})`, text: definition.text, language: document.languageId, ...(definition.cut ? { note: vscode.l10n.t("The definition is long and was cut.") } : {}) },
  };
}

/** The whole definition: a workspace symbol's location is often its name only; the document's symbols span the body. */
async function definitionRange(uri: vscode.Uri, symbol: vscode.SymbolInformation): Promise<vscode.Range | null> {
  const symbols = (await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>("vscode.executeDocumentSymbolProvider", uri)) ?? [];
  const start = symbol.location.range.start;
  const search = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]): vscode.Range | null => {
    for (const candidate of list) {
      const range = "range" in candidate ? candidate.range : candidate.location.range;
      if (candidate.name === symbol.name && range.contains(start)) return range;
      const inner = "children" in candidate ? search(candidate.children) : null;
      if (inner !== null) return inner;
    }
    return null;
  };
  return search(symbols);
}

function symbolKindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? "symbol").toLowerCase();
}
