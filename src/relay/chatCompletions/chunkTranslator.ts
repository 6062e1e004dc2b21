import { randomUUID } from "node:crypto";
import { isObject } from "../outputItems";
import type { JsonObject, JsonValue, OutputItem, RelayEvent, Usage } from "../types";
import { CHAT_REASONING_FIELD, ChatReasoningCollector } from "./chatReasoning";
import { responsesUsageOf } from "./usageMapping";

// Chat Completions chunks said as the Responses events the client already reads, so the snapshot, the outcome,
// the receipt and everything after them are the same whichever wire a turn used (ARCHITECTURE.md). The answer is
// settled only by a `finish_reason` followed by the end of the stream (`data: [DONE]` or the body's end): usage
// often arrives in a chunk after the finish, so the finish alone settles nothing. Without a finish_reason nothing
// terminal is said, and the client reads the stream as interrupted. A chunk with an `error` is the end: the text
// so far stays, the error is the outcome.
//
// As strict as the Responses reader: a `finish_reason` other than `tool_calls` (or `length`, `content_filter`) while
// a tool call is half-sent (no name, or arguments that are not whole JSON) is an incomplete answer, so nothing runs
// and nothing is sent on its own. Two ids are never merged into one call: a piece with another id under a used
// index is a new call, and an id already used (a gateway that repeats it on two indices) or a missing one gets a
// made-up id that is unique everywhere, so every call can be answered on its own. An answer keeps at most
// MAX_TOOL_CALLS_PER_ANSWER calls; the rest are refused, counted on the response and said in the receipt.
//
// Items carry no ids: ids made up here would mean nothing to a Responses relay if the conversation moves there.

/** Type of a chunk this reader has no use for (no choices, usage or error): counted as unknown, never fatal. */
export const UNUSED_CHUNK_TYPE = "relay.chat_completions_unused_chunk";

/**
 * The most tool calls one answer may propose. Real answers propose a handful (parallel reads of a few files);
 * each call is validated, shown and possibly approved one by one, and answered in the follow-up request, so a
 * relay's runaway list (10,000 calls) would swamp the person and bill a huge follow-up.
 */
export const MAX_TOOL_CALLS_PER_ANSWER = 64;

/** The incomplete reason of an answer that ended while a tool call was half-sent. */
export const UNFINISHED_TOOL_CALL_REASON = "unfinished_tool_call";

/** The field of the terminal response object that counts the calls refused beyond MAX_TOOL_CALLS_PER_ANSWER. */
export const REFUSED_TOOL_CALLS_FIELD = "relay_chat_refused_tool_calls";

interface CallState {
  outputIndex: number;
  callId: string;
  /** The id the relay gave the call; null when it gave none. */
  relayId: string | null;
  name: string;
  arguments: string;
}

/** A call beyond the cap: its pieces are read and dropped. */
const REFUSED = "refused";

export class ChatChunkTranslator {
  private started = false;
  private ended = false;
  private responseId: string | null = null;
  private model: string | null = null;
  private outputCount = 0;
  private message: { outputIndex: number; text: string; refusal: string | null } | null = null;
  private reasoning: { outputIndex: number; text: string } | null = null;
  private readonly reasoningFields = new ChatReasoningCollector();
  /** Tool calls by the chunk's `index`; several may be open at once. */
  private readonly calls = new Map<number, CallState | typeof REFUSED>();
  private readonly callOrder: CallState[] = [];
  private readonly usedCallIds = new Set<string>();
  private refusedCalls = 0;
  private finishReason: string | null = null;
  private usage: Usage | null = null;

