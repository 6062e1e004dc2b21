// update_tasks: the model keeps a short task list for the work of the conversation. It changes nothing but
// the panel (the list pinned above the message box), so it runs without an approval card and is offered in
// Plan mode too. The tool itself only checks and echoes the list; the chat session keeps it in the
// conversation (src/chat/taskList.ts) once the call ran.
import type { JsonObject } from "../relay/types";
import { defineTool } from "./toolContract";
import type { Tool } from "./toolContract";

export const UPDATE_TASKS_TOOL = "update_tasks";
export const TASK_STATUSES = ["pending", "in_progress", "done"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskItem {
  text: string;
  status: TaskStatus;
}

/** A list longer than this is not a task list any more; the schema refuses it with a reason the model can act on. */
export const MAX_TASKS = 30;
export const MAX_TASK_TEXT_CHARS = 300;

const PARAMETERS: JsonObject = {
  type: "object",
  properties: {
    items: {
      type: "array",
      description: "The whole task list, in order (not only the changed items). An empty list clears it.",
      maxItems: MAX_TASKS,
      items: {
        type: "object",
        properties: {
          text: { type: "string", minLength: 1, maxLength: MAX_TASK_TEXT_CHARS, description: "What the task is, in a short line." },
          status: { type: "string", enum: [...TASK_STATUSES] },
        },
        required: ["text", "status"],
        additionalProperties: false,
      },
    },
  },
  required: ["items"],
  additionalProperties: false,
};

export function createUpdateTasksTool(): Tool {
  return defineTool<{ items: TaskItem[] }>({
    name: UPDATE_TASKS_TOOL,
    description:
      "Keep a short task list for this work, shown to the person above the message box. Send the whole list each time, each item with its status (pending, in_progress, done); mark at most one item in_progress. The person may tick or remove items; the current list is in your instructions.",
    parameters: PARAMETERS,
    risk: "read",
    panelOnly: true,
    run: async (args) => `Task list updated (${doneCount(args.items)}/${args.items.length} done):\n${formatTaskList(args.items)}`,
  });
}

export function doneCount(items: readonly TaskItem[]): number {
  return items.filter((item) => item.status === "done").length;
}

/** The list as the model reads it, one item a line: "- [x] text", "- [~] text" (in progress), "- [ ] text". */
export function formatTaskList(items: readonly TaskItem[]): string {
  if (items.length === 0) return "(empty)";
  const marks: Record<TaskStatus, string> = { done: "[x]", in_progress: "[~]", pending: "[ ]" };
  return items.map((item) => `- ${marks[item.status]} ${item.text}`).join("\n");
}

/** A task list as stored or sent, checked item by item: anything that is not a task item is dropped. */
export function readTaskList(value: unknown): TaskItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return [];
    const { text, status } = item as Record<string, unknown>;
    if (typeof text !== "string" || text.trim() === "" || !(TASK_STATUSES as readonly unknown[]).includes(status)) return [];
    return [{ text: text.slice(0, MAX_TASK_TEXT_CHARS), status: status as TaskStatus }];
  }).slice(0, MAX_TASKS);
}
