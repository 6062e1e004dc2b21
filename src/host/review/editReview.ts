import * as vscode from "vscode";
import type { LiveReviewOutcome, ReviewNotes } from "../../chat/reviewNote";
import type { EditReviewer } from "../../tools/builtin/proposeEditTool";
import type { TextHunk } from "../../tools/textHunks";
import { applyHunks, computeHunks, hunkStartLine, linesWithBreaks } from "../../tools/textHunks";

// Proposed edits (propose_edit, Apply to file) reviewed in the editor, as VS Code's own chat does: the change
// goes into the file's buffer at once, unsaved, each changed hunk decorated with Keep / Undo above it, and the
// file is saved when its last hunk is decided. The buffer rather than a side copy, because the person then
// reads, runs and type-checks the change where it will live, and Undo is an edit in the buffer's own history.
// Nothing reaches the disk before every hunk is decided (only an empty new file is created, so the buffer has
// a place; Undo removes it again), unless files.autoSave saves the buffer: then Undo is saved the same way.
// Typing in a file under review, or saving it by hand, ends its review: the text is the person's.
// This file is longer than 400 lines because every part of it (decisions, lenses, decorations, the hold of an edit
// in place refining a change) reads and writes the same per-file review state, which is better kept in one place.
// How the review of a model's proposal ended is kept until the conversation's next message tells the model
// (src/chat/reviewNote.ts).

type Decision = "pending" | "kept" | "undone";

interface FileReview {
  readonly document: vscode.TextDocument;
  /** The text before the first proposed change. */
  readonly original: string;
  /** The file did not exist: undoing every hunk deletes it again. */
  readonly createsFile: boolean;
  /** Unsaved changes of the person's own were in the buffer before; undoing everything leaves them unsaved. */
  readonly wasDirty: boolean;
  hunks: TextHunk[];
  decisions: Decision[];
  /** Counts proposals to the file, so a Keep/Undo from an outdated CodeLens is ignored. */
  generation: number;
  /** The model proposed it (propose_edit) rather than the person (Apply to file). */
  fromModel: boolean;
  /** The conversations whose model proposed changes to the file: they alone are told how the review ended. */
  proposedBy: readonly string[];
}

export const KEEP_CHANGE_COMMAND = "relayChat.review.keepChange";
export const UNDO_CHANGE_COMMAND = "relayChat.review.undoChange";
export const KEEP_FILE_COMMAND = "relayChat.review.keepFile";
export const UNDO_FILE_COMMAND = "relayChat.review.undoFile";
export const SHOW_REVIEW_COMMAND = "relayChat.review.showFiles";
const IN_REVIEW_CONTEXT = "relayChat.activeEditorInReview";
/** After the editor's own wait before asking for lenses (250 ms or more, longer on a busy machine). */
const LENS_RENEWAL_DELAYS_MS = [500, 1500, 4000];

