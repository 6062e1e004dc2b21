import { imagesOfContent } from "./inputImages";
import type { SeenImage } from "./inputImages";
import { createHash } from "node:crypto";
import type { ServiceErrorFields } from "./errorBodies";
import type { PlannedItem } from "./outputPlan";
import { longMarkdownAnswer } from "./longAnswer";
import { splitIntoArgumentDeltas, splitIntoWordDeltas } from "./tokenCounting";
import { CARRIES_OUT_PLAN, WANTS_PLAN, carriedOutItems, demoCarriedOutAnswer, demoPlanAnswer, demoTaskItems } from "./taskListDemo";
import { CONTEXT_KINDS, WANTS_REVIEW, asksForCommitMessage, attachmentsOf, commitMessageFor, describeContext, reviewOf } from "./demoReplies";
import { DEMO_THINKING_MODEL, THINKING_TOOLS_MODEL } from "./thinkingModels";
import { planEditInPlace } from "./editInPlace";

/** The models every emulator knows how to answer; any other listed model id behaves like `echo`. */
export const SCRIPTED_MODEL_IDS = ["echo", "tools", "tools-parallel", "reasoning", "long", "demo", "thinker", "run-message", "run-command", "small-window"] as const;

/**
 * `small-window` echoes like `echo` but has a small context window (in the emulator's own token count): a
 * longer input is refused the way OpenAI's Responses API refuses it (new-api and one-api pass the body on).
 * 16,000 tokens hold about 200 short echoed turns (some 13,000 tokens) and not much more.
 */
export const SMALL_CONTEXT_WINDOW = 16_000;

/** The context window a model list names for a scripted model: `small-window`'s, or `fallback`. */
export function contextWindowOf(model: string, fallback: number): number {
  return model === "small-window" ? SMALL_CONTEXT_WINDOW : fallback;
}

export function contextWindowProblem(model: string, inputTokens: number): ServiceErrorFields | null {
  if (model !== "small-window" || inputTokens <= SMALL_CONTEXT_WINDOW) return null;
  return { message: "Your input exceeds the context window of this model. Please adjust your input and try again.", type: "invalid_request_error", code: "context_length_exceeded", param: "input" };
}

/**
 * Relay Chat's request for a summary of earlier turns (src/chat/compaction.ts SUMMARIZE_PROMPT), which
 * any scripted model answers with a short summary of the user messages it was sent, as a model would.
 */
const SUMMARIZE_REQUEST = /^Summarize our conversation so far/;

function summaryOf(input: unknown): PlannedItem {
  const questions = inputItems(input)
    .map(asRecord)
    .filter((item) => item?.role === "user")
    .map((item) => textOfContent(item?.content))
    .filter((text) => !SUMMARIZE_REQUEST.test(text));
  const first = questions[0] ?? "";
  const last = questions[questions.length - 1] ?? "";
  return message(`- The person sent ${questions.length} message(s), from "${first.slice(0, 80)}" to "${last.slice(0, 80)}".\n- Each was answered by repeating it.`);
}

/** Models a person watches (the demo) stream at a readable pace; the others as fast as possible. */
export const SCRIPTED_DELTA_INTERVAL_MS: Readonly<Record<string, number>> = { demo: 12, [DEMO_THINKING_MODEL]: 12 };

const DEFAULT_LONG_ANSWER_WORDS = 2000;

/** The parts of a validated request body the scripted models look at. */
export interface ScriptInput {
  model: string;
  input: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  max_output_tokens?: number | null;
  reasoning?: unknown;
  /** The request's instructions, as the model is told them. */
  instructions?: string | null;
}

interface OfferedTool {
  name: string;
  parameters: unknown;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function inputItems(input: unknown): unknown[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  return Array.isArray(input) ? input : [];
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => asRecord(part)?.text)
    .filter((text): text is string => typeof text === "string")
    .join("");
}

export function lastUserText(input: unknown): string {
  const items = inputItems(input);
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = asRecord(items[index]);
    if (item?.role === "user") return textOfContent(item.content);
  }
  return "";
}

/** The text of the last assistant message of the input (an earlier answer the client sends back). */
function lastAssistantText(input: unknown): string {
  const items = inputItems(input);
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = asRecord(items[index]);
    if (item?.role === "assistant") return textOfContent(item.content);
  }
  return "";
}

