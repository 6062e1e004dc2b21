import { createHash } from "node:crypto";
import { BASE_INSTRUCTION_VERSION, fillBaseInstruction } from "./baseInstruction";
import type { InstructionEnvironment } from "./baseInstruction";
import type { ChosenRule } from "./projectRules";
import type { RuleKind } from "./ruleFile";
import { PLAN_MODE_SOURCE, TASK_LIST_SOURCE, planModeText, taskListText } from "./planInstructions";
import type { ChatMode } from "../tools/planMode";
import type { TaskItem } from "../tools/updateTasksTool";
import type { CommandPrompt } from "./slashCommands";

// The one place instruction text is put together: the base instruction, the person's own instructions
// (relayChat.instructions), the relay's and the model's own (relayChat.relays, relayChat.modelSettings), then
// the project rules, the task list and Plan mode's request, each part with its source and estimated tokens. What
// "What the model is told" shows and what the request sends are both this function's result.

/** A rules file longer than this is cut (characters; about 4,000 tokens). */
export const RULE_FILE_LIMIT_CHARS = 16_000;
/** All rules files together are cut at this (characters; about 8,000 tokens, Codex's 32 KiB). */
export const RULES_TOTAL_LIMIT_CHARS = 32_000;
/** The same estimate as the spend guard's (src/chat/spendGuard.ts): about four characters per token. */
const CHARACTERS_PER_TOKEN = 4;

export type InstructionPartKind = "base" | "person" | "relay" | "model" | RuleKind | "tasks" | "plan" | "prompt";

export interface InstructionPart {
  kind: InstructionPartKind;
  /** Where the text comes from: "Relay Chat base instruction v2", "relayChat.instructions", "app/AGENTS.md". */
  source: string;
  text: string;
  tokens: number;
  /** Set when the file was cut to the limits: how much was kept of how much. */
  cut?: { keptChars: number; totalChars: number };
  /** Set when the total limit left no room for the file at all. */
  left?: true;
  /** Set when a relay key was found in the text and replaced with [REDACTED]. */
  redacted?: true;
}

export interface AssembledInstructions {
  /** The whole text sent as the request's `instructions`. */
  text: string;
  parts: InstructionPart[];
  tokens: number;
  /** sha256 of the text, first 16 hex digits: the ledger records it, never the text. */
  hash: string;
}

export interface InstructionInputs {
  environment: InstructionEnvironment;
  /** relayChat.instructions (User settings); blank: none. */
  personInstructions?: string;
  /** Where the person's instructions come from; the panel's setting unless said (the CLI's --system). */
  personSource?: string;
  /** The relay's own instructions (relayChat.relays[].instructions), for every model there. */
  relayInstructions?: { relay: string; text: string } | null;
  /** The model's own instructions (relayChat.modelSettings[].instructions). */
  modelInstructions?: { model: string; text: string } | null;
  rules?: readonly ChosenRule[];
  /** Several workspace folders: sources name the folder too. */
  multiRoot?: boolean;
  /** The conversation's mode: Plan adds the part that asks for a plan and no changes. */
  mode?: ChatMode;
  /** The conversation's task list (update_tasks), sent as it is now so ticks and removals reach the model. */
  tasks?: readonly TaskItem[];
  /** The prompt of the slash command the message starts with (slashCommands.ts); sent last, for this message only. */
  commandPrompt?: CommandPrompt | null;
  /**
   * Takes the relay keys out of the text the person and the workspace wrote (their instructions, rules and prompt
   * files, the task list) before it is cut and sent; a part it changed says so.
   */
  redact?: (text: string) => string;
}

/** The parts before the project rules: the base instruction and what the person wrote in settings. */
const PERSON_KINDS: ReadonlySet<InstructionPartKind> = new Set(["base", "person", "relay", "model"]);

