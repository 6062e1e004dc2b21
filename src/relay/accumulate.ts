import type { JsonObject, JsonValue, OutputItem, RelayEvent, ResponseSnapshot, ServiceError, Usage } from "./types";

// A pure reducer from service events to a snapshot of the response. Updates share structure with the
// previous snapshot (only the touched item and part are copied), so one delta costs a few small
// allocations, never a copy of the text received so far.

export const emptySnapshot: ResponseSnapshot = Object.freeze({
  responseId: null,
  model: null,
  status: null,
  output: [],
  usage: null,
  incompleteReason: null,
  error: null,
  terminal: null,
  unknownEvents: [],
});

type ItemUpdate = (item: OutputItem) => OutputItem;

export function accumulate(snapshot: ResponseSnapshot, event: RelayEvent): ResponseSnapshot {
  const counted = snapshot;
  switch (event.type) {
    case "response.output_text.delta":
      return appendOutputText(snapshot, event) ?? updatePart(counted, event, (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.output_text.done":
      return updatePart(counted, event, (part) => ({ ...part, text: stringField(event, "text") }));
    case "response.refusal.delta":
      return updatePart(counted, event, (part) => ({ ...part, refusal: stringField(part, "refusal") + stringField(event, "delta") }));
    case "response.refusal.done":
      return updatePart(counted, event, (part) => ({ ...part, refusal: stringField(event, "refusal") }));
    case "response.output_text.annotation.added":
      return updatePart(counted, event, (part) => ({ ...part, annotations: [...arrayField(part, "annotations"), event.annotation ?? null] }));
    case "response.function_call_arguments.delta":
      return updateItem(counted, event, (item) => ({ ...item, arguments: stringField(item, "arguments") + stringField(event, "delta") }));
    case "response.function_call_arguments.done":
      return updateItem(counted, event, (item) => ({ ...item, arguments: stringField(event, "arguments") }));
    case "response.output_item.added":
    case "response.output_item.done":
      return isObject(event.item) ? placeItem(counted, event, event.item as OutputItem) : counted;
    case "response.content_part.added":
    case "response.content_part.done":
      return isObject(event.part) ? updateItem(counted, event, (item) => withArrayEntry(item, "content", indexField(event, "content_index"), event.part as JsonObject)) : counted;
    case "response.reasoning_summary_part.added":
    case "response.reasoning_summary_part.done":
      return isObject(event.part) ? updateItem(counted, event, (item) => withArrayEntry(item, "summary", indexField(event, "summary_index"), event.part as JsonObject)) : counted;
    case "response.reasoning_summary_text.delta":
      return updateArrayEntry(counted, event, "summary", "summary_index", (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.reasoning_summary_text.done":
      return updateArrayEntry(counted, event, "summary", "summary_index", (part) => ({ ...part, text: stringField(event, "text") }));
    case "response.reasoning_text.delta":
      return updateArrayEntry(counted, event, "content", "content_index", (part) => ({ ...part, text: stringField(part, "text") + stringField(event, "delta") }));
    case "response.reasoning_text.done":
      return updateArrayEntry(counted, event, "content", "content_index", (part) => ({ ...part, text: stringField(event, "text") }));
    case "response.created":
    case "response.queued":
    case "response.in_progress":
      return applyResponseObject(counted, event.response, null);
    case "response.completed":
      return applyResponseObject(counted, event.response, "completed");
    case "response.incomplete":
      return applyResponseObject(counted, event.response, "incomplete");
    case "response.failed":
      return applyResponseObject(counted, event.response, "failed");
    case "error":
      return { ...counted, error: counted.error ?? errorFromEvent(event), terminal: counted.terminal ?? "error_event" };
    default:
      return { ...counted, unknownEvents: [...counted.unknownEvents, event] };
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
  const terminal = body.status === "completed" ? "completed" : body.status === "incomplete" ? "incomplete" : body.status === "failed" ? "failed" : null;
  return applyResponseObject(emptySnapshot, body, terminal);
}

/** The answer text: `output_text` parts of `message` items, in order. Reasoning and unknown kinds are skipped. */
export function outputTextOf(output: readonly OutputItem[]): string {
  let text = "";
  for (const item of output) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isObject(part) && part.type === "output_text" && typeof part.text === "string") text += part.text;
    }
  }
  return text;
}

export interface FunctionCallProposal {
  name: string;
  arguments: string;
  call_id: string;
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
  // The terminal response carries the output items exactly as the service holds them; prefer them
  // over what the deltas built, unless the service sent an empty list (some relays do).
  if (Array.isArray(response.output) && response.output.length > 0) next.output = response.output.filter(isObject) as OutputItem[];
  const incomplete = response.incomplete_details;
  if (isObject(incomplete) && typeof incomplete.reason === "string") next.incompleteReason = incomplete.reason;
  if (isObject(response.error) && !snapshot.error) next.error = serviceErrorFrom(response.error);
  return next;
}

function errorFromEvent(event: RelayEvent): ServiceError {
  // Two shapes exist in the wild: nested `{type:"error", error:{code,message}}` and flat `{type:"error", code, message}`.
  return serviceErrorFrom(isObject(event.error) ? event.error : event);
}

function serviceErrorFrom(source: JsonObject): ServiceError {
  const code = typeof source.code === "string" ? source.code : typeof source.code === "number" ? String(source.code) : null;
  const type = typeof source.type === "string" && source.type !== "error" ? source.type : null;
  const message = typeof source.message === "string" ? source.message : "The service reported an error without a message.";
  return { code: code ?? type, message, type };
}

/**
 * The hot path: thousands of text deltas per answer. Builds the new snapshot with explicit literals
 * (no spreads, no closures); returns null when the event does not fit the simple case.
 */
function appendOutputText(snapshot: ResponseSnapshot, event: RelayEvent): ResponseSnapshot | null {
  const outputIndex = event.output_index;
  const contentIndex = event.content_index ?? 0;
  const delta = event.delta;
  if (typeof outputIndex !== "number" || typeof contentIndex !== "number" || typeof delta !== "string") return null;
  const item = snapshot.output[outputIndex];
  const content = item?.content;
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
    unknownEvents: snapshot.unknownEvents,
  };
}

function placeItem(snapshot: ResponseSnapshot, event: RelayEvent, item: OutputItem): ResponseSnapshot {
  const index = locateItem(snapshot, event, item);
  const output = snapshot.output.slice();
  if (index === -1) output.push(item);
  else output[index] = item;
  return withOutput(snapshot, output);
}

function updateItem(snapshot: ResponseSnapshot, event: RelayEvent, update: ItemUpdate): ResponseSnapshot {
  const index = locateItem(snapshot, event, null);
  if (index === -1 || index >= snapshot.output.length) return snapshot;
  const output = snapshot.output.slice();
  output[index] = update(output[index]);
  return withOutput(snapshot, output);
}

function updatePart(snapshot: ResponseSnapshot, event: RelayEvent, update: (part: JsonObject) => JsonObject): ResponseSnapshot {
  return updateArrayEntry(snapshot, event, "content", "content_index", update);
}

function updateArrayEntry(
  snapshot: ResponseSnapshot,
  event: RelayEvent,
  field: "content" | "summary",
  indexName: "content_index" | "summary_index",
  update: (part: JsonObject) => JsonObject,
): ResponseSnapshot {
  return updateItem(snapshot, event, (item) => {
    const index = indexField(event, indexName);
    const entries = arrayField(item, field);
    // A delta may arrive before its part was announced (seen with some relays): start an empty part.
    const current = entries[index];
    return withArrayEntry(item, field, index, update(isObject(current) ? current : {}));
  });
}

function withArrayEntry(item: OutputItem, field: string, index: number, entry: JsonObject): OutputItem {
  const entries = arrayField(item, field).slice();
  while (entries.length < index) entries.push({});
  entries[index] = entry;
  return { ...item, [field]: entries };
}

/** Finds the item an event refers to: by `output_index`, else by `item_id`, else the last item. */
function locateItem(snapshot: ResponseSnapshot, event: RelayEvent, incoming: OutputItem | null): number {
  if (typeof event.output_index === "number" && event.output_index >= 0) {
    return event.output_index <= snapshot.output.length ? event.output_index : -1;
  }
  const itemId = typeof event.item_id === "string" ? event.item_id : incoming && typeof incoming.id === "string" ? incoming.id : null;
  if (itemId !== null) {
    const found = snapshot.output.findIndex((item) => item.id === itemId);
    if (found !== -1 || incoming) return found;
  }
  return incoming ? -1 : snapshot.output.length - 1;
}

function indexField(source: JsonObject, name: string): number {
  const value = source[name];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 10_000 ? value : 0;
}

function stringField(source: JsonObject, name: string): string {
  const value = source[name];
  return typeof value === "string" ? value : "";
}

function arrayField(source: JsonObject, name: string): JsonValue[] {
  const value = source[name];
  return Array.isArray(value) ? value : [];
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
