// The demo model's task list: asked to make a plan (or for a task list) it calls update_tasks when it is
// offered, then writes the plan out; asked to carry the plan out, it ticks the list as the person left it (the
// request's instructions carry it, src/instructions/planInstructions.ts), so a removed step stays removed.

/** "make a plan", "propose a plan", "task list". */
export const WANTS_PLAN = /\b(make|propose|write|draft) a plan\b|\btask list\b/i;
/** What "Act on this plan" sends (src/panel/turns/planModeActions.ts), in English. */
export const CARRIES_OUT_PLAN = /^Carry out the plan above\b/i;

export const DEMO_TASKS = ["Read the files involved", "Propose the change for review", "Run the tests"] as const;

type TaskStatus = "pending" | "in_progress" | "done";

export function demoTaskItems(status: (index: number) => TaskStatus): Array<{ text: string; status: string }> {
  return DEMO_TASKS.map((text, index) => ({ text, status: status(index) }));
}

/** The steps of the task list the instructions carry ("- [ ] text" lines after its heading), or null when they carry none. */
export function taskTextsOf(instructions: string | null | undefined): string[] | null {
  const start = typeof instructions === "string" ? instructions.indexOf("The task list of this conversation") : -1;
  if (start === -1) return null;
  const lines = (instructions as string).slice(start).split("\n").slice(1);
  const items: string[] = [];
  for (const line of lines) {
    const item = /^- \[[ x~]\] (.+)$/.exec(line);
    if (!item) break;
    items.push(item[1]!);
  }
  return items;
}

/** Every step of the list the person left, done: what carrying the plan out ticks. */
export function carriedOutItems(instructions: string | null | undefined): Array<{ text: string; status: string }> {
  const texts = taskTextsOf(instructions) ?? [...DEMO_TASKS];
  return texts.map((text) => ({ text, status: "done" }));
}

export function demoPlanAnswer(): string {
  return [
    "Here is the plan (also in the task list above the message box):",
    DEMO_TASKS.map((text, index) => `${index + 1}. ${text}`).join("\n"),
    "Click **Act on this plan** (or switch to **Act**) and I will carry it out.",
  ].join("\n\n");
}

/** After ticking the list: what was done, and, honestly, that the demo's plan changed no file. */
export function demoCarriedOutAnswer(items: ReadonlyArray<{ text: string }>): string {
  if (items.length === 0) return "The task list is empty, so there was nothing to carry out.";
  const ticked = items.length === 1 ? "The one step of the plan is ticked" : `All ${items.length} steps of the plan are ticked`;
  return `${ticked} in the task list. The demo plan changed no files, so there is nothing to review; ask me to change \`hello.ts\` to see an edit you keep or undo.`;
}
