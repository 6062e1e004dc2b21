import { newId } from "./ids";
import type { WireEvent } from "./responseEvents";

// A stream as a gateway that translates Responses to Chat Completions and back sends it, with every
// quirk seen in the Portkey 2.x captures (test/fixtures/reference/gateway/pk2-chat-*.sse):
// - usage is all zeros from `response.created` to the end (the gateway never asks its upstream);
// - an empty message item is always opened at output_index 0, and all text goes into it;
// - a function call's `output_item.added` reuses output_index 0, its argument deltas carry the message's
//   item_id, and it never gets `function_call_arguments.done` or `output_item.done`;
// - the final `response.output` lists only the message, leaving the function calls out;
// - an answer cut at the output budget still ends with `response.completed` (the truncation is invisible);
// - no reasoning items (Chat Completions has none).
// Failures after HTTP 200 (`response.failed`, `error`) pass through unchanged.

const ZERO_USAGE = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

export function translatedEvents(events: readonly WireEvent[]): WireEvent[] {
  const messageId = (events.find((event) => event.type === "response.output_item.added" && (event.item as { type?: string }).type === "message")?.item as { id?: string } | undefined)?.id ?? newId("msg");
  const out: WireEvent[] = [];
  let text = "";
  let opened = false;
  const where = { item_id: messageId, output_index: 0 };
  const openMessage = () => {
    if (opened) return;
    opened = true;
    out.push({ type: "response.output_item.added", output_index: 0, item: { id: messageId, type: "message", role: "assistant", status: "in_progress", content: [] } });
    out.push({ type: "response.content_part.added", ...where, content_index: 0, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
  };
  for (const event of events) {
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
        out.push({ ...event, response: { ...(event.response as object), usage: ZERO_USAGE } });
        if (event.type === "response.in_progress") openMessage();
        break;
      case "response.output_text.delta":
        openMessage();
        text += String(event.delta);
        out.push({ type: event.type, ...where, content_index: 0, delta: event.delta, logprobs: [] });
        break;
      case "response.output_item.added": {
        const item = event.item as { type?: string; id?: string; call_id?: string; name?: string };
        if (item.type !== "function_call") break;
        openMessage();
        out.push({ type: event.type, output_index: 0, item: { id: item.id, type: "function_call", call_id: item.call_id, name: item.name, arguments: "", status: "in_progress" } });
        break;
      }
      case "response.function_call_arguments.delta":
        out.push({ type: event.type, ...where, delta: event.delta });
        break;
      case "response.completed":
      case "response.incomplete": {
        openMessage();
        const part = { type: "output_text", text, annotations: [], logprobs: [] };
        const message = { id: messageId, type: "message", role: "assistant", status: "completed", content: [part] };
        out.push({ type: "response.output_text.done", ...where, content_index: 0, text, logprobs: [] });
        out.push({ type: "response.content_part.done", ...where, content_index: 0, part });
        out.push({ type: "response.output_item.done", output_index: 0, item: message });
        const response = event.response as Record<string, unknown>;
        out.push({ type: "response.completed", response: { ...response, status: "completed", incomplete_details: null, output: [message], usage: ZERO_USAGE } });
        break;
      }
      case "response.failed":
      case "error":
        out.push(event);
        break;
      default:
        // Item and part events of the original, reasoning, and the `.done` events the gateway never sends.
        break;
    }
  }
  return out;
}
