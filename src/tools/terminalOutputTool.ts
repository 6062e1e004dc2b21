import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import type { TerminalRun } from "./workspaceContextText";
import { formatTerminalRuns, terminalUnavailableText } from "./workspaceContextText";

// get_terminal_output: the last commands of the active terminal and their output, as VS Code's shell
// integration reported them (the editor keeps them: src/host/context/terminalHistory.ts). Read-only.

/** What the editor knows about the active terminal's recent commands. */
export type TerminalSnapshot =
  | { available: true; terminal: string; runs: TerminalRun[] }
  /** `terminal`: the active terminal's name, null when none is open. */
  | { available: false; terminal: string | null };

export function createTerminalOutputTool(snapshot: () => TerminalSnapshot): Tool {
  return defineTool<{ commands?: number }>({
    name: "get_terminal_output",
    description:
      "Show the last commands run in the person's active VS Code terminal with their exit codes and output (colours removed, " +
      "long output cut from the start). Only commands that finished since Relay Chat started are known.",
    risk: "read",
    parameters: {
      type: "object",
      properties: { commands: { type: "integer", minimum: 1, maximum: 5, description: "How many of the last commands (default 1)." } },
      additionalProperties: false,
    },
    run: async (args) => terminalText(snapshot(), args.commands ?? 1),
  });
}

/** The text the chip and the tool send: the last `count` runs, or why there are none. */
export function terminalText(snapshot: TerminalSnapshot, count: number): string {
  if (!snapshot.available) return terminalUnavailableText(snapshot.terminal);
  return formatTerminalRuns(snapshot.runs.slice(-count));
}
