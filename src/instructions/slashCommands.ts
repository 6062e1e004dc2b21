import * as l10n from "@vscode/l10n";
import { expandPromptArguments } from "./promptFiles";
import type { PromptFile, PromptFileOrigin } from "./promptFiles";

// The slash commands of the message box: the built-ins (each a short prompt kept here, in English, as the
// model gets it) and the prompt files. A command typed at the start of a message is sent as the person typed
// it; its prompt goes with that one message as part of what the model is told ("What the model is told"
// shows it with its source). /new, /compact and /commit are carried out by the panel instead.

export type SlashCommandOrigin = "builtin" | PromptFileOrigin;

export interface SlashCommand {
  /** Without the slash. */
  name: string;
  /** action: the panel carries it out (new, compact, commit); prompt: its text goes with the message. */
  kind: "action" | "prompt";
  /** Shown in the `/` menu (built-ins: localized). */
  description: string;
  argumentHint: string;
  origin: SlashCommandOrigin;
  /** What the model is told with the message (built-in prompt or the prompt file's body). */
  prompt: string;
  /** Where it comes from, as "What the model is told" and the request log name it. */
  source: string;
  /** The only tools offered with the message; null: the usual tools. */
  tools: string[] | null;
  /** "plan" for /plan; a prompt file's `mode`; null when not said. */
  mode: string | null;
  /** A prompt file that takes the place of the built-in prompt of its name (/explain, /fix, /tests). */
  replacesBuiltin?: boolean;
  /** A built-in that keeps its name: the prompt file of that name (its source) is not used. */
  ignoredFile?: string;
}

/** The part of what the model is told that a command adds to its message. */
export interface CommandPrompt {
  source: string;
  text: string;
}

/**
 * The built-in prompts, short on purpose: each says what to produce and how far to go; the tools, the
 * workspace and how edits are reviewed are in the base instruction already.
 */
export const BUILTIN_PROMPTS = {
  explain:
    "Explain the code the person points at (the attached file or selection, or what the message names): what it does, how it does it, and anything surprising. Read the files you need with the tools; do not change files.",
  fix: "Find the cause of the problem the person describes, or of the problems in the attached code, and fix it with the smallest change that works. Say what was wrong and what you changed.",
  tests:
    "Write tests for the code the person points at, in the framework and style of the project's existing tests (look at them first). Cover the main behaviour and the edge cases, and say how to run the tests.",
  plan: "Propose a plan for what the person asks: the steps in order, the files each step touches, and the risks or open questions. Do not change any files and do not run commands that change anything: the person reviews the plan first.",
  commit:
    "Write a git commit message for the staged changes the message holds. Answer with the commit message only: a summary line of at most 72 characters in the imperative mood, then, if the change needs it, a blank line and a short body saying what changed and why. No code fences, no quotes, no commentary.",
} as const;

export const BUILTIN_COMMAND_NAMES = ["new", "compact", "plan", "explain", "fix", "tests", "commit"] as const;
export type BuiltinCommandName = (typeof BUILTIN_COMMAND_NAMES)[number];

export function builtinCommands(): SlashCommand[] {
  const action = (name: BuiltinCommandName, description: string, argumentHint = ""): SlashCommand => ({ name, kind: "action", description, argumentHint, origin: "builtin", prompt: "", source: `/${name}`, tools: null, mode: null });
  const prompt = (name: keyof typeof BUILTIN_PROMPTS, description: string, argumentHint: string, extra: Partial<SlashCommand> = {}): SlashCommand => ({
    name,
    kind: "prompt",
    description,
    argumentHint,
    origin: "builtin",
    prompt: BUILTIN_PROMPTS[name],
    source: `Relay Chat /${name} prompt`,
    tools: null,
    mode: null,
    ...extra,
  });
  return [
    action("new", l10n.t("Start a new conversation"), l10n.t("message (optional)")),
    action("compact", l10n.t("Summarize earlier turns to free room in the context window")),
    prompt("plan", l10n.t("Propose a plan without changing files"), l10n.t("what to plan"), { mode: "plan" }),
    prompt("explain", l10n.t("Explain the code"), l10n.t("what to explain")),
    prompt("fix", l10n.t("Find and fix a problem"), l10n.t("the problem")),
    prompt("tests", l10n.t("Write tests"), l10n.t("what to test")),
    { ...prompt("commit", l10n.t("Write a commit message for the staged changes into Source Control (never commits)"), ""), kind: "action", tools: [] },
  ];
}

/**
 * The built-ins, then the workspace's prompt files, then the person's; a name taken by a prompt file already is
 * skipped. A prompt file named like a built-in prompt (/explain, /fix, /tests) takes its place, and the menu says
 * whose it is: a project's own /fix is what its people mean by /fix. The panel's own commands (/new, /compact,
 * /commit, and /plan, which switches the mode) keep their names, and the menu names the prompt file not used.
 */
export function slashCommands(promptFiles: readonly PromptFile[]): SlashCommand[] {
  const commands = builtinCommands();
  const taken = new Set<string>();
  const ordered = [...promptFiles.filter((file) => file.origin === "workspace"), ...promptFiles.filter((file) => file.origin === "user")];
  for (const file of ordered) {
    const key = file.name.toLowerCase();
    if (taken.has(key)) continue;
    taken.add(key);
    const command: SlashCommand = { name: file.name, kind: "prompt", description: file.description, argumentHint: file.argumentHint, origin: file.origin, prompt: file.body, source: file.source, tools: file.tools, mode: file.mode };
    const builtin = commands.findIndex((candidate) => candidate.origin === "builtin" && candidate.name === key);
    if (builtin === -1) commands.push(command);
    else if (isReplaceable(commands[builtin])) commands[builtin] = { ...command, description: command.description || commands[builtin].description, argumentHint: command.argumentHint || commands[builtin].argumentHint, replacesBuiltin: true };
    else commands[builtin] = { ...commands[builtin], ignoredFile: file.source };
  }
  return commands;
}

/** A built-in that is only a prompt (no action of the panel's, no mode): a prompt file of its name may stand in for it. */
function isReplaceable(command: SlashCommand): boolean {
  return command.kind === "prompt" && command.mode === null;
}

/** The command a message starts with (`/name` then its arguments); null when it starts with none we know. */
export function findSlashCommand(text: string, commands: readonly SlashCommand[]): { command: SlashCommand; args: string } | null {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trimStart());
  if (!match) return null;
  const name = match[1];
  const command = commands.find((candidate) => candidate.name === name) ?? commands.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
  return command ? { command, args: (match[2] ?? "").trim() } : null;
}

/** What the model is told with the message a command started, its arguments put in where the prompt asks for them. */
export function commandPrompt(command: SlashCommand, args: string): CommandPrompt {
  const { text } = expandPromptArguments(command.prompt, args);
  const origin = command.origin === "builtin" ? `the slash command /${command.name}` : `/${command.name}, the prompt file ${command.source}`;
  return { source: command.source, text: `The person started this message with ${origin}:\n${text}` };
}
