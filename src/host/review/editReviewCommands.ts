import * as vscode from "vscode";
import type { EditReview } from "./editReview";
import { KEEP_CHANGE_COMMAND, KEEP_FILE_COMMAND, SHOW_REVIEW_COMMAND, UNDO_CHANGE_COMMAND, UNDO_FILE_COMMAND } from "./editReview";

// The commands of the edit review: Keep and Undo of one change (its CodeLens) or a whole file (the editor
// title, from a file's URI or the active editor), and the list of files in review (the status bar, the panel).

/** The commands behind the CodeLenses, the editor title actions and the status bar entry. */
export function registerEditReviewCommands(review: EditReview): vscode.Disposable {
  const activeOr = (uri: unknown): vscode.Uri | undefined => (uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri);
  return vscode.Disposable.from(
    vscode.commands.registerCommand(KEEP_CHANGE_COMMAND, (uri: string, index: number, generation: number) => review.keepChange(vscode.Uri.parse(uri, true), index, generation)),
    vscode.commands.registerCommand(UNDO_CHANGE_COMMAND, (uri: string, index: number, generation: number) => review.undoChange(vscode.Uri.parse(uri, true), index, generation)),
    vscode.commands.registerCommand(KEEP_FILE_COMMAND, async (uri: unknown) => {
      const target = activeOr(uri);
      if (target) await review.keepFile(target);
    }),
    vscode.commands.registerCommand(UNDO_FILE_COMMAND, async (uri: unknown) => {
      const target = activeOr(uri);
      if (target) await review.undoFile(target);
    }),
    vscode.commands.registerCommand(SHOW_REVIEW_COMMAND, () => review.showFiles()),
  );
}
