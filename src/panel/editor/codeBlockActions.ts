// What two buttons of a code block in an answer do in the editor: open as a new document, and apply to a file,
// which merges the snippet where it belongs in the file and leaves the change in the editor to keep or undo,
// exactly like a change the model proposes with propose_edit.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditReviewer } from "../../tools/builtin/proposeEditTool";
import type { DeclarationSpan, SnippetPlace } from "../../tools/snippetPlacement";
import { placeSnippet } from "../../tools/snippetPlacement";
import { workspaceDisplayPath } from "../../tools/workspaceDisplayPath";
import { resolveInsideWorkspace } from "../../tools/workspacePaths";

export interface CodeBlockActionsOptions {
  /** File-system paths of the open workspace folders. */
  workspaceFolders(): readonly string[];
  /** Shows a short problem in the panel. */
  notify(message: string): void;
  /** Where the merged change is kept or undone. */
  readonly review: EditReviewer;
  /** Picks among several places the snippet fits; a quick pick unless a test injects another. */
  pickPlace?: (choices: readonly PlaceChoice[]) => Promise<PlaceChoice | undefined>;
}

export interface PlaceChoice extends vscode.QuickPickItem {
  readonly place: SnippetPlace;
}

/** A language server that is still starting should not hold up the button; the text fallback is close behind. */
const SYMBOLS_TIMEOUT_MS = 1500;

export class CodeBlockActions {
  constructor(private readonly options: CodeBlockActionsOptions) {}

  async openInEditor(code: string, language: string): Promise<void> {
    const known = new Set(await vscode.languages.getLanguages());
    const document = await vscode.workspace.openTextDocument({ content: code, language: known.has(language) ? language : "plaintext" });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /**
   * Merges `code` into the file the block names (else the active editor's file, else one the person picks): into
   * the declaration it redefines or the lines it matches, the whole file when it is the whole file. The change
   * goes into the editor for review; the person picks a place only when several fit.
   */
  async applyToFile(code: string, fileHint: string): Promise<void> {
    const folders = this.options.workspaceFolders();
    if (folders.length === 0) {
      this.options.notify(vscode.l10n.t("Open a folder to apply code to one of its files."));
      return;
    }
    const target = fileHint || this.activeFile(folders) || (await this.chooseFile(folders));
    if (!target) return;
    const resolved = await resolveInsideWorkspace(folders, target);
    if (!resolved.ok) {
      this.options.notify(resolved.problem);
      return;
    }
    const uri = vscode.Uri.file(path.join(resolved.folder, resolved.relativePath));
    const exists = resolved.exists && (await fs.stat(resolved.absolutePath)).isFile();
    if (resolved.exists && !exists) {
      this.options.notify(vscode.l10n.t("{0} is not a file.", target));
      return;
    }
    let proposed = code;
    if (exists) {
      const document = await vscode.workspace.openTextDocument(uri);
      const place = await this.choosePlace(placeSnippet(document.getText(), code, await documentDeclarations(uri)));
      if (!place) return;
      if (place.text === document.getText()) {
        this.options.notify(vscode.l10n.t("{0} already contains this code.", workspaceDisplayPath(folders, uri.fsPath) ?? target));
        return;
      }
      proposed = place.text;
    }
    await this.options.review.propose(uri, proposed, { createsFile: !exists });
  }

  private activeFile(folders: readonly string[]): string | undefined {
    const document = vscode.window.activeTextEditor?.document;
    return document?.uri.scheme === "file" ? workspaceDisplayPath(folders, document.uri.fsPath) : undefined;
  }

  private async choosePlace(places: readonly SnippetPlace[]): Promise<SnippetPlace | undefined> {
    if (places.length <= 1) return places[0];
    const choices = places.map((place): PlaceChoice => ({ label: placeLabel(place), place }));
    const picked = await (this.options.pickPlace ?? pickWithQuickPick)(choices);
    return picked?.place;
  }

  private async chooseFile(folders: readonly string[]): Promise<string | undefined> {
    const [picked] =
      (await vscode.window.showOpenDialog({
        defaultUri: vscode.Uri.file(folders[0]!),
        canSelectMany: false,
        openLabel: vscode.l10n.t("Apply the code to this file"),
      })) ?? [];
    if (picked === undefined) return undefined;
    const shown = workspaceDisplayPath(folders, picked.fsPath);
    if (shown === undefined) this.options.notify(vscode.l10n.t("Only files inside the workspace folders can be changed."));
    return shown;
  }
}

function placeLabel(place: SnippetPlace): string {
  const lines = `${place.startLine + 1}–${Math.max(place.startLine + 1, place.endLine)}`;
  switch (place.kind) {
    case "declaration":
      return vscode.l10n.t("Replace {0} (lines {1})", place.name ?? "", lines);
    case "lines":
      return vscode.l10n.t("Replace lines {0}", lines);
    case "append":
      return vscode.l10n.t("Add at the end of the file");
    case "whole-file":
      return vscode.l10n.t("Replace the whole file");
  }
}

/** The file's declarations from its language server, flattened; null when there is none (or it is slow). */
async function documentDeclarations(uri: vscode.Uri): Promise<DeclarationSpan[] | null> {
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), SYMBOLS_TIMEOUT_MS));
  const symbols = await Promise.race([
    Promise.resolve(vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>("vscode.executeDocumentSymbolProvider", uri)).catch(() => undefined),
    timeout,
  ]);
  if (!symbols || symbols.length === 0) return null;
  const spans: DeclarationSpan[] = [];
  const visit = (symbol: vscode.DocumentSymbol | vscode.SymbolInformation): void => {
    const range = "range" in symbol ? symbol.range : symbol.location.range;
    spans.push({ name: symbol.name, startLine: range.start.line, endLine: range.end.line });
    if ("children" in symbol) symbol.children.forEach(visit);
  };
  symbols.forEach(visit);
  return spans;
}

async function pickWithQuickPick(choices: readonly PlaceChoice[]): Promise<PlaceChoice | undefined> {
  return vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t("Where in the file does the code go? You keep or undo the change in the editor afterwards.") });
}
