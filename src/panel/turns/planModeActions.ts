import * as l10n from "@vscode/l10n";
import { findTurn } from "../../chat/conversation";
import { editedTasks, tasksOf } from "../../chat/planState";
import type { TaskEdit } from "../../chat/planState";
import type { ChatMode } from "../../tools/planMode";
import type { SessionRunner } from "./sessionRunner";

// The Plan / Act switch, "Act on this plan" and the person's ticks and removals in the task list, on the
// conversation on screen. What the mode does to the tools and the instructions is decided elsewhere
// (src/tools/planMode.ts, src/instructions/planInstructions.ts); this only changes and saves the state.

export interface PlanModeActionsOptions {
  runner: SessionRunner;
  /** The turns (TurnStarter): "Act on this plan" sends its prompt as the person's message. */
  turns: { send(text: string): Promise<void> };
  changed: () => void;
}

export class PlanModeActions {
  constructor(private readonly options: PlanModeActionsOptions) {}

  get mode(): ChatMode {
    return this.options.runner.planInputs().mode;
  }

  /**
   * Plan or Act for the next message of the conversation on screen (a new chat's when none is), saved with
   * the conversation. The public entry point: the composer's switch and the `/plan` command both call it.
   */
  async setMode(mode: ChatMode): Promise<void> {
    await this.options.runner.setMode(mode);
    this.options.changed();
  }

  /** Switches to Act and sends a short message asking the model to carry out the plan the turn proposed. */
  async actOnPlan(turnId: string): Promise<void> {
    const { runner, turns } = this.options;
    const conversation = runner.conversation;
    const turn = conversation ? findTurn(conversation, turnId) : undefined;
    // Only the plan on screen at the end of the branch: the message goes after it, so the model reads it last.
    if (!conversation || !turn || turn.mode !== "plan" || turn.outcome.kind !== "completed" || conversation.activeTurnId !== turnId || runner.busy) return;
    await this.setMode("act");
    await turns.send(actOnPlanPrompt());
  }

  /** The person ticked or removed an item; the next request's instructions carry the list as it is now. */
  async editTask(edit: TaskEdit): Promise<void> {
    const session = this.options.runner.session;
    if (!session) return;
    const tasks = editedTasks(tasksOf(session.conversation), edit);
    if (tasks === null) return;
    await session.changes.setTasks(tasks);
    this.options.runner.applySettings();
    this.options.changed();
  }
}

/** The message "Act on this plan" sends: the person's words, so in their language. */
export function actOnPlanPrompt(): string {
  return l10n.t("Carry out the plan above.");
}
