import type { FunctionToolDefinition } from "../relay/types";
import type { ChatTools } from "./toolRound";
import type { Conversation, ToolCallRecord, Turn } from "./conversation";
import type { ChatMode } from "../tools/planMode";
import type { TaskItem } from "../tools/updateTasksTool";
import { UPDATE_TASKS_TOOL, readTaskList } from "../tools/updateTasksTool";

// A conversation's Plan/Act mode and its task list, read defensively (a hand-edited or newer file may hold
// anything there), and the changes the person makes to the list from the panel. No vscode here.

export function modeOf(conversation: Pick<Conversation, "mode"> | null | undefined): ChatMode {
  return conversation?.mode === "plan" ? "plan" : "act";
}

export function turnModeOf(turn: Pick<Turn, "mode">): ChatMode {
  return turn.mode === "plan" ? "plan" : "act";
}

export function tasksOf(conversation: Pick<Conversation, "tasks"> | null | undefined): TaskItem[] {
  return readTaskList(conversation?.tasks);
}

/** The tools of a turn in `mode`: the same tools, offered (and calls refused) as the mode allows. */
export function toolsInMode(tools: ChatTools, mode: ChatMode): ChatTools {
  if (mode === "act") return tools;
  return { ...tools, availability: () => ({ ...tools.availability(), mode }) };
}

/** The `tools` of a request sent in `mode`. */
export function requestToolsInMode(tools: ChatTools, mode: ChatMode): FunctionToolDefinition[] {
  const inMode = toolsInMode(tools, mode);
  return inMode.registry.requestTools(inMode.availability());
}

/** The list an update_tasks call set, once it ran; null for any other call (or one that did not run). */
export function tasksSetBy(record: Pick<ToolCallRecord, "name" | "arguments" | "outcome">): TaskItem[] | null {
  if (record.name !== UPDATE_TASKS_TOOL || record.outcome !== "ran") return null;
  try {
    return readTaskList((JSON.parse(record.arguments) as { items?: unknown }).items);
  } catch {
    return null;
  }
}

/** What the person did to one item in the panel: tick (done, or back to pending) or remove it. */
export type TaskEdit = { action: "toggle" | "remove"; index: number; text: string };

/**
 * The list after the person's edit; null when the item is not there any more as they saw it (the model
 * changed the list meanwhile): nothing changes then.
 */
export function editedTasks(tasks: readonly TaskItem[], edit: TaskEdit): TaskItem[] | null {
  const item = tasks[edit.index];
  if (item === undefined || item.text !== edit.text) return null;
  if (edit.action === "remove") return tasks.filter((_, index) => index !== edit.index);
  return tasks.map((each, index) => (index === edit.index ? { ...each, status: each.status === "done" ? "pending" : "done" } : each));
}
