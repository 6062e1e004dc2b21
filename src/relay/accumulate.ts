import * as l10n from "@vscode/l10n";
import { REFUSED_TOOL_CALLS_FIELD } from "./chatCompletions/chunkTranslator";
import type { DeltaItemKind } from "./outputItems";
import { arrayField, createdItem, findItemIndex, isObject, mergeFinalOutput, placementOf, settledItem, stringField } from "./outputItems";
import { CHAT_COMPLETIONS_CHUNK_TYPE, UNPARSABLE_FRAME_TYPE } from "./sseDecoder";
import type { FunctionCallProposal, JsonObject, JsonValue, OutputItem, RelayEvent, ResponseSnapshot, ServiceError, Usage } from "./types";

// A pure reducer from service events to a snapshot of the response. Updates share structure with the
// previous snapshot (only the touched item and part are copied), so one delta costs a few small
// allocations, never a copy of the text received so far. It loses nothing a relay sends: deltas create
// the item or part they need, items are found by id before index (outputItems.ts), and the final
// response is merged with what was streamed instead of replacing it.

export const emptySnapshot: ResponseSnapshot = Object.freeze({
  responseId: null,
  model: null,
  status: null,
  output: [],
  usage: null,
  incompleteReason: null,
  error: null,
  terminal: null,
  unknownEventCount: 0,
  unreadableEventCount: 0,
  omittedStreamedItems: 0,
  refusedToolCalls: 0,
});

export const CHAT_COMPLETIONS_FORMAT_CODE = "chat_completions_format";
const chatCompletionsMessage = (): string =>
  l10n.t("The relay answered in Chat Completions format for this model, not in the Responses format, so the answer cannot be read. The relay (or a gateway in front of it) maps this model to a provider without Responses support.");

type PartUpdate = (part: JsonObject) => JsonObject;

