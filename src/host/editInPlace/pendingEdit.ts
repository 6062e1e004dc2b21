import * as vscode from "vscode";
import type { EditRegion } from "../../editInPlace/editRegion";
import { fittedReplacement } from "../../editInPlace/editRegion";
import { linesWithBreaks } from "../../tools/textHunks";

// The answer of an edit in place while it streams: its lines go into the buffer above the selected lines as they
// arrive, marked as added, and the selected lines below them are marked as the ones being replaced. Nothing else of
// the file is touched, and `remove` takes exactly the streamed lines out again, so a cancel or a failure leaves the
// text as it was. Once the answer is complete, `finish` writes the whole replacement in place of the streamed and
// the selected lines, and the caller hands the change to the edit review (Keep / Undo).
// One Ctrl+Z takes the whole edit back, not each streamed state: every edit goes through the editor's
// TextEditor.edit with no undo stop between them (the first has one before it, the last, `finish` or `remove`, one
// after), so VS Code keeps them as one step of the file's undo history. Streaming into the buffer rather than a
// side view keeps the lines where the person reads them; workspace.applyEdit, the only way without a visible
// editor (the person switched tabs while it streamed), makes each state an undo step of its own, so it is the
// fallback only.

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
  /** Whether an edit was made yet: the first one starts the undo step. */
  private started = false;
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
    await this.applyWanted(true);
  }

  /** Puts `text` (fitted to the file) in place of the streamed and the selected lines: the edit's last step. */
  async finish(text: string): Promise<void> {
    await this.applying;
    const start = new vscode.Position(this.region.startLine, 0);
    const selected = this.region.selected.replace(/\r\n/g, this.region.eol);
    await this.write(new vscode.Range(start, this.document.positionAt(this.document.offsetAt(start) + this.shown.length + selected.length)), text, true);
    this.shown = "";
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

  private async applyWanted(last = false): Promise<void> {
    while (this.shown !== this.wanted) {
      const next = this.wanted;
      const start = new vscode.Position(this.region.startLine, 0);
      await this.write(new vscode.Range(start, new vscode.Position(this.region.startLine + linesWithBreaks(this.shown).length, 0)), next, last && next === this.wanted);
      this.shown = next;
      this.decorate();
    }
  }

  /** One edit of the stream, in the same undo step as the ones before it; `last` closes the step. */
  private async write(range: vscode.Range, text: string, last: boolean): Promise<void> {
    const undoStops = { undoStopBefore: !this.started, undoStopAfter: last };
    this.started = true;
    this.ownEdits++;
    try {
      const editor = this.editors()[0];
      const done = editor ? await editor.edit((builder) => builder.replace(range, text), undoStops).then(undefined, () => null) : null;
      if (done === true) return;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(this.document.uri, range, text);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t("VS Code did not apply the edit to {0}.", this.document.uri.fsPath));
    } finally {
      this.ownEdits--;
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