export function assembleInstructions(inputs: InstructionInputs): AssembledInstructions {
  const redacted = new Set<string>();
  /** The text without the relay keys; `source` is remembered when it held one. */
  const clean = (source: string, text: string): string => {
    const result = inputs.redact ? inputs.redact(text) : text;
    if (result !== text) redacted.add(source);
    return result;
  };
  const parts: InstructionPart[] = [part("base", `Relay Chat base instruction v${BASE_INSTRUCTION_VERSION}`, fillBaseInstruction(inputs.environment))];
  const personSource = inputs.personSource ?? "relayChat.instructions";
  const person = clean(personSource, inputs.personInstructions?.trim() ?? "");
  if (person !== "") parts.push(part("person", personSource, `The person's own instructions:\n${person}`));
  const relaySource = `relayChat.relays: ${inputs.relayInstructions?.relay}`;
  const relay = clean(relaySource, inputs.relayInstructions?.text.trim() ?? "");
  if (relay !== "") parts.push(part("relay", relaySource, `The person's instructions for this relay:\n${relay}`));
  const modelSource = `relayChat.modelSettings: ${inputs.modelInstructions?.model}`;
  const model = clean(modelSource, inputs.modelInstructions?.text.trim() ?? "");
  if (model !== "") parts.push(part("model", modelSource, `The person's instructions for this model:\n${model}`));
  let room = RULES_TOTAL_LIMIT_CHARS;
  for (const rule of inputs.rules ?? []) {
    const source = inputs.multiRoot ? `${rule.folder}/${rule.path}` : rule.path;
    const body = clean(source, rule.text.trim());
    const keep = Math.min(body.length, RULE_FILE_LIMIT_CHARS, room);
    if (keep <= 0) {
      parts.push({ ...part(rule.kind, source, ""), left: true, cut: { keptChars: 0, totalChars: body.length } });
      continue;
    }
    room -= keep;
    const cutNote = keep < body.length ? `\n[Relay Chat cut this file here: ${keep} of ${body.length} characters sent.]` : "";
    const header = parts.some((earlier) => !PERSON_KINDS.has(earlier.kind)) ? "" : "Project rules (from files in the workspace):\n\n";
    const entry = part(rule.kind, source, `${header}## ${source}\n${body.slice(0, keep)}${cutNote}`);
    if (keep < body.length) entry.cut = { keptChars: keep, totalChars: body.length };
    parts.push(entry);
  }
  if (inputs.tasks !== undefined && inputs.tasks.length > 0) parts.push(part("tasks", TASK_LIST_SOURCE, clean(TASK_LIST_SOURCE, taskListText(inputs.tasks))));
  if (inputs.mode === "plan") parts.push(part("plan", PLAN_MODE_SOURCE, planModeText()));
  const command = inputs.commandPrompt;
  if (command) {
    // A prompt file is workspace text like a rules file: cut at the same per-file limit.
    const prompt = clean(command.source, command.text);
    const cut = prompt.length > RULE_FILE_LIMIT_CHARS;
    const entry = part("prompt", command.source, cut ? `${prompt.slice(0, RULE_FILE_LIMIT_CHARS)}\n[Relay Chat cut this prompt here: ${RULE_FILE_LIMIT_CHARS} of ${prompt.length} characters sent.]` : prompt);
    if (cut) entry.cut = { keptChars: RULE_FILE_LIMIT_CHARS, totalChars: prompt.length };
    parts.push(entry);
  }
  for (const entry of parts) if (redacted.has(entry.source)) entry.redacted = true;
  const text = parts.filter((entry) => entry.text !== "").map((entry) => entry.text).join("\n\n");
  return { text, parts, tokens: estimateTokens(text), hash: createHash("sha256").update(text).digest("hex").slice(0, 16) };
}

/** The sources that went with a request, for the ledger: names only, and the left-out ones not at all. */
export function sentSources(instructions: AssembledInstructions): string[] {
  return instructions.parts.filter((entry) => !entry.left).map((entry) => entry.source);
}

function part(kind: InstructionPartKind, source: string, text: string): InstructionPart {
  return { kind, source, text, tokens: estimateTokens(text) };
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}
