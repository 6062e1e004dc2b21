import { findTurn } from "../../chat/conversation";
import type { CheckpointId } from "../../tools/checkpointStore";
import type { EditorActions } from "../editor/editorActions";
import type { TurnChangesActions } from "../panelServices";
import type { SessionRunner } from "./sessionRunner";

// What the person does with the files a turn changed: review or restore them from the turn's "N files
// changed" line, and Apply to file on a code block of the turn's answer, taken into that turn's checkpoints.

export interface TurnFileActionsOptions {
  runner: SessionRunner;
  editorActions: EditorActions;
  /** Review and restore of a turn's file changes; absent where checkpoints are not built. */
  turnChanges?: TurnChangesActions;
  /** The turn's card changed (its files changed line). */
  turnChanged: (turnId: string) => void;
}

export class TurnFileActions {
  constructor(private readonly options: TurnFileActionsOptions) {}

  /** Review, restore or undo the restore of the files a turn's tools changed (the turn's card shows "N files changed"). */
  async turnChanges(turnId: string, action: "review" | "restore" | "undoRestore"): Promise<void> {
    const { runner } = this.options;
    const conversation = runner.conversation;
    const checkpoint = conversation ? findTurn(conversation, turnId)?.checkpoint : undefined;
    const actions = this.options.turnChanges;
    if (!checkpoint || !actions) return;
    if (action === "review") return actions.review(checkpoint);
    // The turn itself shows that its files are restored and offers Undo restore (a notification goes away).
    let restoredFrom: CheckpointId | null | undefined;
    if (action === "restore") restoredFrom = (await actions.restore(checkpoint, conversation?.id ?? null)) ?? undefined;
    else if (checkpoint.restoredFrom && (await actions.undoRestore(checkpoint, conversation?.id ?? null))) restoredFrom = null;
    if (restoredFrom === undefined) return;
    if (runner.session) await runner.session.changes.recordRestore(turnId, restoredFrom);
    this.options.turnChanged(turnId);
  }

  /** A review of the model's edits settled (Keep, Undo): each turn's "N files changed" says what is current. */
  async recount(): Promise<void> {
    const session = this.options.runner.session;
    if (!session || this.options.runner.busy) return;
    for (const turnId of await session.changes.recountChangedFiles()) this.options.turnChanged(turnId);
  }

  /**
   * Apply to file on a code block of a turn's answer: the change is taken into that turn's checkpoints (one
   * before, unless the turn has one, and one after), so the turn's Review and Restore cover it.
   */
  async applyCode(turnId: string, code: string, fileHint: string): Promise<void> {
    const { runner, editorActions } = this.options;
    const apply = () => editorActions.applyCode(code, fileHint);
    const session = runner.session;
    const conversation = runner.conversation;
    const turn = conversation && turnId ? findTurn(conversation, turnId) : undefined;
    if (!session || !turn || runner.busy) return apply();
    await session.changes.changeFilesForTurn(turnId, apply);
    this.options.turnChanged(turnId);
  }
}
