import { isObject } from "../outputItems";
import type { JsonObject, RelayEvent } from "../types";
import { ChatChunkTranslator } from "./chunkTranslator";

/**
 * A non-streamed Chat Completions answer (`object: "chat.completion"`) as the Responses response object the client
 * reads a whole body as; null when the body is not one. The choice's `message` is read as one big delta, so both
 * modes settle an answer the same way (finish_reason, usage, tool calls).
 */
export function responseObjectOfChatCompletion(body: unknown): JsonObject | null {
  if (!isObject(body) || !Array.isArray(body.choices)) return null;
  const translator = new ChatChunkTranslator();
  const choices = body.choices.map((choice) => (isObject(choice) ? { ...choice, delta: isObject(choice.message) ? withIndexedCalls(choice.message) : {} } : choice));
  const events: RelayEvent[] = [];
  translator.chunk({ ...body, choices }, events);
  translator.end(events);
  let response: JsonObject | null = null;
  const output: JsonObject[] = [];
  for (const event of events) {
    if (event.type === "response.output_item.done" && isObject(event.item)) output.push(event.item);
    if ((event.type === "response.completed" || event.type === "response.incomplete") && isObject(event.response)) response = event.response;
    if (event.type === "error") return { status: "failed", error: isObject(event.error) ? event.error : { message: String(event.error) }, output };
  }
  // No finish_reason: the relay did not say the answer is whole, and it is not read as if it had.
  return response ? { ...response, output } : { status: "in_progress", output };
}

/** A whole message's tool calls have no `index`; their position is it. */
function withIndexedCalls(message: JsonObject): JsonObject {
  if (!Array.isArray(message.tool_calls)) return message;
  return { ...message, tool_calls: message.tool_calls.map((call, index) => (isObject(call) ? { index, ...call } : call)) };
}
