import * as path from "node:path";
import * as vscode from "vscode";
import type { TurnCheckpoint } from "../../chat/conversation";
import type { ReviewNotes } from "../../chat/reviewNote";
import type { TurnChangesActions } from "../../panel/panelServices";
import type { CheckpointId, FileChange } from "../../tools/checkpointStore";
import type { WorkspaceCheckpointing } from "./checkpointSetup";

// Review and Restore for a turn that changed files: the list of changes since the turn's checkpoint, each
// opening VS Code's diff editor (the checkpoint side served from the shadow repository), and a restore that
// shows what it will change, asks once, and can itself be undone. What a restore did is told to the model
// with the next message (src/chat/reviewNote.ts).

const scheme = "relay-chat-checkpoint";

/**
 * The largest file the review shows as it was: the diff editor gets the whole text as one string, and a
 * file of hundreds of megabytes would hold the extension host's memory (Restore still puts back any size).
 */
const maxReviewBytes = 64 * 1024 * 1024;

export function registerCheckpointReview(checkpointing: WorkspaceCheckpointing, notes: ReviewNotes | null = null): { actions: TurnChangesActions; disposable: vscode.Disposable } {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const { checkpoint, folder, file } = JSON.parse(uri.query) as { checkpoint: CheckpointId; folder: string; file: string };
      const checkpoints = checkpointing.current();
      // A file the checkpoint did not have is shown empty: the turn added it.
      const size = await checkpoints.fileSizeAt(checkpoint, folder, file);
      if (size === null) return "";
      if (size > maxReviewBytes) {
        return vscode.l10n.t("This file was {0} MB, too large to show here. Restore puts it back as it was.", Math.round(size / 2 ** 20));
      }
      return (await checkpoints.fileAt(checkpoint, folder, file))?.toString("utf8") ?? "";
    },
  };
  const disposable = vscode.workspace.registerTextDocumentContentProvider(scheme, provider);
  return {
    disposable,
    actions: {
      review: (checkpoint) => review(checkpointing, checkpoint),
      // What a restore did is told to the model of the conversation whose turn it undoes, and only to it.
      restore: (checkpoint, conversationId) => restore(checkpointing, checkpoint.before, conversationId === null ? null : notes, conversationId ?? ""),
      undoRestore: (checkpoint, conversationId) => undoRestore(checkpointing, checkpoint.restoredFrom, conversationId === null ? null : notes, conversationId ?? ""),
    },
  };
}

async function review(checkpointing: WorkspaceCheckpointing, checkpoint: TurnCheckpoint): Promise<void> {
  const checkpoints = checkpointing.current();
  const now = await checkpoints.take();
  const changes = await checkpoints.diff(checkpoint.before, now);
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("The files are as they were before this turn; nothing to review."));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    changes.map((change) => ({ label: change.path, description: changeLabel(change.kind), change })),
    { title: vscode.l10n.t("Files changed since before this turn ({0})", changes.length), placeHolder: vscode.l10n.t("Pick a file to see its changes") },
  );
  if (!picked) return;
  const { change } = picked;
  const before = checkpointUri(checkpoint.before, change);
  const current = change.kind === "deleted" ? checkpointUri(now, change) : vscode.Uri.file(path.join(change.folder, change.path));
  await vscode.commands.executeCommand("vscode.diff", before, current, vscode.l10n.t("{0} (before this turn ↔ now)", change.path));
}

/** Returns the checkpoint taken just before the restore (what Undo restore on the turn puts back), or null when nothing was restored. */
async function restore(checkpointing: WorkspaceCheckpointing, target: CheckpointId, notes: ReviewNotes | null, conversationId: string): Promise<CheckpointId | null> {
  const checkpoints = checkpointing.current();
  const planned = await checkpoints.diff(await checkpoints.take(), target);
  if (planned.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("The files are already as they were before this turn; nothing to restore."));
    return null;
  }
  const listed = planned.slice(0, 15).map((change) => `${restoreLabel(change.kind)}: ${change.path}`);
  if (planned.length > listed.length) listed.push(vscode.l10n.t("… and {0} more", planned.length - listed.length));
  const restoreButton = vscode.l10n.t("Restore");
  const answer = await vscode.window.showWarningMessage(
    planned.length === 1 ? vscode.l10n.t("Restore 1 file to how it was before this turn?") : vscode.l10n.t("Restore {0} files to how they were before this turn?", planned.length),
    { modal: true, detail: `${listed.join("\n")}\n\n${vscode.l10n.t("Files that .gitignore or files.exclude leave out, and .git folders, are left as they are. You can undo the restore.")}` },
    restoreButton,
  );
  if (answer !== restoreButton) return null;
  const { before, changes } = await checkpoints.restore(target);
  await revertUnsaved(changes);
  for (const change of changes) notes?.settle(conversationId, { path: displayPath(change), result: "restored" });
  // Undo restore is on the turn itself (it stays; a notification goes away).
  void vscode.window.showInformationMessage(
    changes.length === 1 ? vscode.l10n.t("Restored 1 file to how it was before this turn.") : vscode.l10n.t("Restored {0} files to how they were before this turn.", changes.length),
  );
  return before;
}

async function undoRestore(checkpointing: WorkspaceCheckpointing, before: CheckpointId | undefined, notes: ReviewNotes | null, conversationId: string): Promise<boolean> {
  if (!before) return false;
  const undone = await checkpointing.current().restore(before);
  await revertUnsaved(undone.changes);
  for (const change of undone.changes) notes?.settle(conversationId, { path: displayPath(change), result: "restore_undone" });
  void vscode.window.showInformationMessage(
    undone.changes.length === 1 ? vscode.l10n.t("Undid the restore: 1 file is back as it was.") : vscode.l10n.t("Undid the restore: {0} files are back as they were.", undone.changes.length),
  );
  return true;
}

/**
 * A restored file open with unsaved changes would still show the turn's text: revert it to what is now on
 * disk. The unsaved text was part of the checkpoint taken just before the restore, so Undo restore brings it back.
 */
async function revertUnsaved(changes: readonly FileChange[]): Promise<void> {
  const restored = new Set(changes.map((change) => path.join(change.folder, change.path)));
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== "file" || !restored.has(document.uri.fsPath)) continue;
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true });
    await vscode.commands.executeCommand("workbench.action.files.revert");
  }
}

/** The file as the person (and the model's tools) name it: relative to the workspace (with the folder's name when there are several). */
function displayPath(change: FileChange): string {
  return vscode.workspace.asRelativePath(path.join(change.folder, change.path));
}

function checkpointUri(checkpoint: CheckpointId, change: FileChange): vscode.Uri {
  const query = JSON.stringify({ checkpoint, folder: change.folder, file: change.path });
  return vscode.Uri.from({ scheme, path: `/${change.path}`, query });
}

function changeLabel(kind: FileChange["kind"]): string {
  if (kind === "added") return vscode.l10n.t("added");
  return kind === "deleted" ? vscode.l10n.t("deleted") : vscode.l10n.t("modified");
}

/** What a restore does to the file: one the turn added is deleted, one it deleted comes back. */
function restoreLabel(kind: FileChange["kind"]): string {
  if (kind === "added") return vscode.l10n.t("brought back");
  return kind === "deleted" ? vscode.l10n.t("deleted") : vscode.l10n.t("put back as before");
}
