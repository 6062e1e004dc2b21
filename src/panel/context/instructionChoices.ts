import type { CommandPrompt } from "../../instructions/slashCommands";
import type { ChatMode } from "../../tools/planMode";
import type { TaskItem } from "../../tools/updateTasksTool";

// What the panel chooses for the next request's instructions, given to the assembly (instructionsAssembly.ts,
// src/host/instructions/panelInstructions.ts) and to the session (turns/sessionRunner.ts). A module of its own
// so both import these types without importing the controller's options, which import them back.

/** What shapes the next request's instructions besides the settings and the rules files on disk. */
export interface InstructionChoices {
  /** The tools offered with it. */
  toolNames: string[];
  /** Rules files switched off for the conversation (the Rules chip), as `folder/path`. */
  rulesOff: readonly string[];
  /** The conversation's mode and task list. */
  plan?: PlanInputs;
  /** The prompt of the slash command the message starts with. */
  command?: CommandPrompt | null;
}

/** What Plan mode and the task list add to the instructions of the next request. */
export interface PlanInputs {
  mode: ChatMode;
  tasks: readonly TaskItem[];
}
