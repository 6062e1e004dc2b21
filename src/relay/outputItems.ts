import type { JsonObject, JsonValue, OutputItem, RelayEvent } from "./types";

// How events find the output item they belong to, and how a relay's final `output` is merged with what
// was streamed. Real relays and gateways send deltas before (or without) the events that announce their
// item, reuse an `output_index` for a second item, name the wrong item in a delta, and end with a final
// `output` that leaves streamed items out. Nothing received is dropped: a missing item is created, a
// colliding one is added beside the other, and a final output never wipes what was streamed.

/** The item kinds deltas write into. */
export type DeltaItemKind = "message" | "function_call" | "reasoning";

/**
 * Where the event's item is in `output`, or -1. `item_id` decides first, `output_index` second. When the
 * id names an item of another kind (a gateway sends function-call argument deltas under the message's
 * id), the newest item of the wanted kind is taken instead.
 */
export function findItemIndex(output: readonly OutputItem[], event: RelayEvent, kind: DeltaItemKind | null): number {
  const itemId = typeof event.item_id === "string" ? event.item_id : null;
  if (itemId !== null) {
    const byId = indexOfId(output, itemId);
    if (byId !== -1) return kind === null || output[byId].type === kind ? byId : kind === "function_call" ? lastIndexOfKind(output, kind) : -1;
  }
  const position = event.output_index;
  if (typeof position === "number" && position >= 0 && position < output.length) {
    const item = output[position];
    // An item announced under another id is a different item: never write into it by index.
    const sameItem = itemId === null || typeof item.id !== "string";
    if (sameItem && (kind === null || item.type === kind)) return position;
  }
  if (itemId === null && kind !== null && typeof position !== "number") return lastIndexOfKind(output, kind);
  return -1;
}

/** A stand-in for an item whose announcement never came: the deltas fill it, a later announcement completes it. */
export function createdItem(kind: DeltaItemKind, event: RelayEvent): OutputItem {
  const id = typeof event.item_id === "string" ? { id: event.item_id } : {};
  switch (kind) {
    case "message":
      return { ...id, type: "message", role: "assistant", status: "in_progress", content: [] };
    case "function_call":
      return { ...id, type: "function_call", status: "in_progress", arguments: "" };
    case "reasoning":
      return { ...id, type: "reasoning", summary: [] };
  }
}

/** Where an announced item goes: onto the item with its id, or a stand-in the deltas created; else it is new (-1). */
export function placementOf(output: readonly OutputItem[], event: RelayEvent, incoming: OutputItem): number {
  if (typeof incoming.id === "string") {
    const byId = indexOfId(output, incoming.id);
    if (byId !== -1) return byId;
  }
  const position = event.output_index;
  if (typeof position === "number" && position >= 0 && position < output.length) {
    const taken = output[position];
    // Same index but another id: a second item (seen from gateways), added beside the first.
    if (typeof taken.id !== "string" && taken.type === incoming.type) return position;
    if (typeof incoming.id !== "string" && taken.type === incoming.type) return position;
  }
  return -1;
}

const CONTENT_FIELDS = ["content", "arguments", "summary"] as const;

/**
 * The item to keep when the relay sends an item that was also streamed: the relay's, unless it carries
 * less text than the deltas built (an `added` after its deltas, or a final output with an empty message),
 * in which case the streamed text stays and the relay's other fields (name, call_id, status) are taken.
 */
export function settledItem(streamed: OutputItem, received: OutputItem): OutputItem {
  if (carriedTextLength(received) >= carriedTextLength(streamed)) return received;
  const merged: OutputItem = { ...received };
  for (const field of CONTENT_FIELDS) if (streamed[field] !== undefined) merged[field] = streamed[field];
  return merged;
}

/**
 * Merges the final response's `output` with the streamed items. A final item is matched to the streamed
 * item it settles: by id first; then, for a final item whose id was never streamed (relays that give the
 * final output new ids), an item of its kind with the same call_id, the same content, the same position,
 * or else the next one of its kind. Matched items keep the final fields (per `settledItem`); streamed items nothing matched are
 * kept after them, and counted. One item is never kept twice.
 */
export function mergeFinalOutput(streamed: readonly OutputItem[], final: readonly OutputItem[]): { output: OutputItem[]; omitted: number } {
  const matchOf = new Map<number, number>();
  const usedStreamed = new Set<number>();
  const match = (finalIndex: number, streamedIndex: number) => {
    matchOf.set(finalIndex, streamedIndex);
    usedStreamed.add(streamedIndex);
  };
  final.forEach((item, finalIndex) => {
    if (typeof item.id !== "string") return;
    const streamedIndex = indexOfId(streamed, item.id);
    if (streamedIndex !== -1 && !usedStreamed.has(streamedIndex)) match(finalIndex, streamedIndex);
  });
  // A streamed item whose id the final output also uses is that final item's; the rest are open.
  const finalIds = new Set(final.flatMap((item) => (typeof item.id === "string" ? [item.id] : [])));
  const open = (candidate: OutputItem, index: number, kind: string) => !usedStreamed.has(index) && candidate.type === kind && (typeof candidate.id !== "string" || !finalIds.has(candidate.id));
  const unmatched = final.map((_, finalIndex) => finalIndex).filter((finalIndex) => !matchOf.has(finalIndex));
  const passes: Array<(item: OutputItem, finalIndex: number, candidate: OutputItem, index: number) => boolean> = [
    (item, _finalIndex, candidate) => typeof item.call_id === "string" && candidate.call_id === item.call_id,
    (item, _finalIndex, candidate) => carriedTextLength(item) > 0 && carriedText(candidate) === carriedText(item),
    (_item, finalIndex, _candidate, index) => index === finalIndex,
    () => true,
  ];
  for (const fits of passes) {
    for (const finalIndex of unmatched) {
      if (matchOf.has(finalIndex)) continue;
      const item = final[finalIndex];
      const streamedIndex = streamed.findIndex((candidate, index) => open(candidate, index, item.type) && fits(item, finalIndex, candidate, index));
      if (streamedIndex !== -1) match(finalIndex, streamedIndex);
    }
  }
  const output = final.map((item, finalIndex) => {
    const streamedIndex = matchOf.get(finalIndex);
    return streamedIndex === undefined ? item : settledItem(streamed[streamedIndex], item);
  });
  let omitted = 0;
  streamed.forEach((item, index) => {
    if (usedStreamed.has(index)) return;
    output.push(item);
    omitted += 1;
  });
  return { output, omitted };
}

/** The text an item carries (message text and refusals, arguments, summaries), to compare two items by content. */
function carriedText(item: OutputItem): string {
  let text = typeof item.arguments === "string" ? item.arguments : "";
  for (const field of ["content", "summary"] as const) {
    const entries = item[field];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) if (isObject(entry)) text += stringField(entry, "text") + stringField(entry, "refusal");
  }
  return text;
}

function carriedTextLength(item: OutputItem): number {
  return carriedText(item).length;
}

function indexOfId(output: readonly OutputItem[], id: string): number {
  for (let index = 0; index < output.length; index += 1) if (output[index].id === id) return index;
  return -1;
}

function lastIndexOfKind(output: readonly OutputItem[], kind: DeltaItemKind): number {
  for (let index = output.length - 1; index >= 0; index -= 1) if (output[index].type === kind) return index;
  return -1;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringField(source: JsonObject, name: string): string {
  const value = source[name];
  return typeof value === "string" ? value : "";
}

export function arrayField(source: JsonObject, name: string): JsonValue[] {
  const value = source[name];
  return Array.isArray(value) ? value : [];
}
