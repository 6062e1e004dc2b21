import type { TaskItem } from "../tools/updateTasksTool";
import { doneCount, formatTaskList } from "../tools/updateTasksTool";

// The two instruction parts of Plan mode and the task list. For the model, so they stay English; their
// sources are what "What the model is told", the receipt and the ledger name them by.

export const PLAN_MODE_SOURCE = "Plan mode (Relay Chat)";
export const TASK_LIST_SOURCE = "Task list (update_tasks)";

export function planModeText(): string {
  return `Plan mode: the person asked for a plan, not for changes. Read what you need with the read-only tools offered, then propose a plan: numbered steps, the files each step touches, and how to check the result. Do not change files or run commands, and do not write the changes out in full; the person reviews the plan and then switches to Act to carry it out.`;
}

/** The list as it is now: the model's last update_tasks call, with the person's ticks and removals since. */
export function taskListText(tasks: readonly TaskItem[]): string {
  return `The task list of this conversation (${doneCount(tasks)}/${tasks.length} done; [x] done, [~] in progress, [ ] pending), as it stands now: the person may have ticked or removed items since your last update_tasks call.\n${formatTaskList(tasks)}`;
}
