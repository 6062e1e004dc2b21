import { createHash } from "node:crypto";
import type { ServiceErrorFields } from "./errorBodies";
import type { PlannedItem } from "./outputPlan";
import { longMarkdownAnswer } from "./longAnswer";
import { splitIntoArgumentDeltas, splitIntoWordDeltas } from "./tokenCounting";

/** The models every emulator knows how to answer; any other listed model id behaves like `echo`. */
export const SCRIPTED_MODEL_IDS = ["echo", "tools", "tools-parallel", "reasoning", "long", "demo", "thinker", "run-message", "run-command"] as const;

/** Models a person watches (the demo) stream at a readable pace; the others as fast as possible. */
export const SCRIPTED_DELTA_INTERVAL_MS: Readonly<Record<string, number>> = { demo: 12 };

const DEFAULT_LONG_ANSWER_WORDS = 2000;

/** The parts of a validated request body the scripted models look at. */
export interface ScriptInput {
  model: string;
  input: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  max_output_tokens?: number | null;
  reasoning?: unknown;
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
  return planCommand(request, lastUserText(request.input));
}

/** Proposes run_command with the command line the user wrote after "run: " (approval rules, issue 21). */
function planRunCommand(request: ScriptInput): PlannedItem[] {
  return planCommand(request, /run: (.+)$/s.exec(lastUserText(request.input))?.[1]);
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
  const userText = lastUserText(request.input);
  // Opaque to the client, like the real thing; it only has to survive the round trip unchanged.
  const encryptedContent = `gAAAAA${createHash("sha256").update(userText).digest("base64url")}`;
  return [
    { kind: "reasoning", summaryDeltas: splitIntoWordDeltas(`**Considering the request**\n\nThe user wrote ${JSON.stringify(userText)}; a short echo answers it.`), encryptedContent },
    message(`After thinking it over: ${userText}`),
  ];
}

/**
 * The demo model shows what a user meets: a markdown answer streaming in, a tool call when asked about
 * a file (read_file on README.md, answered from the result on the follow-up), and, when asked for
 * something long, an answer that outruns the output budget and ends `incomplete`.
 */
function planDemo(request: ScriptInput): PlannedItem[] {
  const outputs = trailingFunctionCallOutputs(request.input);
  if (outputs.length > 0) {
    const firstLines = outputs.join("\n").split("\n").slice(0, 6).join("\n");
    return [message(`I read the file you approved. It begins with:\n\n\`\`\`text\n${firstLines}\n\`\`\`\n\nAsk me anything else about it.`)];
  }
  const userText = lastUserText(request.input);
  const readFile = offeredTools(request.tools).find((tool) => tool.name === "read_file");
  if (readFile && /\b(file|readme|read)\b/i.test(userText)) return [functionCall(readFile, { path: "README.md" })];
  if (/\b(long|essay|everything)\b/i.test(userText)) return [message(longMarkdownAnswer(DEFAULT_LONG_ANSWER_WORDS))];
  return [
    message(
      [
        `## You asked\n\n> ${userText.split("\n")[0].slice(0, 200)}`,
        "This answer comes from the **demo model** of the local relay emulator. It streams in small pieces, like a real model:",
        "- ask me to *read the README file* and I will propose a `read_file` tool call, which runs only after you approve it;",
        "- ask for something *long* and the answer will stop at the output budget, so you can try **Continue**;",
        "- every answer ends with a receipt: outcome, tokens, latency and the request id.",
        "| setting | demo value |\n|---|---|\n| model | demo |\n| output budget | 400 tokens |",
        "```ts\nconst answer = await relay.send({ model: \"demo\", input, stream: true });\n```",
      ].join("\n\n"),
    ),
  ];
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

/** What the named model writes for this request, before the output budget is applied. */
export function planOutput(request: ScriptInput): PlannedItem[] {
  if (request.model === "thinker") return [thinking(request), ...(forcedToolCall(request) ?? [message(`You said: ${lastUserText(request.input)}`)])];
  const forced = forcedToolCall(request);
  if (forced) return forced;
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