  /**
   * Appends the events one parsed chunk stands for to `events` (the decoder's batch: no list is made per chunk,
   * as a stream is thousands of chunks).
   */
  chunk(chunk: JsonObject, events: RelayEvent[]): void {
    if (this.ended) return;
    if (!this.started) {
      this.started = true;
      if (typeof chunk.id === "string") this.responseId = chunk.id;
      if (typeof chunk.model === "string") this.model = chunk.model;
      events.push({ type: "response.created", response: this.responseObject("in_progress") });
    }
    const usage = responsesUsageOf(chunk.usage);
    if (usage) this.usage = usage;
    if (chunk.error !== undefined && chunk.error !== null) {
      this.ended = true;
      if (usage) events.push({ type: "response.in_progress", response: { usage } });
      events.push({ type: "error", error: chunk.error });
      return;
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : null;
    if (!choices && !usage) {
      events.push({ type: UNUSED_CHUNK_TYPE });
      return;
    }
    const choice = choices ? firstChoice(choices) : undefined;
    if (isObject(choice)) {
      if (isObject(choice.delta)) this.readDelta(choice.delta, events);
      if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") this.finishReason = choice.finish_reason;
    }
  }

  /**
   * The stream's end: `data: [DONE]`, or the body ended cleanly. Appends the events that settle the answer when a
   * finish_reason came; otherwise says nothing, and the client reads an interruption.
   */
  end(events: RelayEvent[]): void {
    if (this.ended) return;
    this.ended = true;
    if (this.finishReason === null) return;
    const incompleteReason = this.finishReason === "length" ? "max_output_tokens" : this.finishReason === "content_filter" ? "content_filter" : this.finishReason !== "tool_calls" && this.callOrder.some(isHalfSent) ? UNFINISHED_TOOL_CALL_REASON : null;
    const itemStatus = incompleteReason === null ? "completed" : "incomplete";
    for (const [outputIndex, item] of this.settledItems(itemStatus)) events.push({ type: "response.output_item.done", output_index: outputIndex, item });
    if (incompleteReason === null) {
      events.push({ type: "response.completed", response: this.responseObject("completed") });
    } else {
      events.push({ type: "response.incomplete", response: { ...this.responseObject("incomplete"), incomplete_details: { reason: incompleteReason } } });
    }
  }

  private readDelta(delta: JsonObject, events: RelayEvent[]): void {
    const reasoning = this.reasoningFields.read(delta);
    // The item exists once any reasoning field came, an empty one too: it is what goes back with the answer.
    if (this.reasoningFields.received && !this.reasoning) {
      this.reasoning = { outputIndex: this.outputCount++, text: "" };
      events.push({ type: "response.output_item.added", output_index: this.reasoning.outputIndex, item: { type: "reasoning", summary: [{ type: "summary_text", text: "" }] } });
    }
    if (this.reasoning && reasoning !== "") {
      this.reasoning.text += reasoning;
      events.push({ type: "response.reasoning_summary_text.delta", output_index: this.reasoning.outputIndex, summary_index: 0, delta: reasoning });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      const message = this.openMessage(events);
      message.text += delta.content;
      events.push({ type: "response.output_text.delta", output_index: message.outputIndex, content_index: 0, delta: delta.content });
    }
    if (typeof delta.refusal === "string" && delta.refusal !== "") {
      const message = this.openMessage(events);
      if (message.refusal === null) {
        message.refusal = "";
        events.push({ type: "response.content_part.added", output_index: message.outputIndex, content_index: 1, part: { type: "refusal", refusal: "" } });
      }
      message.refusal += delta.refusal;
      events.push({ type: "response.refusal.delta", output_index: message.outputIndex, content_index: 1, delta: delta.refusal });
    }
    if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach((piece, position) => this.readToolCallPiece(piece, position, events));
  }

  private openMessage(events: RelayEvent[]): NonNullable<ChatChunkTranslator["message"]> {
    if (!this.message) {
      this.message = { outputIndex: this.outputCount++, text: "", refusal: null };
      events.push({ type: "response.output_item.added", output_index: this.message.outputIndex, item: messageItem("", null, "in_progress") });
    }
    return this.message;
  }

  /** The first piece of a call has its id and name; later ones only `index` and a fragment of the arguments. */
  private readToolCallPiece(piece: JsonValue, position: number, events: RelayEvent[]): void {
    if (!isObject(piece)) return;
    const key = typeof piece.index === "number" ? piece.index : position;
    const fn = isObject(piece.function) ? piece.function : {};
    const id = typeof piece.id === "string" && piece.id !== "" ? piece.id : null;
    let call = this.calls.get(key);
    // Another id under a used index is another call (some gateways give every parallel call index 0): never merged.
    if (call !== undefined && id !== null && (call === REFUSED || id !== call.relayId)) call = undefined;
    if (call === REFUSED) return;
    if (!call) {
      if (this.callOrder.length >= MAX_TOOL_CALLS_PER_ANSWER) {
        this.refusedCalls += 1;
        this.calls.set(key, REFUSED);
        return;
      }
      const callId = id !== null && !this.usedCallIds.has(id) ? id : madeUpCallId();
      this.usedCallIds.add(callId);
      call = { outputIndex: this.outputCount++, callId, relayId: id, name: "", arguments: "" };
      this.calls.set(key, call);
      this.callOrder.push(call);
      if (typeof fn.name === "string") call.name = fn.name;
      events.push({ type: "response.output_item.added", output_index: call.outputIndex, item: { type: "function_call", call_id: call.callId, name: call.name, arguments: "", status: "in_progress" } });
    } else if (typeof fn.name === "string" && fn.name !== "" && call.name === "") {
      call.name = fn.name;
    }
    if (typeof fn.arguments === "string" && fn.arguments !== "") {
      call.arguments += fn.arguments;
      events.push({ type: "response.function_call_arguments.delta", output_index: call.outputIndex, delta: fn.arguments });
    }
  }

  private settledItems(status: string): Array<[number, OutputItem]> {
    const items: Array<[number, OutputItem]> = [];
    if (this.reasoning) items.push([this.reasoning.outputIndex, { type: "reasoning", summary: [{ type: "summary_text", text: this.reasoning.text }], [CHAT_REASONING_FIELD]: this.reasoningFields.collected() }]);
    if (this.message) items.push([this.message.outputIndex, messageItem(this.message.text, this.message.refusal, status)]);
    for (const call of this.callOrder) items.push([call.outputIndex, { type: "function_call", call_id: call.callId, name: call.name, arguments: call.arguments, status }]);
    return items.sort((a, b) => a[0] - b[0]);
  }

  private responseObject(status: string): JsonObject {
    const response: JsonObject = { status };
    if (this.responseId !== null) response.id = this.responseId;
    if (this.model !== null) response.model = this.model;
    if (this.usage) response.usage = this.usage;
    if (this.refusedCalls > 0) response[REFUSED_TOOL_CALLS_FIELD] = this.refusedCalls;
    return response;
  }
}

/** Only the first choice is asked for (n is never sent); another would be a second answer, not more of this one. */
function firstChoice(choices: readonly JsonValue[]): JsonValue | undefined {
  for (const choice of choices) if (isObject(choice) && (choice.index === undefined || choice.index === 0)) return choice;
  return undefined;
}

function messageItem(text: string, refusal: string | null, status: string): OutputItem {
  const content: JsonObject[] = [{ type: "output_text", text, annotations: [] }];
  if (refusal !== null) content.push({ type: "refusal", refusal });
  return { type: "message", role: "assistant", status, content };
}

/**
 * A call the stream stopped in the middle of: no name, or arguments that are not whole JSON ("" is a call
 * without arguments, which models send for tools without parameters).
 */
function isHalfSent(call: CallState): boolean {
  if (call.name === "") return true;
  if (call.arguments === "") return false;
  try {
    JSON.parse(call.arguments);
    return false;
  } catch {
    return true;
  }
}

/**
 * An id for a call the relay gave none (or one already used in this answer). Unique everywhere: an id made up
 * from a counter would repeat in the next answer, and two calls of a conversation would answer to one id.
 */
function madeUpCallId(): string {
  return `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
}