/** The images of the last user message. */
function lastUserImages(input: unknown): SeenImage[] {
  const items = inputItems(input);
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = asRecord(items[index]);
    if (item?.role === "user") return imagesOfContent(item.content);
  }
  return [];
}

/** Outputs at the end of the input: the client has just run the proposed functions. */
function trailingFunctionCallOutputs(input: unknown): string[] {
  const items = inputItems(input);
  const outputs: string[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = asRecord(items[index]);
    if (item?.type !== "function_call_output") break;
    outputs.unshift(typeof item.output === "string" ? item.output : JSON.stringify(item.output));
  }
  return outputs;
}

function offeredTools(tools: unknown): OfferedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => {
    const record = asRecord(tool);
    return record && typeof record.name === "string" ? [{ name: record.name, parameters: record.parameters }] : [];
  });
}

function exampleValue(propertyName: string, schema: unknown): unknown {
  const record = asRecord(schema) ?? {};
  if (Array.isArray(record.enum) && record.enum.length > 0) return record.enum[0];
  if (propertyName === "path") return "README.md";
  const type = Array.isArray(record.type) ? record.type[0] : record.type;
  switch (type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return exampleArguments(record);
    default:
      return "example";
  }
}

/** Arguments that satisfy a simple JSON Schema: `path` -> "README.md", strings "example", numbers 1. */
export function exampleArguments(parametersSchema: unknown): Record<string, unknown> {
  const properties = asRecord(asRecord(parametersSchema)?.properties) ?? {};
  const argumentsObject: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) argumentsObject[name] = exampleValue(name, schema);
  return argumentsObject;
}

function argumentsFor(tool: OfferedTool): Record<string, unknown> {
  return tool.name === "get_weather" ? { city: "Paris" } : exampleArguments(tool.parameters);
}

function message(text: string): PlannedItem {
  return { kind: "message", deltas: splitIntoWordDeltas(text) };
}

function functionCall(tool: OfferedTool, argumentsObject: Record<string, unknown>): PlannedItem {
  return { kind: "function_call", name: tool.name, argumentDeltas: splitIntoArgumentDeltas(JSON.stringify(argumentsObject)) };
}

function toolResultAnswer(outputs: readonly string[]): PlannedItem {
  return message(outputs.map((output) => `Tool result: ${output}`).join("\n"));
}

function planTools(request: ScriptInput): PlannedItem[] {
  const outputs = trailingFunctionCallOutputs(request.input);
  if (outputs.length > 0) return [toolResultAnswer(outputs)];
  const tools = offeredTools(request.tools);
  if (tools.length === 0) return [message(`No tools were offered. You said: ${lastUserText(request.input)}`)];
  const preferred = tools.find((tool) => tool.name === "get_weather") ?? tools[0];
  return [functionCall(preferred, argumentsFor(preferred))];
}

/** Runs the user's message as a command line (run_command), then reports the result: for tests of what a command changes. */
function planRunMessage(request: ScriptInput): PlannedItem[] {
  return planCommand(request, typedQuestion(request.input));
}

/** Proposes run_command with the command line the user wrote after "run: " (approval rules, issue 21). */
function planRunCommand(request: ScriptInput): PlannedItem[] {
  return planCommand(request, /run: (.+)$/s.exec(typedQuestion(request.input))?.[1]);
}

function planCommand(request: ScriptInput, command: string | undefined): PlannedItem[] {
  const outputs = trailingFunctionCallOutputs(request.input);
  if (outputs.length > 0) return [toolResultAnswer(outputs)];
  const runCommand = offeredTools(request.tools).find((tool) => tool.name === "run_command");
  if (!runCommand || command === undefined) return [message(`Nothing to run. You said: ${lastUserText(request.input)}`)];
  return [functionCall(runCommand, { command })];
}

function planParallelTools(request: ScriptInput): PlannedItem[] {
  const outputs = trailingFunctionCallOutputs(request.input);
  if (outputs.length > 0) return [toolResultAnswer(outputs)];
  const tools = offeredTools(request.tools);
  if (tools.length === 0) return [message(`No tools were offered. You said: ${lastUserText(request.input)}`)];
  if (tools.length >= 2) return [functionCall(tools[0], argumentsFor(tools[0])), functionCall(tools[1], argumentsFor(tools[1]))];
  return [functionCall(tools[0], argumentsFor(tools[0])), functionCall(tools[0], argumentsFor(tools[0]))];
}

