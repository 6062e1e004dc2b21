import type { CheckpointId } from "../tools/checkpointStore";
import type { ChatMode } from "../tools/planMode";
import type { TaskItem } from "../tools/updateTasksTool";
import type { Conversation, Turn } from "./conversation";
import { activePath, newestLeafFrom, requireTurn } from "./conversation";
import { modeOf } from "./planState";
import type { ChatTools } from "./toolRound";
import { checkpointAtTurnEnd, checkpointBeforeChange, recountTurnChanges } from "./turnCheckpoint";

// What a conversation keeps beside its turns, changed by the person between turns: the mode and task list,
// the branch on screen, the rules files switched off, a command's note, a restore, an incomplete turn sent
// after all, and files changed on a finished turn's behalf. Each is saved with the session's save (only what
// changed is appended), and those that must not run beside a turn check that none runs. The turn loop itself
// is in chatSession.ts.

/** What the changes need of the session that owns the conversation. */
export interface ConversationChangesHost {
  readonly conversation: Conversation;
  readonly tools: ChatTools | undefined;
  busy(): boolean;
  /** Throws when a turn is running. */
  assertIdle(): void;
  /** Saves the conversation's fields and `turn` (none: only the fields); never throws. */
  save(turn: Turn | null): Promise<void>;
  reportCheckpointProblem(problem: string): void;
}

export class ConversationChanges {
  constructor(private readonly host: ConversationChangesHost) {}

  /** Plan or Act for the next message; a turn under way keeps the mode it started in. Saved with the conversation. */
  async setMode(mode: ChatMode): Promise<void> {
    const conversation = this.host.conversation;
    if (modeOf(conversation) === mode) return;
    conversation.mode = mode;
    await this.host.save(null);
  }

  /** The person's change to the task list (ticked or removed an item); the next request carries it. */
  async setTasks(tasks: readonly TaskItem[]): Promise<void> {
    this.host.conversation.tasks = [...tasks];
    await this.host.save(null);
  }

  /** Puts the branch through `turnId` on screen (its newest continuation), and saves that choice. */
  async showBranch(turnId: string): Promise<void> {
    this.host.assertIdle();
    const conversation = this.host.conversation;
    conversation.activeTurnId = newestLeafFrom(conversation, turnId);
    await this.host.save(null);
  }

  /**
   * Changes files on a finished turn's behalf (Apply to file on its answer) between two checkpoints of the
   * turn, so its "N files changed", Review and Restore include the change; saved with the turn.
   */
  async changeFilesForTurn(turnId: string, change: () => Promise<void>): Promise<void> {
    this.host.assertIdle();
    const turn = requireTurn(this.host.conversation, turnId);
    const report = (problem: string) => this.host.reportCheckpointProblem(problem);
    await checkpointBeforeChange(turn, this.host.tools, report);
    try {
      await change();
    } finally {
      await checkpointAtTurnEnd(turn, this.host.tools, report);
      await this.host.save(turn);
    }
  }

  /** After a review of the model's edits settled: the turns whose "N files changed" changed, saved with the new count. */
  async recountChangedFiles(): Promise<string[]> {
    if (this.host.busy()) return [];
    const recounted: string[] = [];
    for (const turn of activePath(this.host.conversation)) {
      if (!(await recountTurnChanges(turn, this.host.tools))) continue;
      await this.host.save(turn);
      recounted.push(turn.id);
    }
    return recounted;
  }

  /** Records that the turn's files were restored (with the checkpoint Undo restore goes back to), or that the restore was undone (null). */
  async recordRestore(turnId: string, restoredFrom: CheckpointId | null): Promise<void> {
    const turn = requireTurn(this.host.conversation, turnId);
    if (!turn.checkpoint) return;
    if (restoredFrom) turn.checkpoint.restoredFrom = restoredFrom;
    else delete turn.checkpoint.restoredFrom;
    await this.host.save(turn);
  }

  /**
   * Switches project rules files off (or back on) for this conversation; saved with it once it has a turn. An
   * empty list is kept rather than removed, so the journal records that the files were switched back on.
   */
  async setRulesOff(ids: readonly string[]): Promise<void> {
    const conversation = this.host.conversation;
    conversation.rulesOff = [...ids];
    if (conversation.turns.length > 0) await this.host.save(null);
  }

  /** Records what a slash command did with the turn's answer (/commit: where the message went); the turn shows it. */
  async recordCommandNote(turnId: string, note: string): Promise<void> {
    const turn = requireTurn(this.host.conversation, turnId);
    turn.commandNote = note;
    await this.host.save(turn);
  }

  /**
   * Sends an `incomplete` turn with later messages after all (the person's choice): its message and the partial
   * answer, as plain messages. Saved with the conversation, so it stays included.
   */
  async includeIncompleteTurn(turnId: string): Promise<void> {
    this.host.assertIdle();
    const turn = requireTurn(this.host.conversation, turnId);
    if (turn.outcome.kind !== "incomplete" || turn.includeIncomplete) return;
    turn.includeIncomplete = true;
    await this.host.save(turn);
  }
}
