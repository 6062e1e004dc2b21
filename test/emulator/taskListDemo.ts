// The demo model's task list: asked to make a plan (or for a task list) it calls update_tasks when it is
// offered, then writes the plan out; asked to carry the plan out, it ticks the list. Shows the pinned list.

/** "make a plan", "propose a plan", "task list". */
export const WANTS_PLAN = /\b(make|propose|write|draft) a plan\b|\btask list\b/i;
/** What "Act on this plan" sends (src/panel/planModeActions.ts), in English. */
export const CARRIES_OUT_PLAN = /^Carry out the plan above\b/i;

export const DEMO_TASKS = ["Read the files involved", "Propose the change for review", "Run the tests"] as const;

export function demoTaskItems(status: (index: number) => "pending" | "in_progress" | "done"): Array<{ text: string; status: string }> {
  return DEMO_TASKS.map((text, index) => ({ text, status: status(index) }));
}

export function demoPlanAnswer(): string {
  return [
    "Here is the plan (also in the task list above the message box):",
    DEMO_TASKS.map((text, index) => `${index + 1}. ${text}`).join("\n"),
    "Click **Act on this plan** (or switch to **Act**) and I will carry it out.",
  ].join("\n\n");
}

export function demoCarriedOutAnswer(): string {
  return "Done: every step of the plan is ticked in the task list. Review the changes in the editor before you keep them.";
}