function planReasoning(request: ScriptInput): PlannedItem[] {
  const userText = spokenText(request.input);
  // Opaque to the client, like the real thing; it only has to survive the round trip unchanged.
  const encryptedContent = `gAAAAA${createHash("sha256").update(userText).digest("base64url")}`;
  return [
    { kind: "reasoning", summaryDeltas: splitIntoWordDeltas(`**Considering the request**\n\nThe user wrote ${JSON.stringify(userText)}; a short echo answers it.`), encryptedContent },
    message(`After thinking it over: ${userText}`),
  ];
}

/** A tool call the client just ran, with what came back. */
interface RanCall {
  name: string;
  argumentsObject: Record<string, unknown>;
  output: string;
}

/** The calls whose outputs end the input, matched to their function_call items by call id. */
function trailingToolRound(input: unknown): RanCall[] {
  const items = inputItems(input).map(asRecord);
  const calls = new Map<string, Record<string, unknown>>();
  for (const item of items) if (item?.type === "function_call" && typeof item.call_id === "string") calls.set(item.call_id, item);
  const ran: RanCall[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item?.type !== "function_call_output") break;
    const call = calls.get(String(item.call_id));
    let argumentsObject: Record<string, unknown> = {};
    try {
      argumentsObject = asRecord(JSON.parse(String(call?.arguments ?? "{}"))) ?? {};
    } catch {
      // A garbled argument string: answered from the output alone.
    }
    ran.unshift({ name: String(call?.name ?? "tool"), argumentsObject, output: typeof item.output === "string" ? item.output : JSON.stringify(item.output) });
  }
  return ran;
}

/** Reads like a request to go on with a cut answer (the client's Continue says so in its own words). */
const CONTINUE_REQUEST = /^continue\b/i;

/**
 * After Continue, what was written so far: the assistant messages carrying the cut answer, and the input up
 * to the question they answer. Null when the last user message is not a request to continue.
 */
function continuation(input: unknown): { writtenSoFar: string; questionInput: unknown[] } | null {
  const items = inputItems(input);
  const last = asRecord(items[items.length - 1]);
  if (last?.role !== "user" || !CONTINUE_REQUEST.test(textOfContent(last.content))) return null;
  const pieces: string[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = asRecord(items[index]);
    if (item?.role === "assistant") pieces.unshift(textOfContent(item.content));
    else if (item?.role === "user" && !CONTINUE_REQUEST.test(textOfContent(item.content))) return { writtenSoFar: pieces.join(""), questionInput: items.slice(0, index + 1) };
  }
  return null;
}

