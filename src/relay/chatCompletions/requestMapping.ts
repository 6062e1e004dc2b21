import { isObject } from "../outputItems";
import type { FunctionToolDefinition, InputItem, JsonObject, JsonValue, ResponseRequest } from "../types";

// The Responses request the product builds, said in Chat Completions words. The conversation stays in Responses
// items (src/chat/ never knows which wire a turn used); this is the one place they become `messages`:
// instructions the first system message, user/assistant messages with their text and image parts, function calls
// as an assistant message's `tool_calls` (ids kept), their results as `role: "tool"` messages. Reasoning items have
// no Chat Completions form and are left out (counted, so the receipt can say so); so are item kinds this wire has
// no word for (counted too), never sent half-translated.

export interface ChatMessage extends JsonObject {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | JsonObject[] | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatToolCall extends JsonObject {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatCompletionsRequest extends JsonObject {
  model: string;
  messages: ChatMessage[];
  tools?: JsonObject[];
  tool_choice?: string;
  max_tokens?: number;
  temperature?: number;
  reasoning_effort?: string;
  stream: boolean;
  stream_options?: { include_usage: boolean };
}

export interface MappedRequest {
  body: ChatCompletionsRequest;
  /** Reasoning items of the history that were not sent: Chat Completions has no way to carry them. */
  reasoningLeftOut: number;
  /** Other items this wire has no form for (built-in tool calls and the like), not sent. */
  otherItemsLeftOut: number;
}

/** What a tool message says for a call whose result is not in the history: every call needs an answer, or the request is refused. */
export const MISSING_TOOL_RESULT = "No result was recorded for this call.";

export function chatCompletionsRequest(request: ResponseRequest): MappedRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: "system", content: request.instructions });
  let reasoningLeftOut = 0;
  let otherItemsLeftOut = 0;
  for (const item of request.input) {
    const type = typeof item.type === "string" ? item.type : "message";
    if (type === "message") {
      const message = messageOf(item);
      if (message) messages.push(message);
      else otherItemsLeftOut += 1;
    } else if (type === "function_call") {
      addToolCall(messages, item);
    } else if (type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: textOf(item.call_id), content: toolOutputText(item.output) });
    } else if (type === "reasoning") {
      reasoningLeftOut += 1;
    } else {
      otherItemsLeftOut += 1;
    }
  }
  const body: ChatCompletionsRequest = { model: request.model, messages: withEveryCallAnswered(messages), stream: request.stream === true };
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(chatTool);
  if (request.tool_choice && body.tools) body.tool_choice = request.tool_choice;
  // One cap, not both: many relays and older backends know only `max_tokens` (new-api maps max_output_tokens to it).
  if (typeof request.max_output_tokens === "number") body.max_tokens = request.max_output_tokens;
  const temperature = (request as unknown as JsonObject).temperature;
  if (typeof temperature === "number") body.temperature = temperature;
  if (request.reasoning?.effort) body.reasoning_effort = request.reasoning.effort;
  if (body.stream) body.stream_options = { include_usage: true };
  return { body, reasoningLeftOut, otherItemsLeftOut };
}

function messageOf(item: InputItem): ChatMessage | null {
  const role = item.role === "developer" ? "system" : item.role;
  if (role !== "user" && role !== "assistant" && role !== "system") return null;
  const content = item.content;
  if (typeof content === "string") return { role, content };
  if (!Array.isArray(content)) return null;
  // Only a user message may carry images; assistant and system content is plain text in this wire.
  if (role === "user") return { role, content: content.flatMap(userPart) };
  return { role, content: content.map(partText).join("") };
}

function userPart(part: JsonValue): JsonObject[] {
  if (!isObject(part)) return [];
  if (part.type === "input_text" || part.type === "output_text" || part.type === "text") return [{ type: "text", text: textOf(part.text) }];
  if (part.type === "input_image") {
    const url = typeof part.image_url === "string" ? part.image_url : isObject(part.image_url) ? textOf(part.image_url.url) : "";
    const detail = typeof part.detail === "string" && part.detail !== "auto" ? { detail: part.detail } : {};
    return [{ type: "image_url", image_url: { url, ...detail } }];
  }
  return [];
}

function partText(part: JsonValue): string {
  if (!isObject(part)) return "";
  if (typeof part.text === "string") return part.text;
  if (typeof part.refusal === "string") return part.refusal;
  return "";
}

/** Consecutive calls (one response's parallel calls) go into one assistant message, with the text before them if any. */
function addToolCall(messages: ChatMessage[], item: InputItem): void {
  const call: ChatToolCall = { id: textOf(item.call_id), type: "function", function: { name: textOf(item.name), arguments: textOf(item.arguments) } };
  const last = messages[messages.length - 1];
  if (last && last.role === "assistant" && (last.tool_calls !== undefined || typeof last.content === "string")) {
    last.tool_calls = [...(last.tool_calls ?? []), call];
    return;
  }
  messages.push({ role: "assistant", content: null, tool_calls: [call] });
}

/**
 * Chat Completions refuses an assistant message whose `tool_calls` are not each followed by a tool message with
 * its id (codex#7051). The product answers every call, so this only fills a gap history could not close.
 */
function withEveryCallAnswered(messages: ChatMessage[]): ChatMessage[] {
  const answered = new Set(messages.flatMap((message) => (message.role === "tool" && message.tool_call_id ? [message.tool_call_id] : [])));
  const result: ChatMessage[] = [];
  for (const message of messages) {
    result.push(message);
    for (const call of message.tool_calls ?? []) {
      if (answered.has(call.id)) continue;
      answered.add(call.id);
      result.push({ role: "tool", tool_call_id: call.id, content: MISSING_TOOL_RESULT });
    }
  }
  // A tool message goes right after its call: the filled-in ones were placed there, the real ones already were.
  return result;
}

function chatTool(tool: FunctionToolDefinition): JsonObject {
  const fn: JsonObject = { name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: "function", function: fn };
}

function toolOutputText(output: JsonValue | undefined): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map(partText).join("");
  return output === undefined ? "" : JSON.stringify(output);
}

function textOf(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}
