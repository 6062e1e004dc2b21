import type { CommandPrompt, SlashCommand } from "../instructions/slashCommands";
import { commandPrompt, findSlashCommand } from "../instructions/slashCommands";
import type { EditRegion } from "./editRegion";

// What an edit in place asks the model. The lines to replace and the lines around them go in the message, each in
// a fence longer than any run of backticks in the file's text, so code holding fences cannot end the block early;
// the rule for the answer (the replacement only, in one block) goes with the instructions as the prompt part, sent
// last, as a slash command's prompt is (src/instructions/assembleInstructions.ts).

export const EDIT_PROMPT_SOURCE = "Edit in place";

/** The part of the instructions that says how to answer an edit in place. */
export const EDIT_COMMAND_PROMPT: CommandPrompt = {
  source: EDIT_PROMPT_SOURCE,
  text: [
    "The person selected lines in a file and asks you to change them. Answer with the complete new text of the selected lines only, in one fenced code block, and nothing else: no explanation, no lines from before or after the selection, no placeholders for unchanged code.",
    "Keep the file's indentation and style. To delete the lines entirely, answer with an empty code block. Do not call tools.",
  ].join("\n"),
};

export interface EditSubject {
  /** The file's path as the person reads it (relative to its workspace folder). */
  path: string;
  /** VS Code's language id (typescript, python, markdown). */
  languageId: string;
  /** What the person asked for. */
  instruction: string;
}

/** The user message of the request. */
export function editPrompt(region: EditRegion, subject: EditSubject): string {
  const fence = fenceFor(`${region.contextBefore}${region.selected}${region.contextAfter}`);
  const block = (text: string) => fencedBlock(fence, subject.languageId, text);
  const firstLine = region.startLine + 1;
  const lastLine = region.startLine + Math.max(1, region.lineCount);
  const parts = [
    `File: ${subject.path} (language: ${subject.languageId}), lines ${firstLine}-${lastLine}.`,
    `Instruction: ${subject.instruction.trim()}`,
  ];
  if (region.contextBefore !== "") parts.push(`Lines before the selection (context; do not repeat them):\n${block(region.contextBefore)}`);
  parts.push(`The selected lines to replace:\n${block(region.selected)}`);
  if (region.contextAfter !== "") parts.push(`Lines after the selection (context; do not repeat them):\n${block(region.contextAfter)}`);
  parts.push(`Answer with the new text of the selected lines in one ${fence}${subject.languageId} code block and nothing else.`);
  return parts.join("\n\n");
}

/** `text` in a code block of the language, the fence on lines of their own. */
export function fencedBlock(fence: string, languageId: string, text: string): string {
  return `${fence}${languageId}\n${text.replace(/\r\n/g, "\n")}${text.endsWith("\n") || text === "" ? "" : "\n"}${fence}`;
}

/** Three backticks, or one more than the longest run of backticks in `text`. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * What the person typed, read as the panel reads a message: a `/` prompt command first (a built-in prompt such as
 * /fix, or a prompt file) adds its prompt before the edit's own rule, and its arguments are the instruction.
 * Commands that are the panel's actions (/new, /compact, /commit, /plan) mean nothing here and are left as typed.
 */
export function editInstruction(typed: string, commands: readonly SlashCommand[]): { instruction: string; prompt: CommandPrompt } {
  const found = findSlashCommand(typed, commands.filter((command) => command.kind === "prompt" && command.mode === null));
  if (!found) return { instruction: typed.trim(), prompt: EDIT_COMMAND_PROMPT };
  const added = commandPrompt(found.command, found.args);
  return {
    instruction: found.args || `/${found.command.name}`,
    prompt: { source: `${EDIT_PROMPT_SOURCE}, ${added.source}`, text: `${added.text}\n\n${EDIT_COMMAND_PROMPT.text}` },
  };
}
