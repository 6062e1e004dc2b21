// Plan mode: the model looks and proposes, it changes nothing. Only tools that read (and the task list,
// which changes nothing but the panel) are offered; any other call is refused as not offered. Kept apart
// from the other reasons a tool is not offered (trust, settings, a model's own settings) so each stays a
// small function of its own.
import type { Tool } from "./toolContract";

/** Act: every tool the settings and trust allow. Plan: read-only tools only. */
export type ChatMode = "plan" | "act";

export const CHAT_MODES: readonly ChatMode[] = ["plan", "act"];

export function isChatMode(value: unknown): value is ChatMode {
  return value === "plan" || value === "act";
}

/**
 * Null when the mode lets the tool be offered; otherwise why not, in words for the model (it stays English:
 * it goes back as the call's output).
 */
export function modeProblem(tool: Pick<Tool, "name" | "risk">, mode: ChatMode | undefined): string | null {
  if (mode !== "plan" || tool.risk === "read") return null;
  return `The tool "${tool.name}" is not offered in Plan mode, where only read-only tools are available, so it was not run. Propose the change as a step of your plan instead.`;
}