const FILE_NAME = /(?:^|[\s`'"(=])((?:[\w.-]+\/)*[\w-]+\.[a-z][a-z0-9]{0,5})(?=$|[\s`'"),:;?!]|\.(?:\s|$))/gi;

/** The file a question names (`hello.ts`, src/app.js, "the README"), or null. */
function namedFile(text: string): string | null {
  const path = namedFiles(text)[0];
  if (path) return path;
  return /\breadme\b/i.test(text) ? "README.md" : null;
}

/** Every file a question names, in order, once each. */
function namedFiles(text: string): string[] {
  return [...new Set([...text.matchAll(FILE_NAME)].map((match) => match[1]))];
}

/**
 * What the person typed: the last user message without the `<attachment>` blocks the panel adds after it
 * (the active editor's file goes with most messages, so the question must be read apart from it).
 */
function typedQuestion(input: unknown): string {
  const text = lastUserText(input);
  const start = text.indexOf("<attachment ");
  return (start === -1 ? text : text.slice(0, start)).trim();
}

/** The last user message as a person would repeat it: what they typed, and the names of what they attached (never the markup). */
function spokenText(input: unknown): string {
  const labels = [...lastUserText(input).matchAll(/<attachment kind="[^"]*" label="([^"]*)">/g)].map((match) => `\`${match[1]}\``);
  const typed = typedQuestion(input);
  return labels.length === 0 ? typed : `${typed} (with ${labels.join(", ")} attached)`;
}

/** Attachments travel in the user message as `<attachment kind=… label=…>` blocks holding a fenced copy. */
function attachedFile(text: string): { label: string; content: string } | null {
  const match = /<attachment kind="(?:file|selection)" label="([^"]*)">\n(`{3,})[^\n]*\n([\s\S]*?)\n\2\n<\/attachment>/.exec(text);
  return match ? { label: match[1], content: match[3] } : null;
}

const WANTS_SNIPPET = /\b(suggest|snippet)\b/i;
const WANTS_EDIT = /\b(edit|change|fix|rename|modify|refactor|improve|document|add)\b/i;
const WANTS_COMMAND = /\b(run|execute)\b/i;
const WANTS_EXPLANATION = /\b(explain|what does|how does|describe)\b/i;

/** What a reader would say about code: its declarations, in a sentence. */
function describeCode(name: string, content: string): string {
  const declarations = [...content.matchAll(/^\s*(?:export\s+)?(?:async\s+)?(function|class|const|interface|type)\s+(\w+)/gm)].map((match) => `${match[1]} \`${match[2]}\``);
  const lines = content === "" ? 0 : content.split("\n").length;
  const summary = declarations.length > 0 ? `It declares ${declarations.join(", ")}.` : "It declares nothing a reader would call from elsewhere.";
  // Highlighted as the file's language, as a model names its fences.
  const language = /\.(\w+)$/.exec(name)?.[1] ?? "text";
  return `\`${name}\` has ${lines} line${lines === 1 ? "" : "s"}. ${summary}\n\n\`\`\`${language}\n${content.split("\n").slice(0, 8).join("\n")}\n\`\`\``;
}

/** What the demo can say of pasted images: their kind and size (it has no eyes for the pixels). */
function describeImages(images: readonly SeenImage[], question: string): string {
  const described = images.map((image, index) => {
    const kind = image.mediaType.replace(/^image\//, "").toUpperCase();
    const size = image.width !== null && image.height !== null ? `${image.width} × ${image.height} pixels` : "a size I could not read";
    return `${index + 1}. a ${kind} image, ${size}`;
  });
  const asked = question === "" ? "" : ` You asked: *${question.split("\n")[0]!.slice(0, 200)}*.`;
  return [
    `I received ${images.length === 1 ? "one image" : `${images.length} images`} with your message (\`input_image\` parts).${asked}`,
    described.join("\n"),
    "A real vision model would now describe what it shows; the demo model only reads the image's header, so this is as far as it sees.",
  ].join("\n\n");
}

/** The edit the demo proposes to a file it has read: a comment above its first line, exact as the file has it. */
function demoEdit(path: string, content: string): Record<string, unknown> {
  const firstLine = content.split("\n").find((line) => line.trim() !== "") ?? "";
  const comment = /\.(md|txt)$/i.test(path) ? "<!-- Reviewed with Relay Chat's demo model. -->" : "// Reviewed with Relay Chat's demo model.";
  return firstLine === "" ? { path, new_text: `${comment}\n` } : { path, edits: [{ old_text: firstLine, new_text: `${comment}\n${firstLine}` }] };
}

/**
 * A suggestion as a code block named after the file, for the panel's Apply to file: the file's first function
 * with a line added at its start, so applying it merges one changed part into that function.
 */
function demoSnippet(path: string, content: string): PlannedItem {
  const lines = content.split("\n");
  const start = lines.findIndex((line) => /^(export\s+)?(async\s+)?function\s+\w+/.test(line));
  const end = start === -1 ? -1 : lines.findIndex((line, index) => index > start && line.startsWith("}"));
  if (end === -1) return message(`\`${path}\` has no top-level function I could suggest a change to. Ask me to change it instead and I will propose an edit.`);
  const language = /\.(\w+)$/.exec(path)?.[1] ?? "";
  const snippet = [lines[start], "  // Suggested by Relay Chat's demo model.", ...lines.slice(start + 1, end + 1)].join("\n");
  return message(`Here is a suggestion for \`${path}\`. **Apply to file** merges it into the function it redefines; you then keep or undo the change in the editor.\n\n\`\`\`${language} ${path}\n${snippet}\n\`\`\``);
}

/**
 * Asked to change several files (and perhaps to run a command after), the demo works as an agent does, one
 * round at a time: it reads every file named, proposes an edit to each, runs the command, then sums up. Null
 * when the question names fewer than two files or asks for no change.
 */
function planSeveralFiles(request: ScriptInput, ran: readonly RanCall[]): PlannedItem[] | null {
  const question = typedQuestion(request.input);
  const files = namedFiles(question);
  if (files.length < 2 || !WANTS_EDIT.test(question)) return null;
  const tools = offeredTools(request.tools);
  const readFile = tools.find((tool) => tool.name === "read_file");
  const proposeEdit = tools.find((tool) => tool.name === "propose_edit");
  const runCommand = tools.find((tool) => tool.name === "run_command");
  const command = /\b(?:run|execute)\s+`([^`]+)`/i.exec(question)?.[1];
  if (!readFile || !proposeEdit) return null;
  if (ran.length === 0) return files.map((path) => functionCall(readFile, { path }));
  if (ran.every((call) => call.name === "read_file")) {
    const readable = ran.filter((call) => !/^The file .* does not exist|^"/.test(call.output));
    if (readable.length === 0) return [message(`I could not read any of ${files.map((path) => `\`${path}\``).join(", ")}.`)];
    return readable.map((call) => functionCall(proposeEdit, demoEdit(String(call.argumentsObject.path ?? ""), call.output.split("\n").slice(1).join("\n"))));
  }
  if (ran.every((call) => call.name === "propose_edit") && command && runCommand) return [functionCall(runCommand, { command })];
  const edited = files.filter((path) => ranBefore(request.input, "propose_edit", path));
  const summary = `I proposed an edit to ${edited.map((path) => `\`${path}\``).join(", ")}: keep or undo each change in the editor.`;
  const last = ran[ran.length - 1] as RanCall;
  return [message(last.name === "run_command" ? `${summary} Then I ran \`${String(last.argumentsObject.command ?? "")}\`:\n\n\`\`\`text\n${last.output.slice(0, 1200)}\n\`\`\`` : summary)];
}