export function accumulate(snapshot: ResponseSnapshot, event: RelayEvent): ResponseSnapshot {
  switch (event.type) {
    case "response.output_text.delta":
      return appendOutputText(snapshot, event) ?? updatePart(snapshot, event, OUTPUT_TEXT, (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.output_text.done":
      return updatePart(snapshot, event, OUTPUT_TEXT, (part) => settledField(part, event, "text"));
    case "response.refusal.delta":
      return updatePart(snapshot, event, REFUSAL, (part) => ({ ...part, refusal: stringField(part, "refusal") + stringField(event, "delta") }));
    case "response.refusal.done":
      return updatePart(snapshot, event, REFUSAL, (part) => settledField(part, event, "refusal"));
    case "response.output_text.annotation.added":
      return updatePart(snapshot, event, OUTPUT_TEXT, (part) => ({ ...part, annotations: [...arrayField(part, "annotations"), event.annotation ?? null] }));
    case "response.function_call_arguments.delta":
      return updateItem(snapshot, event, "function_call", (item) => ({ ...item, arguments: stringField(item, "arguments") + stringField(event, "delta") }));
    case "response.function_call_arguments.done":
      return updateItem(snapshot, event, "function_call", (item) => settledField(item, event, "arguments"));
    case "response.output_item.added":
    case "response.output_item.done":
      return isObject(event.item) && typeof event.item.type === "string" ? placeItem(snapshot, event, event.item as OutputItem) : snapshot;
    case "response.content_part.added":
    case "response.content_part.done":
      return isObject(event.part) ? updatePart(snapshot, event, ANY_CONTENT_PART, (part) => settledPart(part, event.part as JsonObject)) : snapshot;
    case "response.reasoning_summary_part.added":
    case "response.reasoning_summary_part.done":
      return isObject(event.part) ? updatePart(snapshot, event, SUMMARY_TEXT, (part) => settledPart(part, event.part as JsonObject)) : snapshot;
    case "response.reasoning_summary_text.delta":
      return updatePart(snapshot, event, SUMMARY_TEXT, (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.reasoning_summary_text.done":
      return updatePart(snapshot, event, SUMMARY_TEXT, (part) => settledField(part, event, "text"));
    case "response.reasoning_text.delta":
      return updatePart(snapshot, event, REASONING_TEXT, (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.reasoning_text.done":
      return updatePart(snapshot, event, REASONING_TEXT, (part) => settledField(part, event, "text"));
    case "response.created":
    case "response.queued":
    case "response.in_progress":
      return applyResponseObject(snapshot, event.response, null);
    case "response.completed":
      return applyResponseObject(snapshot, event.response, "completed");
    case "response.incomplete":
      return applyResponseObject(snapshot, event.response, "incomplete");
    case "response.failed":
      return withTopLevelError(applyResponseObject(snapshot, event.response, "failed"), event);
    case "error":
      return { ...snapshot, error: snapshot.error ?? errorFromEvent(event), terminal: snapshot.terminal ?? "error_event" };
    case UNPARSABLE_FRAME_TYPE:
      return { ...snapshot, unreadableEventCount: snapshot.unreadableEventCount + 1 };
    case CHAT_COMPLETIONS_CHUNK_TYPE:
      return { ...snapshot, error: snapshot.error ?? { code: CHAT_COMPLETIONS_FORMAT_CODE, message: chatCompletionsMessage() }, terminal: snapshot.terminal ?? "failed" };
    default:
      return { ...snapshot, unknownEventCount: snapshot.unknownEventCount + 1 };
  }
}

const JOINABLE_DELTAS = new Set(["response.output_text.delta", "response.function_call_arguments.delta"]);

/**
 * Applies a batch of events (one received chunk). Runs of text or argument deltas aimed at the same
 * part are joined and applied once: the result equals `events.reduce(accumulate, snapshot)`, but a
 * chunk of twenty deltas costs one copy of the touched item instead of twenty.
 */
export function accumulateEvents(snapshot: ResponseSnapshot, events: readonly RelayEvent[]): ResponseSnapshot {
  let current = snapshot;
  let index = 0;
  while (index < events.length) {
    const first = events[index];
    let end = index + 1;
    if (JOINABLE_DELTAS.has(first.type) && typeof first.delta === "string") {
      let joined = first.delta;
      while (end < events.length && sameDeltaTarget(first, events[end])) {
        joined += events[end].delta as string;
        end += 1;
      }
      current = accumulate(current, end - index > 1 ? { ...first, delta: joined } : first);
    } else {
      current = accumulate(current, first);
    }
    index = end;
  }
  return current;
}

function sameDeltaTarget(first: RelayEvent, next: RelayEvent): boolean {
  return (
    next.type === first.type &&
    typeof next.delta === "string" &&
    next.output_index === first.output_index &&
    next.content_index === first.content_index &&
    next.item_id === first.item_id
  );
}

/** Builds the snapshot of a non-streamed response body, so both modes are read the same way. */
export function snapshotFromResponseBody(body: JsonObject): ResponseSnapshot {
  if (body.object === "chat.completion") return accumulate(emptySnapshot, { type: CHAT_COMPLETIONS_CHUNK_TYPE });
  const terminal = body.status === "completed" ? "completed" : body.status === "incomplete" ? "incomplete" : body.status === "failed" ? "failed" : null;
  return applyResponseObject(emptySnapshot, body, terminal);
}

/** The answer text: `output_text` parts of `message` items, in order. Reasoning and unknown kinds are skipped. */
export function outputTextOf(output: readonly OutputItem[]): string {
  return messagePartsText(output, "output_text", "text");
}

/** What the model refused, in its own words: `refusal` parts of `message` items, in order; "" when it refused nothing. */
export function refusalTextOf(output: readonly OutputItem[]): string {
  return messagePartsText(output, "refusal", "refusal");
}

function messagePartsText(output: readonly OutputItem[], partType: string, field: "text" | "refusal"): string {
  let text = "";
  for (const item of output) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isObject(part) && part.type === partType && typeof part[field] === "string") text += part[field];
    }
  }
  return text;
}

export function functionCallsOf(output: readonly OutputItem[]): FunctionCallProposal[] {
  return output
    .filter((item) => item.type === "function_call")
    .map((item) => ({ name: stringField(item, "name"), arguments: stringField(item, "arguments"), call_id: stringField(item, "call_id") }));
}

function applyResponseObject(snapshot: ResponseSnapshot, response: JsonValue | undefined, terminal: ResponseSnapshot["terminal"]): ResponseSnapshot {
  const next: { -readonly [K in keyof ResponseSnapshot]: ResponseSnapshot[K] } = { ...snapshot };
  if (terminal && !snapshot.terminal) next.terminal = terminal;
  if (!isObject(response)) return next;
  if (typeof response.id === "string") next.responseId = response.id;
  if (typeof response.model === "string") next.model = response.model;
  if (typeof response.status === "string") next.status = response.status;
  if (isObject(response.usage)) next.usage = response.usage as Usage;
  // Only a final response settles the items; `created`/`in_progress` carry none worth keeping.
  if (terminal && Array.isArray(response.output)) {
    const merged = mergeFinalOutput(snapshot.output, response.output.filter(isObject) as OutputItem[]);
    next.output = merged.output;
    // Items a failed response leaves out are the unfinished ones; only a finished answer is expected to hold all.
    if (terminal !== "failed") next.omittedStreamedItems = merged.omitted;
  }
  const refused = response[REFUSED_TOOL_CALLS_FIELD];
  if (typeof refused === "number" && Number.isSafeInteger(refused) && refused > 0) next.refusedToolCalls = refused;
  const incomplete = response.incomplete_details;
  if (isObject(incomplete) && typeof incomplete.reason === "string") next.incompleteReason = incomplete.reason;
  if (isObject(response.error) && !snapshot.error) next.error = serviceErrorFrom(response.error);
  return next;
}

/** Some relays put the error of `response.failed` beside the response instead of inside it. */
function withTopLevelError(snapshot: ResponseSnapshot, event: RelayEvent): ResponseSnapshot {
  if (snapshot.error || event.error === undefined || event.error === null) return snapshot;
  return { ...snapshot, error: errorFromEvent(event) };
}

/**
 * A `.done` event settles the text its deltas built; one that leaves the field out (some relays send
 * only the ids) says nothing new, so the streamed text stays.
 */
function settledField<T extends JsonObject>(target: T, event: RelayEvent, field: "text" | "refusal" | "arguments"): T {
  const settled = event[field];
  return typeof settled === "string" ? { ...target, [field]: settled } : target;
}

function errorFromEvent(event: RelayEvent): ServiceError {
  // Shapes in the wild: nested `{type:"error", error:{code,message}}`, flat `{type:"error", code, message}`,
  // a typeless `{"error":{...}}` frame, and `{"error":"text"}`.
  if (typeof event.error === "string") return { code: null, message: event.error, type: null };
  return serviceErrorFrom(isObject(event.error) ? event.error : event);
}

function serviceErrorFrom(source: JsonObject): ServiceError {
  // Relays often send an empty code; an empty string says nothing, so it counts as none.
  const code = typeof source.code === "string" && source.code !== "" ? source.code : typeof source.code === "number" ? String(source.code) : null;
  const type = typeof source.type === "string" && source.type !== "error" && source.type !== "" ? source.type : null;
  const message = typeof source.message === "string" && source.message !== "" ? source.message : l10n.t("The service reported an error without a message.");
  return { code: code ?? type, message, type };
}

/**
 * The hot path: thousands of text deltas per answer, each naming the item it belongs to. Builds the new
 * snapshot with explicit literals (no spreads, no closures); returns null when the event does not fit
 * the simple case (its item or part not yet there, or named differently).
 */
function appendOutputText(snapshot: ResponseSnapshot, event: RelayEvent): ResponseSnapshot | null {
  const outputIndex = event.output_index;
  const contentIndex = event.content_index ?? 0;
  const delta = event.delta;
  if (typeof outputIndex !== "number" || typeof contentIndex !== "number" || typeof delta !== "string") return null;
  const item = snapshot.output[outputIndex];
  if (item === undefined || item.type !== "message" || (event.item_id !== undefined && item.id !== event.item_id)) return null;
  const content = item.content;
  if (!Array.isArray(content)) return null;
  const part = content[contentIndex];
  if (!isObject(part) || typeof part.text !== "string") return null;
  const nextContent = content.slice();
  nextContent[contentIndex] = { ...part, text: part.text + delta };
  const output = snapshot.output.slice();
  output[outputIndex] = { ...item, content: nextContent };
  return withOutput(snapshot, output);
}

function withOutput(snapshot: ResponseSnapshot, output: readonly OutputItem[]): ResponseSnapshot {
  return {
    responseId: snapshot.responseId,
    model: snapshot.model,
    status: snapshot.status,
    output,
    usage: snapshot.usage,
    incompleteReason: snapshot.incompleteReason,
    error: snapshot.error,
    terminal: snapshot.terminal,
    unknownEventCount: snapshot.unknownEventCount,
    unreadableEventCount: snapshot.unreadableEventCount,
    omittedStreamedItems: snapshot.omittedStreamedItems,
    refusedToolCalls: snapshot.refusedToolCalls,
  };
}

function placeItem(snapshot: ResponseSnapshot, event: RelayEvent, item: OutputItem): ResponseSnapshot {
  const index = placementOf(snapshot.output, event, item);
  const output = snapshot.output.slice();
  if (index === -1) output.push(item);
  else output[index] = settledItem(output[index], item);
  return withOutput(snapshot, output);
}

/**
 * Applies `update` to the event's item, first creating the item (of kind `created`) when its announcement
 * never came. `kind` null accepts an item of any kind (part events of messages and reasoning alike).
 */
function updateItem(snapshot: ResponseSnapshot, event: RelayEvent, kind: DeltaItemKind | null, update: (item: OutputItem) => OutputItem, created: DeltaItemKind = kind ?? "message"): ResponseSnapshot {
  const output = snapshot.output.slice();
  let index = findItemIndex(output, event, kind);
  if (index === -1) {
    const stand = createdItem(created, event);
    // The id may belong to an item of another kind (a gateway's mislabelled delta); two items never share one.
    if (typeof stand.id === "string" && output.some((item) => item.id === stand.id)) delete stand.id;
    index = output.push(stand) - 1;
  }
  output[index] = update(output[index]);
  return withOutput(snapshot, output);
}

/** Which part of which item a part event writes into, and what to create when either is missing. */
interface PartTarget {
  /** The item kind to look for; null takes an item of any kind. */
  match: DeltaItemKind | null;
  create: DeltaItemKind;
  field: "content" | "summary";
  indexName: "content_index" | "summary_index";
  emptyPart: () => JsonObject;
}

const OUTPUT_TEXT: PartTarget = { match: "message", create: "message", field: "content", indexName: "content_index", emptyPart: () => ({ type: "output_text", text: "", annotations: [] }) };
const REFUSAL: PartTarget = { match: "message", create: "message", field: "content", indexName: "content_index", emptyPart: () => ({ type: "refusal", refusal: "" }) };
/** `content_part.*` events announce parts of messages and of reasoning items alike. */
const ANY_CONTENT_PART: PartTarget = { ...OUTPUT_TEXT, match: null };
const SUMMARY_TEXT: PartTarget = { match: "reasoning", create: "reasoning", field: "summary", indexName: "summary_index", emptyPart: () => ({ type: "summary_text", text: "" }) };
const REASONING_TEXT: PartTarget = { match: "reasoning", create: "reasoning", field: "content", indexName: "content_index", emptyPart: () => ({ type: "reasoning_text", text: "" }) };

/** Applies `update` to one entry of the item's `content` or `summary`, creating the item or entry if missing. */
function updatePart(snapshot: ResponseSnapshot, event: RelayEvent, target: PartTarget, update: PartUpdate): ResponseSnapshot {
  const write = (item: OutputItem): OutputItem => {
    const index = indexField(event, target.indexName);
    const entries = arrayField(item, target.field).slice();
    while (entries.length < index) entries.push(target.emptyPart());
    const current = entries[index];
    entries[index] = update(isObject(current) ? current : target.emptyPart());
    return { ...item, [target.field]: entries };
  };
  return updateItem(snapshot, event, target.match, write, target.create);
}

/** A part announcement after its deltas must not wipe their text. */
function settledPart(current: JsonObject, announced: JsonObject): JsonObject {
  const announcedText = stringField(announced, "text") + stringField(announced, "refusal");
  const currentText = stringField(current, "text") + stringField(current, "refusal");
  return announcedText.length >= currentText.length ? announced : { ...announced, ...(typeof current.text === "string" ? { text: current.text } : {}), ...(typeof current.refusal === "string" ? { refusal: current.refusal } : {}) };
}

function indexField(source: JsonObject, name: string): number {
  const value = source[name];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 10_000 ? value : 0;
}

