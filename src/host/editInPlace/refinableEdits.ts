import * as vscode from "vscode";
import type { EditTurn } from "../../editInPlace/editFollowUp";
import type { EditRegion } from "../../editInPlace/editRegion";
import { linesWithBreaks } from "../../tools/textHunks";
import type { EditReview } from "../review/editReview";

// The changes Edit in place left pending in review, remembered so a follow-up instruction can refine one: the
// original lines it replaces and the conversation so far. A change can be refined while its file is still in
// review and the lines around it are as the first attempt left them; the pending replacement is read from the
// buffer, so hunks undone meanwhile are part of what the follow-up refines.

interface PendingChange {
  /** The original lines (and the text before and after them) of the first attempt. */
  readonly region: EditRegion;
  /** The requests so far; the last answer is replaced by the buffer's lines when refining. */
  readonly turns: readonly EditTurn[];
  /** The selection right after the change landed: running the command again at once refines it. */
  readonly landed: vscode.Selection | null;
}

/** A change to refine: the original region, the pending lines in the buffer now, and the conversation so far. */
export interface Refinable {
  readonly region: EditRegion;
  readonly pending: EditRegion;
  readonly turns: readonly EditTurn[];
}

export class RefinableEdits implements vscode.Disposable {
  private readonly changes = new Map<string, PendingChange>();
  private readonly watch: vscode.Disposable;

  constructor(private readonly review: EditReview) {
    // A file whose review ended (kept, undone, typed in) has nothing left to refine.
    this.watch = review.onDidChange(() => {
      const inReview = new Set(review.filesInReview().map((uri) => uri.toString()));
      for (const key of [...this.changes.keys()]) if (!inReview.has(key)) this.changes.delete(key);
    });
  }

  remember(document: vscode.TextDocument, region: EditRegion, turns: readonly EditTurn[]): void {
    const editor = vscode.window.visibleTextEditors.find((each) => each.document === document);
    this.changes.set(document.uri.toString(), { region, turns, landed: editor?.selection ?? null });
  }

  /** The pending change the selection is in (or that just landed there), when it can still be refined. */
  find(document: vscode.TextDocument, selection: vscode.Selection): Refinable | null {
    const change = this.changes.get(document.uri.toString());
    if (!change || this.review.pendingChanges(document.uri) === 0) return null;
    const { region } = change;
    const text = document.getText();
    const middle = text.length - region.before.length - region.after.length;
    if (middle < 0 || !text.startsWith(region.before) || !text.endsWith(region.after)) return null;
    const selected = text.slice(region.before.length, region.before.length + middle);
    const lineCount = linesWithBreaks(selected).length;
    const lastLine = region.startLine + Math.max(1, lineCount) - 1;
    const inside = selection.start.line >= region.startLine && selection.end.line <= lastLine + (selection.end.character === 0 ? 1 : 0);
    if (!inside && !(change.landed?.isEqual(selection) ?? false)) return null;
    const turns = change.turns.map((turn, index) => (index === change.turns.length - 1 ? { ...turn, answer: selected } : turn));
    return { region, pending: { ...region, selected, lineCount }, turns };
  }

  dispose(): void {
    this.watch.dispose();
    this.changes.clear();
  }
}