/** Whether this turn's input already holds a call of `name` on `path`. */
function ranBefore(input: unknown, name: string, path: string): boolean {
  return inputItems(input).some((item) => {
    const record = asRecord(item);
    return record?.type === "function_call" && record.name === name && String(record.arguments ?? "").includes(JSON.stringify(path));
  });
}

/** The answer after tool calls ran (or were declined), the way a model reads their outputs. */
function answerAfterTools(request: ScriptInput, ran: readonly RanCall[]): PlannedItem[] {
  const question = typedQuestion(request.input);
  const declined = ran.find((call) => /^The user (declined|rejected)/.test(call.output));
  if (declined) {
    return [message(`Understood: you declined \`${declined.name}\`, so I did not do it and will not try it again unasked. Tell me what you would like instead, or paste the part you want me to look at.`)];
  }
  if (ran.every((call) => call.name === "update_tasks")) return [message(CARRIES_OUT_PLAN.test(question) ? demoCarriedOutAnswer(carriedOutItems(request.instructions)) : demoPlanAnswer())];
  const several = planSeveralFiles(request, ran);
  if (several) return several;
  const call = ran[ran.length - 1] as RanCall;
  const path = String(call.argumentsObject.path ?? "");
  if (call.name === "read_file") {
    const content = call.output.split("\n").slice(1).join("\n");
    if (/^The file .* does not exist|^"/.test(call.output)) return [message(`I could not read \`${path}\`: ${call.output}`)];
    if (WANTS_REVIEW.test(question)) return [message(reviewOf(path, content))];
    if (WANTS_SNIPPET.test(question)) return [demoSnippet(path, content)];
    const proposeEdit = offeredTools(request.tools).find((tool) => tool.name === "propose_edit");
    if (proposeEdit && WANTS_EDIT.test(question)) return [functionCall(proposeEdit, demoEdit(path, content))];
    return [message(`I read \`${path}\`. ${describeCode(path, content)}\n\nAsk me to change it and I will propose an edit you can review first.`)];
  }
  if (call.name === "get_editor_context") {
    const file = /^File: ([^\s(]+)$/m.exec(call.output)?.[1];
    const readFile = offeredTools(request.tools).find((tool) => tool.name === "read_file");
    if (file && readFile) return [functionCall(readFile, { path: file })];
    return [message(`No file is open in the editor, so I cannot tell which code you mean. Name the file (for example \`hello.ts\`) or attach it with \`#\`.`)];
  }
  if (call.name === "propose_edit") return [message(`The edit to \`${path}\` is in the editor, unsaved: keep or undo each change there (Keep / Undo above it); the file is saved once you have decided.`)];
  if (call.name === "run_command") return [message(`I ran \`${String(call.argumentsObject.command ?? "")}\`. It reported:\n\n\`\`\`text\n${call.output.slice(0, 1200)}\n\`\`\``)];
  return [toolResultAnswer(ran.map((each) => each.output))];
}

const ASKS_FOR_RULES = /\b(my|the|your|project) (rules|instructions)\b/i;

/** What the demo model was told: the instruction's sources (its "## source" headings) quoted back. */
function describeInstructions(instructions: string | null | undefined): string {
  if (typeof instructions !== "string" || instructions.trim() === "") return "I received no instructions with this request: no base instruction and no project rules.";
  const base = /^You are a coding assistant in Relay Chat/.test(instructions) ? ["the Relay Chat base instruction"] : [];
  const person = /^The person's own instructions:$/m.test(instructions) ? ["your own instructions (`relayChat.instructions`)"] : [];
  const rules = [...instructions.matchAll(/^## (.+)$/gm)].map((match) => `\`${match[1]}\``);
  const sources = [...base, ...person, ...rules].map((source) => `- ${source}`).join("\n");
  const ruleLine = rules.length === 0 ? "No project rules files came with it." : `${rules.length === 1 ? "One project rules file" : `${rules.length} project rules files`} came with it.`;
  return `I received instructions of ${instructions.length} characters with this request, from:\n\n${sources}\n\n${ruleLine}`;
}

/**
 * The tour of the demo model; under an output budget it cannot fit (the README's `ask --max-output-tokens 200
 * "Hello"`), a short greeting instead, as a real model answers "Hello" briefly: only asking for something long
 * runs into the budget.
 */
function introduction(userText: string, budget: number | null): PlannedItem {
  const tour = fullIntroduction(userText);
  if (budget === null || tour.kind !== "message" || tour.deltas.length <= budget) return tour;
  return message(`Hello! This is the **demo model** of the local relay emulator. You asked: *${userText.split("\n")[0].slice(0, 80)}*. Ask for something *long* to see an answer stop at the output budget.`);
}

function fullIntroduction(userText: string): PlannedItem {
  return message(
    [
      `## You asked\n\n> ${userText.split("\n")[0].slice(0, 200)}`,
      "This answer comes from the **demo model** of the local relay emulator. It streams in small pieces, like a real model:",
      "- ask me about a file (*explain `hello.ts`*) and I will propose a `read_file` tool call, which runs only after you approve it;",
      "- ask me to *change `hello.ts`* and I will read it, then propose an edit you keep or undo in the editor;",
      "- ask me to *suggest* something for `hello.ts` and I will answer with a code block that **Apply to file** merges into it;",
      "- ask me to *run `ls`* and I will propose a `run_command` call: the riskiest approval, with the exact command line;",
      "- switch to **Plan** and ask me to *make a plan*: I keep a task list above the message box, and **Act on this plan** carries it out;",
      "- ask me to *change `a.ts`, `b.ts` and `c.ts`, then run `npm test`* and I will work through it as an agent does, a round at a time;",
      "- ask for something *long* and the answer will stop at the output budget, so you can try **Continue**;",
      "- every answer ends with a receipt: outcome, tokens, latency and the request id.",
      "| setting | demo value |\n|---|---|\n| model | demo |\n| output budget | 400 tokens |",
      "```ts\nconst answer = await relay.send({ model: \"demo\", input, stream: true });\n```",
    ].join("\n\n"),
  );
}

/**
 * The demo model shows what a user meets and answers as a real model would: a markdown answer streaming in;
 * asked about a file, it reads the file named (or explains the attached one); asked to change one, it reads
 * it and proposes an edit; asked to run something, it proposes `run_command`; a declined call is
 * acknowledged; asked for something long, the answer outruns the output budget and ends `incomplete`, and
 * Continue goes on from the exact place it was cut.
 */
function planDemo(request: ScriptInput): PlannedItem[] {
  const ran = trailingToolRound(request.input);
  if (ran.length > 0) return answerAfterTools(request, ran);
  const cut = continuation(request.input);
  if (cut) {
    const planned = planDemo({ ...request, input: cut.questionInput }).find((item) => item.kind === "message");
    const full = planned?.kind === "message" ? planned.deltas.join("") : "";
    const rest = full.startsWith(cut.writtenSoFar) ? full.slice(cut.writtenSoFar.length) : "";
    return [message(rest === "" ? "That was the whole answer: nothing more to add." : rest)];
  }
  const userText = lastUserText(request.input);
  const tools = offeredTools(request.tools);
  const tool = (name: string) => tools.find((candidate) => candidate.name === name);
  const attached = attachedFile(userText);
  const question = typedQuestion(request.input);
  const images = lastUserImages(request.input);
  if (images.length > 0) return [message(describeImages(images, question))];
  // /commit: the staged diff comes attached; the answer is the commit message itself, as the prompt asks.
  if (asksForCommitMessage(question, request.instructions)) return [message(commitMessageFor(attached?.content ?? userText))];
  if (ASKS_FOR_RULES.test(question)) return [message(describeInstructions(request.instructions))];
  const updateTasks = tool("update_tasks");
  if (updateTasks && WANTS_PLAN.test(question)) return [functionCall(updateTasks, { items: demoTaskItems(() => "pending") })];
  if (updateTasks && CARRIES_OUT_PLAN.test(question)) {
    // The list as the person left it (ticks and removals), every step of it ticked.
    const items = carriedOutItems(request.instructions);
    return items.length > 0 ? [functionCall(updateTasks, { items })] : [message(demoCarriedOutAnswer(items))];
  }
  const several = planSeveralFiles(request, []);
  if (several) return several;
  const runCommand = tool("run_command");
  const file = namedFile(question);
  // Context attached with # (Changes, Problems, Terminal...) is what a question without its own subject is about.
  const context = attachmentsOf(userText).filter((attachment) => CONTEXT_KINDS.has(attachment.kind));
  if (context.length > 0 && !file && !WANTS_COMMAND.test(question)) return [message(describeContext(context))];
  if (runCommand && WANTS_COMMAND.test(question)) {
    const command = /`([^`]+)`/.exec(question)?.[1] ?? (file ? `wc -l ${file}` : "ls -la");
    return [functionCall(runCommand, { command })];
  }
  // Attached code is what a question about "this code" means; a question with its own subject (a named
  // file, a command) is answered as asked, whatever file happens to go with it.
  if (attached && !file && (WANTS_EXPLANATION.test(question) || /\b(this|the|attached) (code|file)\b/i.test(question))) {
    return [message(`You attached \`${attached.label}\`. ${describeCode(attached.label, attached.content)}`)];
  }
  const readFile = tool("read_file");
  if (readFile && file) return [functionCall(readFile, { path: file })];
  const editorContext = tool("get_editor_context");
  if (WANTS_EXPLANATION.test(question) && /\b(this|the) code\b/i.test(question) && editorContext) return [functionCall(editorContext, {})];
  if (readFile && /\b(file|read)\b/i.test(question)) return [functionCall(readFile, { path: "README.md" })];
  if (/\b(long|essay|everything)\b/i.test(question)) return [message(longMarkdownAnswer(DEFAULT_LONG_ANSWER_WORDS))];
  return [introduction(userText, request.max_output_tokens ?? null)];
}

