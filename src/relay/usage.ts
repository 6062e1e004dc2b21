import { isObject } from "./outputItems";
import { saneNumber } from "./saneNumber";
import type { JsonObject, JsonValue, OutputItem, Usage } from "./types";

// What the relay said the request used, when that can be believed. Gateways that translate to Chat
// Completions send usage objects of all zeros from start to finish (they never ask their upstream), and
// some relays send no usage at all. Such a figure is "not reported": a receipt never shows it and a total
// never adds it as 0, because the relay still billed the request.
//
// Relays are other people's servers, and their figures drive the spend warning, the context meter, costs and
// totals: an `input_tokens` of -1e9 made a 75,000-token follow-up go without the warning (and the warning show
// a negative cost), two reports of 1e308 made the totals Infinity, and `cached_tokens: "0x10"` was printed as
// sent. A token count is a whole number from 0 to MAX_TOKENS_PER_REQUEST; anything else is unknown, exactly as
// an absurd price is (saneNumber.ts): left out of the usage that is shown, estimated from and added up.

/**
 * The most tokens one request is believed to use, input and output together. The largest context windows
 * offered in 2026 are around 10 million tokens (Llama 4 Scout); ten times that is room for any real request
 * and its reasoning, while a relay's garbage (1e12, 1e308, 2^53) is far above it.
 */
export const MAX_TOKENS_PER_REQUEST = 100_000_000;

/** The token figures a usage object carries, top level and in its details, that are read as counts. */
const TOP_FIGURES = ["input_tokens", "output_tokens", "total_tokens"] as const;
const DETAIL_FIGURES: Readonly<Record<string, readonly string[]>> = {
  input_tokens_details: ["cached_tokens"],
  output_tokens_details: ["reasoning_tokens"],
};

/** `value` when it is a token count that can be believed: a whole number from 0 to MAX_TOKENS_PER_REQUEST; else null. */
export function tokenCount(value: unknown): number | null {
  const number = saneNumber(value, { max: MAX_TOKENS_PER_REQUEST });
  return number !== null && Number.isInteger(number) ? number : null;
}

/**
 * The usage to show and add up, or null when it is missing, carries no figure that can be believed, or is
 * all zeros for a non-empty answer. Figures that cannot be believed are left out of it (unknown); the rest
 * of what the relay sent (OpenRouter's `cost`, other details) stays as it came.
 */
export function countedUsage(usage: Usage | null, output: readonly OutputItem[]): Usage | null {
  if (!isObject(usage)) return null;
  const sane = saneUsage(usage);
  const figures = TOP_FIGURES.map((field) => sane[field]).filter((value): value is number => typeof value === "number");
  if (figures.length === 0) return null;
  if (figures.every((value) => value === 0) && hasAnswer(output)) return null;
  return sane;
}

/** The usage with every token figure that cannot be believed left out (a copy only when one is). */
export function saneUsage(usage: Usage): Usage {
  let sane: Usage = usage;
  const copy = (): Usage => (sane === usage ? (sane = { ...usage }) : sane);
  for (const field of TOP_FIGURES) {
    if (usage[field] !== undefined && tokenCount(usage[field]) === null) delete copy()[field];
  }
  for (const [field, names] of Object.entries(DETAIL_FIGURES)) {
    const details = usage[field];
    if (details === undefined) continue;
    const kept = isObject(details) ? saneDetails(details, names) : null;
    if (kept === details) continue;
    if (kept === null) delete copy()[field];
    else copy()[field] = kept;
  }
  return sane;
}

function saneDetails(details: JsonObject, names: readonly string[]): JsonObject {
  let kept = details;
  for (const name of names) {
    if (details[name] === undefined || tokenCount(details[name]) !== null) continue;
    if (kept === details) kept = { ...details };
    delete kept[name];
  }
  return kept;
}

/** A figure of a usage object read as a token count (null when absent or not believable). */
export function usageFigure(usage: Usage | null | undefined, field: (typeof TOP_FIGURES)[number]): number | null {
  return tokenCount(usage?.[field]);
}

/** Cached input tokens and reasoning tokens, read the same way. */
export function usageDetail(usage: Usage | null | undefined, detail: "cached_tokens" | "reasoning_tokens"): number | null {
  const details: JsonValue | undefined = detail === "cached_tokens" ? usage?.input_tokens_details : usage?.output_tokens_details;
  return isObject(details) ? tokenCount(details[detail]) : null;
}

/** Any function call, reasoning or other item, or a message with text: output that cost tokens. */
function hasAnswer(output: readonly OutputItem[]): boolean {
  return output.some((item) => {
    if (item.type !== "message") return true;
    const parts = Array.isArray(item.content) ? item.content : [];
    return parts.some((part) => isObject(part) && ((typeof part.text === "string" && part.text !== "") || (typeof part.refusal === "string" && part.refusal !== "")));
  });
}
