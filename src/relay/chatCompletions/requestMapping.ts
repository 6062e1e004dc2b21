import { isObject } from "../outputItems";
import type { FunctionToolDefinition, InputItem, JsonObject, JsonValue, ResponseRequest } from "../types";
import type { ChatReasoning } from "./chatReasoning";
import { chatReasoningOf } from "./chatReasoning";

// The Responses request the product builds, said in Chat Completions words. The conversation stays in Responses
// items (src/chat/ never knows which wire a turn used); this is the one place they become `messages`:
// instructions the first system message, user/assistant messages with their text and image parts, function calls
// as an assistant message's `tool_calls` (ids kept), their results as `role: "tool"` messages. The reasoning a
// thinking model gave over Chat Completions (chatReasoning.ts) goes back verbatim, in the fields it came in, on the
// assistant message it belongs to: the one the answer's text and tool calls make, which follows its reasoning item.
// Reasoning items of the Responses interface have no Chat Completions form and are left out (counted, so the
// receipt can say so); so are item kinds and message parts (files) this wire has no word for (counted too), never
// sent half-translated.

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
  /** Reasoning items of the Responses interface in the history, not sent: Chat Completions has no way to carry them. */
  reasoningLeftOut: number;
  /** Other items this wire has no form for (built-in tool calls and the like), not sent. */
  otherItemsLeftOut: number;
  /** Parts of messages this wire has no form for (`input_file` and the like), not sent. */
  partsLeftOut: number;
}

/** What a tool message says for a call whose result is not in the history: every call needs an answer, or the request is refused. */
export const MISSING_TOOL_RESULT = "No result was recorded for this call.";

export function chatCompletionsRequest(request: ResponseRequest): MappedRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: "system", content: request.instructions });
  const counts = { reasoningLeftOut: 0, otherItemsLeftOut: 0, partsLeftOut: 0 };
  // The reasoning of the answer being read, until the assistant message it belongs to is made.
  let reasoning: ChatReasoning | null = null;
  const assistantMessage = (message: ChatMessage): ChatMessage => {
    const carried = reasoning === null ? message : { ...message, ...reasoning };
    reasoning = null;
    return carried;
  };
  // An answer of reasoning alone (no text, no calls) still goes back, as the empty message it was.
  const settleReasoning = () => {
    if (reasoning !== null) messages.push(assistantMessage({ role: "assistant", content: "" }));
  };
  for (const item of request.input) {
    const type = typeof item.type === "string" ? item.type : "message";
    if (type === "reasoning") {
      const carried = chatReasoningOf(item);
      if (carried === null) {
        counts.reasoningLeftOut += 1;
        continue;
      }
      settleReasoning();
      reasoning = carried;
    } else if (type === "function_call") {
      addToolCall(messages, item, assistantMessage);
    } else if (type === "message" && item.role === "assistant") {
      const message = messageOf(item, counts);
      if (message) messages.push(assistantMessage(message));
      else counts.otherItemsLeftOut += 1;
    } else {
      settleReasoning();
      if (type === "message") {
        const message = messageOf(item, counts);
        if (message) messages.push(message);
        else counts.otherItemsLeftOut += 1;
      } else if (type === "function_call_output") {
        messages.push({ role: "tool", tool_call_id: textOf(item.call_id), content: toolOutputText(item.output) });
      } else {
        counts.otherItemsLeftOut += 1;
      }
    }
  }
  settleReasoning();
  const body: ChatCompletionsRequest = { model: request.model, messages: withEveryCallAnswered(messages), stream: request.stream === true };
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(chatTool);
  if (request.tool_choice && body.tools) body.tool_choice = request.tool_choice;
  // One cap, not both: many relays and older backends know only `max_tokens` (new-api maps max_output_tokens to it).
  if (typeof request.max_output_tokens === "number") body.max_tokens = request.max_output_tokens;
  const temperature = (request as unknown as JsonObject).temperature;
  if (typeof temperature === "number") body.temperature = temperature;
  if (request.reasoning?.effort) body.reasoning_effort = request.reasoning.effort;
  if (body.stream) body.stream_options = { include_usage: true };
  return { body, ...counts };
}

function messageOf(item: InputItem, counts: { partsLeftOut: number }): ChatMessage | null {
  const role = item.role === "developer" ? "system" : item.role;
  if (role !== "user" && role !== "assistant" && role !== "system") return null;
  const content = item.content;
  if (typeof content === "string") return { role, content };
  if (!Array.isArray(content)) return null;
  // Only a user message may carry images; assistant and system content is plain text in this wire.
  if (role === "user") {
    const parts = content.map(userPart);
    counts.partsLeftOut += parts.filter((part) => part === null).length;
    return { role, content: parts.filter((part): part is JsonObject => part !== null) };
  }
  counts.partsLeftOut += content.filter((part) => !isObject(part) || (typeof part.text !== "string" && typeof part.refusal !== "string")).length;
  return { role, content: content.map(partText).join("") };
}

/** A user message part in this wire's words; null for a part it has no form for (a file, audio). */
function userPart(part: JsonValue): JsonObject | null {
  if (!isObject(part)) return null;
  if (part.type === "input_text" || part.type === "output_text" || part.type === "text") return { type: "text", text: textOf(part.text) };
  if (part.type === "input_image") {
    const url = typeof part.image_url === "string" ? part.image_url : isObject(part.image_url) ? textOf(part.image_url.url) : "";
    const detail = typeof part.detail === "string" && part.detail !== "auto" ? { detail: part.detail } : {};
    return { type: "image_url", image_url: { url, ...detail } };
  }
  return null;
}

function partText(part: JsonValue): string {
  if (!isObject(part)) return "";
  if (typeof part.text === "string") return part.text;
  if (typeof part.refusal === "string") return part.refusal;
  return "";
}

/**
 * Consecutive calls (one response's parallel calls) go into one assistant message, with the text before them if
 * any; a call after a reasoning item starts the message that reasoning belongs to.
 */
function addToolCall(messages: ChatMessage[], item: InputItem, assistantMessage: (message: ChatMessage) => ChatMessage): void {
  const call: ChatToolCall = { id: textOf(item.call_id), type: "function", function: { name: textOf(item.name), arguments: textOf(item.arguments) } };
  const carried = assistantMessage({ role: "assistant", content: null, tool_calls: [call] });
  const last = messages[messages.length - 1];
  if (isReasoningFree(carried) && last && last.role === "assistant" && (last.tool_calls !== undefined || typeof last.content === "string")) {
    last.tool_calls = [...(last.tool_calls ?? []), call];
    return;
  }
  messages.push(carried);
}

/** The message carries no reasoning of its own, so it may join the assistant message before it. */
function isReasoningFree(message: ChatMessage): boolean {
  return message.reasoning_content === undefined && message.reasoning === undefined && message.reasoning_details === undefined;
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
