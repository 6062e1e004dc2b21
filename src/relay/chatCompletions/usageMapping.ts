import { saneNumber } from "../saneNumber";
import { isObject } from "../outputItems";
import type { JsonObject, JsonValue, Usage } from "../types";

// Chat Completions usage in the Responses words the rest of the product reads (receipts, totals, the ledger, the
// spend guard). A figure the relay did not send stays absent: never a 0 it did not say. Fields the relay adds
// (OpenRouter's `cost`, `cost_details`, `is_byok`) are kept, so a billed cost is read as on the Responses wire.

const RENAMED = new Set(["prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details"]);

export function responsesUsageOf(raw: JsonValue | undefined): Usage | null {
  if (!isObject(raw)) return null;
  const usage: Usage = {};
  for (const [field, value] of Object.entries(raw)) if (!RENAMED.has(field) && value !== undefined) usage[field] = value;
  const input = count(raw.prompt_tokens);
  const output = count(raw.completion_tokens);
  const total = count(raw.total_tokens) ?? (input !== null && output !== null ? input + output : null);
  if (input !== null) usage.input_tokens = input;
  if (output !== null) usage.output_tokens = output;
  if (total !== null) usage.total_tokens = total;
  const promptDetails = isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : null;
  // DeepSeek reports its cache hits beside the details instead of inside them.
  const cached = count(promptDetails?.cached_tokens) ?? count(raw.prompt_cache_hit_tokens);
  if (promptDetails || cached !== null) usage.input_tokens_details = { ...(promptDetails ?? {}), ...(cached !== null ? { cached_tokens: cached } : {}) };
  const completionDetails = isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : null;
  if (completionDetails) usage.output_tokens_details = { ...completionDetails } as JsonObject;
  return usage;
}

/** Far above any real request's token count; a larger figure is a relay's garbage, not usage. */
const MAX_TOKENS = 1e12;

function count(value: JsonValue | undefined): number | null {
  const number = saneNumber(value, { max: MAX_TOKENS });
  return number !== null && Number.isInteger(number) && number >= 0 ? number : null;
}