export class EditReview implements EditReviewer, vscode.CodeLensProvider, vscode.Disposable {
  private readonly reviews = new Map<string, FileReview>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly removed = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor("editorGutter.deletedBackground"), margin: "0 0 0 2em", fontStyle: "italic" },
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly status = vscode.window.createStatusBarItem("relayChat.review", vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];
  /** Our own edits and saves, which must not count as the person's. */
  private applying = 0;
  private lensRenewals: NodeJS.Timeout[] = [];
  /** Files whose pending change an edit in place is refining: its streamed lines are not the person's typing. */
  private readonly held = new Set<string>();

  /** Fires when what is in review changes. */
  readonly onDidChange = this.changed.event;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  /** `notes`: where the end of a review of the model's proposal is kept until the model is told. */
  constructor(private readonly notes: ReviewNotes | null = null) {
    notes?.setLive(() => this.inReviewFromModel());
    this.status.name = vscode.l10n.t("Relay Chat: files to review");
    this.status.command = SHOW_REVIEW_COMMAND;
    this.subscriptions = [
      vscode.languages.registerCodeLensProvider({ scheme: "file" }, this),
      vscode.workspace.onDidChangeTextDocument((event) => this.onEdited(event.document)),
      vscode.workspace.onWillSaveTextDocument((event) => this.onWillSave(event)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        this.updateContext();
        this.renewLensesOf(editor);
      }),
    ];
  }

  /** Puts `proposed` into the file's buffer for review; a file already in review keeps its first original. `original`: an edit in place wrote `proposed` itself (one undo step with its stream), over this text. */
  async propose(uri: vscode.Uri, proposed: string, options: { createsFile: boolean; fromModel?: boolean; conversationId?: string; wasDirty?: boolean; original?: string }): Promise<{ changes: number }> {
    let existing = this.reviews.get(uri.toString());
    if (options.createsFile) {
      const create = new vscode.WorkspaceEdit();
      create.createFile(uri, { ignoreIfExists: true });
      if (!(await this.apply(create))) throw new Error(`VS Code did not create ${uri.fsPath}.`);
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const current = document.getText();
    // An edit in place streamed into the buffer first, so it says whether the file was dirty before that.
    const wasDirty = !options.createsFile && (options.wasDirty ?? document.isDirty);
    const replaced = options.original ?? current;
    if (existing && replaced !== this.expectedText(existing)) existing = undefined;
    const original = existing?.original ?? replaced;
    const edit = new vscode.WorkspaceEdit();
    for (const hunk of computeHunks(current, proposed)) edit.replace(uri, this.hunkRange(document, current, hunk.originalStart, hunk.originalLines), hunk.proposedLines.join(""));
    if (edit.size > 0 && !(await this.apply(edit))) throw new Error(`VS Code did not apply the edit to ${uri.fsPath}.`);

    const hunks = computeHunks(original, proposed);
    if (hunks.length === 0) {
      this.forget(uri);
    } else {
      this.reviews.set(uri.toString(), {
        document,
        original,
        createsFile: existing?.createsFile ?? options.createsFile,
        wasDirty: existing?.wasDirty ?? wasDirty,
        hunks,
        decisions: hunks.map(() => "pending"),
        generation: (existing?.generation ?? 0) + 1,
        fromModel: (existing?.fromModel ?? false) || options.fromModel === true,
        proposedBy: [...new Set([...(existing?.proposedBy ?? []), ...(options.fromModel === true && options.conversationId !== undefined ? [options.conversationId] : [])])],
      });
    }
    this.refresh();
    await vscode.window.showTextDocument(document, { preview: false });
    return { changes: hunks.length };
  }

  /** While an edit in place refines the file's pending change, its stream is not the person's typing and Keep/Undo wait; released, a review whose text the person changed meanwhile ends. */
  hold(uri: vscode.Uri): vscode.Disposable {
    this.held.add(uri.toString());
    this.refresh();
    return new vscode.Disposable(() => {
      this.held.delete(uri.toString());
      const review = this.reviews.get(uri.toString());
      if (review) this.onEdited(review.document);
      this.refresh();
    });
  }

  /** The files with changes still to keep or undo. */
  filesInReview(): vscode.Uri[] {
    return [...this.reviews.values()].map((review) => review.document.uri);
  }

  /** How many of the file's hunks are still undecided (0 when it is not in review). */
  pendingChanges(uri: vscode.Uri): number {
    return this.reviews.get(uri.toString())?.decisions.filter((decision) => decision === "pending").length ?? 0;
  }

  async keepChange(uri: vscode.Uri, index: number, generation?: number): Promise<void> {
    const review = this.pendingReview(uri, index, generation);
    if (!review) return;
    review.decisions[index] = "kept";
    await this.afterDecision(review);
  }

  async undoChange(uri: vscode.Uri, index: number, generation?: number): Promise<void> {
    const review = this.pendingReview(uri, index, generation);
    if (!review) return;
    await this.restoreHunks(review, [index]);
    await this.afterDecision(review);
  }

  async keepFile(uri: vscode.Uri): Promise<void> {
    const review = this.unheld(uri);
    if (!review) return;
    review.decisions = review.decisions.map((decision) => (decision === "pending" ? "kept" : decision));
    await this.afterDecision(review);
  }

  async undoFile(uri: vscode.Uri): Promise<void> {
    const review = this.unheld(uri);
    if (!review) return;
    await this.restoreHunks(review, review.decisions.flatMap((decision, index) => (decision === "pending" ? [index] : [])));
    await this.afterDecision(review);
  }

  /** The list of files in review, to open one, or keep or undo all of them. */
  async showFiles(): Promise<void> {
    type Choice = vscode.QuickPickItem & { run: () => Thenable<unknown> };
    const files = [...this.reviews.values()];
    if (files.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("No proposed edits are waiting for review."));
      return;
    }
    const choices: Choice[] = files.map((review) => ({
      label: `$(file) ${vscode.workspace.asRelativePath(review.document.uri)}`,
      description: changesToReview(this.pendingChanges(review.document.uri)),
      run: () => vscode.window.showTextDocument(review.document, { preview: false }),
    }));
    choices.push(
      { label: "", kind: vscode.QuickPickItemKind.Separator, run: async () => undefined },
      { label: `$(check-all) ${vscode.l10n.t("Keep all changes in every file")}`, run: () => this.decideAll("keep") },
      { label: `$(discard) ${vscode.l10n.t("Undo all changes in every file")}`, run: () => this.decideAll("undo") },
    );
    const picked = await vscode.window.showQuickPick(choices, { title: filesToReview(files.length) });
    await picked?.run();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.unheld(document.uri);
    if (!review) return [];
    const lenses: vscode.CodeLens[] = [];
    const applied = this.appliedIn(review);
    review.hunks.forEach((hunk, index) => {
      if (review.decisions[index] !== "pending") return;
      const line = Math.min(hunkStartLine(review.hunks, index, applied), Math.max(0, document.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      const target = [document.uri.toString(), index, review.generation];
      lenses.push(
        new vscode.CodeLens(range, { title: `$(check) ${vscode.l10n.t("Keep")}`, command: KEEP_CHANGE_COMMAND, arguments: target, tooltip: vscode.l10n.t("Keep this change") }),
        new vscode.CodeLens(range, { title: `$(discard) ${vscode.l10n.t("Undo")}`, command: UNDO_CHANGE_COMMAND, arguments: target, tooltip: vscode.l10n.t("Put back the lines as they were") }),
      );
    });
    return lenses;
  }

  dispose(): void {
    for (const timer of this.lensRenewals) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.added.dispose();
    this.removed.dispose();
    this.status.dispose();
    this.changed.dispose();
    this.lensesChanged.dispose();
    this.reviews.clear();
  }

  private async decideAll(decision: "keep" | "undo"): Promise<void> {
    for (const uri of this.filesInReview()) await (decision === "keep" ? this.keepFile(uri) : this.undoFile(uri));
  }

  private pendingReview(uri: vscode.Uri, index: number, generation: number | undefined): FileReview | undefined {
    const review = this.unheld(uri);
    if (!review || (generation !== undefined && generation !== review.generation) || review.decisions[index] !== "pending") return undefined;
    return review;
  }

  /** Puts the original lines of the given hunks back in the buffer, last first so earlier positions hold. */
  private async restoreHunks(review: FileReview, indexes: readonly number[]): Promise<void> {
    const current = review.document.getText();
    const applied = this.appliedIn(review);
    const edit = new vscode.WorkspaceEdit();
    for (const index of [...indexes].sort((a, b) => b - a)) {
      const hunk = review.hunks[index]!;
      edit.replace(review.document.uri, this.hunkRange(review.document, current, hunkStartLine(review.hunks, index, applied), hunk.proposedLines), hunk.originalLines.join(""));
    }
    for (const index of indexes) review.decisions[index] = "undone";
    if (!(await this.apply(edit))) throw new Error(`VS Code did not undo the change in ${review.document.uri.fsPath}.`);
  }

  /** Once nothing is pending, the kept changes are saved, or the file is put back as it was. */
  private async afterDecision(review: FileReview): Promise<void> {
    if (review.decisions.includes("pending")) {
      this.refresh();
      return;
    }
    this.forget(review.document.uri);
    this.settle(review, null);
    const keptAny = review.decisions.includes("kept");
    this.applying++;
    try {
      if (!keptAny && review.createsFile) {
        const remove = new vscode.WorkspaceEdit();
        remove.deleteFile(review.document.uri, { ignoreIfNotExists: true });
        await vscode.workspace.applyEdit(remove);
      } else if (keptAny || !review.wasDirty) {
        // With nothing kept and no unsaved changes of the person's, saving writes what is on disk already and
        // leaves the buffer clean, as it was.
        await review.document.save();
      }
    } finally {
      this.applying--;
    }
  }

  private onEdited(document: vscode.TextDocument): void {
    const review = this.reviews.get(document.uri.toString());
    if (!review || this.applying > 0 || this.held.has(document.uri.toString()) || document.getText() === this.expectedText(review)) return;
    this.forget(document.uri);
    this.settle(review, "changed_by_person");
  }

  /**
   * Saving a file in review by hand (Ctrl+S) keeps what is in it. An automatic save (files.autoSave) writes the
   * buffer as usual but decides nothing: the review goes on, and Undo puts the lines back and is saved in turn.
   */
  private onWillSave(event: vscode.TextDocumentWillSaveEvent): void {
    const review = this.reviews.get(event.document.uri.toString());
    if (!review || this.applying > 0 || event.reason !== vscode.TextDocumentSaveReason.Manual) return;
    this.forget(event.document.uri);
    // What is still undecided is saved as it stands: kept.
    review.decisions = review.decisions.map((decision) => (decision === "pending" ? "kept" : decision));
    this.settle(review, null);
  }

  /** Keeps how the review of a model's proposal ended (`result`, or what its decisions add up to) for the model. */
  private settle(review: FileReview, result: "changed_by_person" | null): void {
    if (!review.fromModel || !this.notes) return;
    const path = this.displayPath(review);
    const total = review.decisions.length;
    const kept = review.decisions.filter((decision) => decision === "kept").length;
    const outcome = result !== null ? { path, result } : kept === total ? { path, result: "kept" as const } : kept === 0 ? { path, result: "undone" as const } : { path, result: "partly_kept" as const, kept, total };
    for (const conversationId of review.proposedBy) this.notes.settle(conversationId, outcome);
  }

  private inReviewFromModel(): LiveReviewOutcome[] {
    return [...this.reviews.values()].filter((review) => review.fromModel).map((review) => ({ path: this.displayPath(review), result: "in_review", conversationIds: review.proposedBy }));
  }

  private displayPath(review: FileReview): string {
    return vscode.workspace.asRelativePath(review.document.uri);
  }

  /** The file's review, unless an edit in place holds it. */
  private unheld(uri: vscode.Uri): FileReview | undefined {
    return this.held.has(uri.toString()) ? undefined : this.reviews.get(uri.toString());
  }

  private forget(uri: vscode.Uri): void {
    if (this.reviews.delete(uri.toString())) this.refresh();
  }

  private async apply(edit: vscode.WorkspaceEdit): Promise<boolean> {
    this.applying++;
    try {
      return await vscode.workspace.applyEdit(edit);
    } finally {
      this.applying--;
    }
  }

  private appliedIn(review: FileReview): (index: number) => boolean {
    return (index) => review.decisions[index] !== "undone";
  }

  private expectedText(review: FileReview): string {
    return applyHunks(review.original, review.hunks, this.appliedIn(review));
  }

  /** The range of `lines` starting at line `start` of `text`, the document's current text. */
  private hunkRange(document: vscode.TextDocument, text: string, start: number, lines: readonly string[]): vscode.Range {
    const before = linesWithBreaks(text).slice(0, start).join("").length;
    const length = lines.join("").length;
    return new vscode.Range(document.positionAt(before), document.positionAt(before + length));
  }

  private refresh(): void {
    this.decorate();
    this.updateContext();
    const count = this.reviews.size;
    this.status.text = `$(diff) ${filesToReview(count)}`;
    this.status.tooltip = vscode.l10n.t("Keep or undo the proposed edits");
    if (count > 0) this.status.show();
    else this.status.hide();
    this.changed.fire();
    this.lensesChanged.fire();
  }

  /**
   * An editor shown again first draws the lenses it remembers for the file, with their titles but without their
   * commands (VS Code's CodeLens cache), and asks for the real ones a moment later, unless the editor loses the
   * focus before (the person went back to the chat): then Keep and Undo did nothing until the editor was clicked.
   * Saying the lenses changed, a little after the switch, makes the editor ask again even without the focus.
   */
  private renewLensesOf(editor: vscode.TextEditor | undefined): void {
    for (const timer of this.lensRenewals) clearTimeout(timer);
    this.lensRenewals = [];
    if (!editor || !this.reviews.has(editor.document.uri.toString())) return;
    this.lensRenewals = LENS_RENEWAL_DELAYS_MS.map((delay) => setTimeout(() => this.lensesChanged.fire(), delay));
  }

  private decorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const review = this.unheld(editor.document.uri);
      const added: vscode.Range[] = [];
      const removed: vscode.DecorationOptions[] = [];
      if (review) {
        const applied = this.appliedIn(review);
        review.hunks.forEach((hunk, index) => {
          if (review.decisions[index] !== "pending") return;
          const start = hunkStartLine(review.hunks, index, applied);
          if (hunk.proposedLines.length > 0) added.push(new vscode.Range(start, 0, start + hunk.proposedLines.length - 1, 0));
          if (hunk.originalLines.length === 0) return;
          const line = Math.min(Math.max(0, hunk.proposedLines.length > 0 ? start : start - 1), editor.document.lineCount - 1);
          const hover = new vscode.MarkdownString().appendText(vscode.l10n.t("Replaced lines:")).appendCodeblock(hunk.originalLines.join(""), editor.document.languageId);
          removed.push({
            range: new vscode.Range(line, Number.MAX_SAFE_INTEGER, line, Number.MAX_SAFE_INTEGER),
            hoverMessage: hover,
            renderOptions: { after: { contentText: hunk.originalLines.length === 1 ? vscode.l10n.t("−1 line removed") : vscode.l10n.t("−{0} lines removed", hunk.originalLines.length) } },
          });
        });
      }
      editor.setDecorations(this.added, added);
      editor.setDecorations(this.removed, removed);
    }
  }

  private updateContext(): void {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    void vscode.commands.executeCommand("setContext", IN_REVIEW_CONTEXT, active !== undefined && this.reviews.has(active));
  }
}

// Each count's words in both forms, through the l10n bundle (a translation may say both alike).
const filesToReview = (count: number): string => (count === 1 ? vscode.l10n.t("1 file to review") : vscode.l10n.t("{0} files to review", count));
const changesToReview = (count: number): string => (count === 1 ? vscode.l10n.t("1 change to review") : vscode.l10n.t("{0} changes to review", count));
