import * as vscode from "vscode";
import type { EditRegion } from "../../editInPlace/editRegion";
import { fittedReplacement } from "../../editInPlace/editRegion";
import { linesWithBreaks } from "../../tools/textHunks";

// The answer of an edit in place while it streams: its lines go into the buffer above the selected lines as they
// arrive, marked as added, and the selected lines below them are marked as the ones being replaced. Nothing else of
// the file is touched, and `remove` takes exactly the streamed lines out again, so a cancel or a failure leaves the
// text as it was. Once the answer is complete the caller hands the change to the edit review (Keep / Undo).

const addedLines = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
  overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});
const replacedLines = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor("diffEditor.removedLineBackground"),
  textDecoration: "line-through",
  overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});
const progressNote = vscode.window.createTextEditorDecorationType({
  after: { color: new vscode.ThemeColor("editorCodeLens.foreground"), margin: "0 0 0 2em", fontStyle: "italic" },
});

export class PendingEdit implements vscode.Disposable {
  /** The streamed text in the buffer now, and the text wanted there (applied one edit at a time). */
  private shown = "";
  private wanted = "";
  private applying: Promise<void> | null = null;
  /** Our own edits: any other change to the document while streaming is the person's. */
  private ownEdits = 0;
  private readonly watch: vscode.Disposable;

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly region: EditRegion,
    /** The person (or another extension) changed the document while the answer streamed. */
    onChangedByOthers: () => void,
  ) {
    this.watch = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && this.ownEdits === 0 && event.contentChanges.length > 0) onChangedByOthers();
    });
    this.decorate();
  }

  /** Shows `replacementSoFar` (whole lines) above the selected lines; later calls overtake earlier ones. */
  show(replacementSoFar: string): Promise<void> {
    this.wanted = replacementSoFar === "" ? "" : fittedReplacement(this.region, replacementSoFar.endsWith("\n") ? replacementSoFar : `${replacementSoFar}\n`);
    if (!this.wanted.endsWith("\n") && this.wanted !== "") this.wanted += this.region.eol;
    this.applying ??= this.applyWanted().finally(() => (this.applying = null));
    return this.applying;
  }

  /** Takes the streamed lines out again: the buffer holds what it held before. */
  async remove(): Promise<void> {
    await this.applying;
    this.wanted = "";
    await this.applyWanted();
  }

  /** The streamed lines are exactly where they were put (the person did not change them). */
  intact(): boolean {
    const start = this.document.offsetAt(new vscode.Position(this.region.startLine, 0));
    return this.document.getText().slice(start, start + this.shown.length + this.region.selected.length) === `${this.shown}${this.region.selected.replace(/\r\n/g, this.region.eol)}`;
  }

  dispose(): void {
    this.watch.dispose();
    for (const editor of this.editors()) {
      editor.setDecorations(addedLines, []);
      editor.setDecorations(replacedLines, []);
      editor.setDecorations(progressNote, []);
    }
  }

  private async applyWanted(): Promise<void> {
    while (this.shown !== this.wanted) {
      const next = this.wanted;
      const edit = new vscode.WorkspaceEdit();
      const start = new vscode.Position(this.region.startLine, 0);
      edit.replace(this.document.uri, new vscode.Range(start, new vscode.Position(this.region.startLine + linesWithBreaks(this.shown).length, 0)), next);
      this.ownEdits++;
      try {
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t("VS Code did not apply the edit to {0}.", this.document.uri.fsPath));
      } finally {
        this.ownEdits--;
      }
      this.shown = next;
      this.decorate();
    }
  }

  private decorate(): void {
    const start = this.region.startLine;
    const added = linesWithBreaks(this.shown).length;
    const replaced = Math.max(1, this.region.lineCount);
    for (const editor of this.editors()) {
      editor.setDecorations(addedLines, added > 0 ? [new vscode.Range(start, 0, start + added - 1, 0)] : []);
      editor.setDecorations(replacedLines, this.region.selected === "" ? [] : [new vscode.Range(start + added, 0, start + added + replaced - 1, 0)]);
      const note = { range: new vscode.Range(start + added, Number.MAX_SAFE_INTEGER, start + added, Number.MAX_SAFE_INTEGER), renderOptions: { after: { contentText: vscode.l10n.t("Relay Chat is writing the change… (Escape cancels)") } } };
      editor.setDecorations(progressNote, [note]);
    }
  }

  private editors(): vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((editor) => editor.document === this.document);
  }
}
