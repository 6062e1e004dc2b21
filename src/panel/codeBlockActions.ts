// What two buttons of a code block in an answer do in the editor: open as a new document, and apply to a file, which goes through propose_edit's own review (the diff editor, then an
// explicit "Apply"), so an answer's code reaches a file exactly like a change the model proposes.
import * as vscode from "vscode";
import { createProposeEditTool } from "../tools/builtin/proposeEditTool";
import type { ConfirmApply } from "../tools/builtin/proposeEditTool";
import { ProposalDocuments } from "../tools/builtin/proposalDocuments";
import type { Tool } from "../tools/toolContract";
import { workspaceDisplayPath } from "../tools/workspaceDisplayPath";

export interface CodeBlockActionsOptions {
  /** File-system paths of the open workspace folders. */
  workspaceFolders(): readonly string[];
  /** Shows a short problem in the panel. */
  notify(message: string): void;
  /** How the review asks before applying; a modal dialog unless a test injects another. */
  confirmApply?: ConfirmApply;
  /** Picks the target among the choices; a quick pick unless a test injects another. */
  pickTarget?: (choices: readonly TargetChoice[]) => Promise<TargetChoice | undefined>;
}

export interface TargetChoice extends vscode.QuickPickItem {
  /** Workspace-relative path to review the change against; undefined for "choose another file". */
  readonly path: string | undefined;
  /** Replace only the active editor's selection in that file instead of the whole content. */
  readonly replaceSelection?: boolean;
}

export class CodeBlockActions implements vscode.Disposable {
  private readonly documents = new ProposalDocuments();
  private readonly review: Tool;

  constructor(private readonly options: CodeBlockActionsOptions) {
    this.review = createProposeEditTool({
      workspaceFolders: () => options.workspaceFolders(),
      documents: this.documents,
      confirmApply:
        options.confirmApply ??
        (async (shownPath, detail) => {
          const apply = vscode.l10n.t("Apply");
          return (await vscode.window.showInformationMessage(vscode.l10n.t("Apply the code to {0}?", shownPath), { modal: true, detail }, apply)) === apply;
        }),
    });
  }

  async openInEditor(code: string, language: string): Promise<void> {
    const known = new Set(await vscode.languages.getLanguages());
    const document = await vscode.workspace.openTextDocument({ content: code, language: known.has(language) ? language : "plaintext" });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /**
   * Reviews `code` as the new content of a file the user picks (the file the block names, the active editor,
   * or another), in the diff editor; nothing changes unless the user accepts, and the result is left unsaved.
   */
  async applyToFile(code: string, fileHint: string): Promise<void> {
    const folders = this.options.workspaceFolders();
    if (folders.length === 0) {
      this.options.notify(vscode.l10n.t("Open a folder to apply code to one of its files."));
      return;
    }
    const choice = await (this.options.pickTarget ?? pickWithQuickPick)(this.targetChoices(folders, fileHint));
    if (choice === undefined) return;
    const path = choice.path ?? (await this.chooseOtherFile(folders));
    if (path === undefined) return;
    const newText = choice.replaceSelection ? this.withSelectionReplaced(code) : code;
    const result = await this.review.run({ path, new_text: newText }, new AbortController().signal);
    if (typeof result !== "string" && result.isError) this.options.notify(result.output);
  }

  dispose(): void {
    this.documents.dispose();
  }

  private targetChoices(folders: readonly string[], fileHint: string): TargetChoice[] {
    const choices: TargetChoice[] = [];
    if (fileHint) choices.push({ label: fileHint, description: vscode.l10n.t("named in the code block"), path: fileHint });
    const editor = vscode.window.activeTextEditor;
    const activePath = editor?.document.uri.scheme === "file" ? workspaceDisplayPath(folders, editor.document.uri.fsPath) : undefined;
    if (editor && activePath !== undefined) {
      if (!editor.selection.isEmpty) {
        choices.push({ label: activePath, description: vscode.l10n.t("replace the selection in the active editor"), path: activePath, replaceSelection: true });
      }
      if (activePath !== fileHint) choices.push({ label: activePath, description: vscode.l10n.t("active editor, whole file"), path: activePath });
    }
    choices.push({ label: vscode.l10n.t("Choose another file…"), path: undefined });
    return choices;
  }

  private withSelectionReplaced(code: string): string {
    const editor = vscode.window.activeTextEditor!;
    const document = editor.document;
    const text = document.getText();
    return text.slice(0, document.offsetAt(editor.selection.start)) + code + text.slice(document.offsetAt(editor.selection.end));
  }

  private async chooseOtherFile(folders: readonly string[]): Promise<string | undefined> {
    const [picked] =
      (await vscode.window.showOpenDialog({
        defaultUri: vscode.Uri.file(folders[0]!),
        canSelectMany: false,
        openLabel: vscode.l10n.t("Review the change"),
      })) ?? [];
    if (picked === undefined) return undefined;
    const shown = workspaceDisplayPath(folders, picked.fsPath);
    if (shown === undefined) this.options.notify(vscode.l10n.t("Only files inside the workspace folders can be changed."));
    return shown;
  }
}

async function pickWithQuickPick(choices: readonly TargetChoice[]): Promise<TargetChoice | undefined> {
  return vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t("Apply the code to which file? You review the change before anything is written.") });
}
