import { parseFrontMatter } from "./frontMatter";

// Prompt files (`*.prompt.md`, VS Code's format): Markdown whose body is sent to the model when the person
// runs the file as a slash command. Front matter (all optional): `name` (the command; default the file name
// without `.prompt.md`), `description` (shown in the `/` menu), `argument-hint`, `tools` (the only tools
// offered with that message; names Relay Chat does not have are ignored) and `mode` (or `agent`, its newer
// name: recorded for Plan mode, `ask`/`agent`/`plan`). They are text for the model only: nothing in them
// changes settings, approvals or which tools run without asking.

/** Where the workspace's prompt files are, relative to a workspace folder. */
export const WORKSPACE_PROMPTS_FOLDER = ".github/prompts";
export const PROMPT_FILE_SUFFIX = ".prompt.md";
/** A prompt file is read up to this many bytes; the assembly cuts the body further (assembleInstructions.ts). */
export const PROMPT_FILE_READ_LIMIT_BYTES = 64 * 1024;
/** A command name: what follows `/` (letters, digits, `.`, `_`, `-`). */
const COMMAND_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u;

export type PromptFileOrigin = "workspace" | "user";

export interface PromptFile {
  /** The command name, without the slash. */
  name: string;
  description: string;
  argumentHint: string;
  /** The tools to offer with the message; null: the usual tools. */
  tools: string[] | null;
  /** `mode`/`agent` from the front matter, lower-cased; null when not said. */
  mode: string | null;
  body: string;
  origin: PromptFileOrigin;
  /** Where it comes from, as sources show it: ".github/prompts/review.prompt.md", "~user/review.prompt.md". */
  source: string;
}

export function isPromptFileName(fileName: string): boolean {
  return fileName.endsWith(PROMPT_FILE_SUFFIX) && fileName.length > PROMPT_FILE_SUFFIX.length;
}

/** One prompt file; null when it has no usable command name (the reader logs it). */
export function parsePromptFile(fileName: string, text: string, origin: PromptFileOrigin, source: string): PromptFile | null {
  const { fields, body } = parseFrontMatter(text);
  const named = stringField(fields.get("name"));
  const name = (named !== "" ? named : fileName.slice(0, -PROMPT_FILE_SUFFIX.length)).replace(/^\//, "");
  if (!COMMAND_NAME.test(name)) return null;
  const tools = fields.get("tools");
  const mode = stringField(fields.get("mode")) || stringField(fields.get("agent"));
  return {
    name,
    description: stringField(fields.get("description")),
    argumentHint: stringField(fields.get("argument-hint")),
    tools: tools === undefined ? null : (Array.isArray(tools) ? tools : tools.split(",")).map((tool) => tool.trim()).filter((tool) => tool !== ""),
    mode: mode === "" ? null : mode.toLowerCase(),
    body: body.trim(),
    origin,
    source,
  };
}

/**
 * The prompt's text with the person's arguments put in. `${input:NAME}` (or `${input:NAME:placeholder}`)
 * takes the value of `NAME=value` among the arguments; one with no named value takes the rest of the
 * arguments; `$ARGUMENTS` takes all of them. Placeholders left without a value stay for the model (VS Code
 * leaves them to the model too). `substituted` says whether the arguments went into the text; when not, they
 * reach the model with the message itself.
 */
export function expandPromptArguments(body: string, args: string): { text: string; substituted: boolean } {
  const { named, rest } = splitArguments(args);
  let substituted = false;
  const text = body
    .replace(/\$\{input:([^}:]+)(?::[^}]*)?\}/g, (placeholder, name: string) => {
      const value = named.get(name.trim()) ?? (rest !== "" ? rest : undefined);
      if (value === undefined) return placeholder;
      substituted = true;
      return value;
    })
    .replace(/\$ARGUMENTS\b/g, () => {
      substituted = true;
      return args.trim();
    });
  return { text, substituted: substituted && args.trim() !== "" };
}

/** `name=value` and `name="a value"` pairs, and the words that are not pairs. */
export function splitArguments(args: string): { named: Map<string, string>; rest: string } {
  const named = new Map<string, string>();
  const replaced = args.replace(/(^|\s)([\p{L}_][\p{L}\p{N}_-]*)=(?:"([^"]*)"|'([^']*)'|(\S+))/gu, (_pair, lead: string, name: string, double?: string, single?: string, bare?: string) => {
      named.set(name, double ?? single ?? bare ?? "");
      return lead;
    });
  // Only where pairs were taken out are the gaps they left closed; otherwise the text stays as typed.
  return { named, rest: named.size === 0 ? args.trim() : replaced.replace(/[ \t]+/g, " ").trim() };
}

function stringField(value: string | string[] | undefined): string {
  return typeof value === "string" ? value.trim() : "";
}