/** `tool_choice: "required"` (or a named function) makes any model call a tool, as real models do. */
function forcedToolCall(request: ScriptInput): PlannedItem[] | null {
  const choice = request.tool_choice;
  const named = typeof choice === "object" && choice !== null ? (choice as { name?: unknown }).name : undefined;
  if (choice !== "required" && typeof named !== "string") return null;
  if (trailingFunctionCallOutputs(request.input).length > 0) return null;
  const tools = offeredTools(request.tools);
  const tool = tools.find((candidate) => candidate.name === named) ?? tools[0];
  return tool ? [functionCall(tool, argumentsFor(tool))] : null;
}

/**
 * The models that take `reasoning.effort`, and the efforts each takes (null: any the schema allows). Like
 * the real service, a model without reasoning rejects the parameter, and `thinker` (like o3) takes no
 * effort below "low"; the messages are the service's own wording.
 */
const REASONING_EFFORTS: Readonly<Record<string, readonly string[] | null>> = { reasoning: null, thinker: ["low", "medium", "high"] };

export function reasoningEffortProblem(request: ScriptInput): ServiceErrorFields | null {
  const effort = typeof request.reasoning === "object" && request.reasoning !== null ? (request.reasoning as { effort?: unknown }).effort : undefined;
  if (typeof effort !== "string") return null;
  const supported = REASONING_EFFORTS[request.model];
  if (supported === undefined) {
    return { message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.", type: "invalid_request_error", code: "unsupported_parameter", param: "reasoning.effort" };
  }
  if (supported === null || supported.includes(effort)) return null;
  return {
    message: `Unsupported value: 'reasoning.effort' does not support '${effort}' with this model. Supported values are: ${supported.map((value) => `'${value}'`).join(", ")}.`,
    type: "invalid_request_error",
    code: "unsupported_value",
    param: "reasoning.effort",
  };
}

/** Output tokens `thinker` spends reasoning, by effort; without one it reasons at medium, as real models do. */
const THINKER_REASONING_TOKENS: Readonly<Record<string, number>> = { low: 48, medium: 400, high: 1600 };

/** A reasoning model that spends output tokens on reasoning before anything it writes (one token per delta). */
function thinking(request: ScriptInput): PlannedItem {
  const effort = typeof request.reasoning === "object" && request.reasoning !== null ? String((request.reasoning as { effort?: unknown }).effort ?? "medium") : "medium";
  const tokens = THINKER_REASONING_TOKENS[effort] ?? THINKER_REASONING_TOKENS.medium;
  return { kind: "reasoning", summaryDeltas: Array.from({ length: tokens }, (_, index) => (index === 0 ? "Thinking" : " …")), encryptedContent: `gAAAAA${createHash("sha256").update(effort).digest("base64url")}` };
}

/**
 * "Answer with the single word X" in what the model is told (the request's instructions, or a developer or system
 * message), which any scripted model obeys as a real one would: the check-up learns from it whether the relay
 * passes the instructions on.
 */
const ANSWER_WITH_WORD = /answer with the single word ([A-Za-z]+)/i;

function instructedWord(request: ScriptInput): string | null {
  const told = [
    typeof request.instructions === "string" ? request.instructions : "",
    ...inputItems(request.input)
      .map(asRecord)
      .filter((item) => item?.role === "developer" || item?.role === "system")
      .map((item) => textOfContent(item?.content)),
  ];
  for (const text of told) {
    const word = ANSWER_WITH_WORD.exec(text)?.[1];
    if (word) return word;
  }
  return null;
}

/**
 * Thinking models over Chat Completions (thinkingModels.ts): `thinking-tools` (the split profile's deepseek-reasoner
 * and kimi-k2-thinking) writes what the `tools` model would, `demo-thinking` (the demo relay's deepseek-v4-flash)
 * what the `demo` model would; both reason in the open first, streamed as `reasoning_content`.
 */
const THINKING_BASES: Readonly<Record<string, string>> = { [THINKING_TOOLS_MODEL]: "tools", [DEMO_THINKING_MODEL]: "demo" };

function planThinkingAloud(request: ScriptInput, base: string): PlannedItem[] {
  const rest = planOutput({ ...request, model: base });
  const answered = trailingFunctionCallOutputs(request.input).length > 0;
  const calls = rest.some((item) => item.kind === "function_call");
  const thought = answered ? "The tool answered; I will say what it returned." : `The user wrote ${JSON.stringify(spokenText(request.input))}; ${calls ? "a tool can help with that" : "I can answer that directly"}.`;
  return [{ kind: "reasoning", summaryDeltas: splitIntoWordDeltas(thought), encryptedContent: "" }, ...rest];
}

/** What the named model writes for this request, before the output budget is applied. */
export function planOutput(request: ScriptInput): PlannedItem[] {
  const thinkingBase = THINKING_BASES[request.model];
  if (thinkingBase !== undefined) return planThinkingAloud(request, thinkingBase);
  const word = instructedWord(request);
  if (word !== null && !request.tool_choice) return [...(request.model === "thinker" ? [thinking(request)] : []), message(word)];
  if (request.model === "thinker") return [thinking(request), ...(forcedToolCall(request) ?? [message(`You said: ${spokenText(request.input)}`)])];
  const forced = forcedToolCall(request);
  if (forced) return forced;
  if (SUMMARIZE_REQUEST.test(lastUserText(request.input))) return [summaryOf(request.input)];
  const edit = planEditInPlace(lastUserText(request.input), lastAssistantText(request.input));
  if (edit) return edit;
  switch (request.model) {
    case "tools":
      return planTools(request);
    case "tools-parallel":
      return planParallelTools(request);
    case "run-message":
      return planRunMessage(request);
    case "reasoning":
      return planReasoning(request);
    case "long":
      return [message(longMarkdownAnswer(request.max_output_tokens ?? DEFAULT_LONG_ANSWER_WORDS))];
    case "demo":
      return planDemo(request);
    case "run-command":
      return planRunCommand(request);
    default:
      return [message(`You said: ${lastUserText(request.input)}`)];
  }
}
