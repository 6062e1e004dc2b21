import { isObject } from "../outputItems";
import type { JsonObject, JsonValue, Usage } from "../types";
import { tokenCount } from "../usage";

// Chat Completions usage in the Responses words the rest of the product reads (receipts, totals, the ledger, the
// spend guard). A figure the relay did not send stays absent: never a 0 it did not say. A figure that cannot be
// believed (negative, fractional, absurd, a string like "0x10": usage.ts) is absent too, never kept as sent.
// Fields the relay adds (OpenRouter's `cost`, `cost_details`, `is_byok`) are kept, so a billed cost is read as on
// the Responses wire.

const RENAMED = new Set(["prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details"]);

export function responsesUsageOf(raw: JsonValue | undefined): Usage | null {
  if (!isObject(raw)) return null;
  const usage: Usage = {};
  for (const [field, value] of Object.entries(raw)) if (!RENAMED.has(field) && value !== undefined) usage[field] = value;
  const input = tokenCount(raw.prompt_tokens);
  const output = tokenCount(raw.completion_tokens);
  const total = tokenCount(raw.total_tokens) ?? (input !== null && output !== null ? input + output : null);
  if (input !== null) usage.input_tokens = input;
  if (output !== null) usage.output_tokens = output;
  if (total !== null) usage.total_tokens = total;
  const promptDetails = isObject(raw.prompt_tokens_details) ? withoutField(raw.prompt_tokens_details, "cached_tokens") : null;
  // DeepSeek reports its cache hits beside the details instead of inside them.
  const cached = tokenCount(isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details.cached_tokens : undefined) ?? tokenCount(raw.prompt_cache_hit_tokens);
  if (promptDetails || cached !== null) usage.input_tokens_details = { ...(promptDetails ?? {}), ...(cached !== null ? { cached_tokens: cached } : {}) };
  if (isObject(raw.completion_tokens_details)) {
    const reasoning = tokenCount(raw.completion_tokens_details.reasoning_tokens);
    usage.output_tokens_details = { ...withoutField(raw.completion_tokens_details, "reasoning_tokens"), ...(reasoning !== null ? { reasoning_tokens: reasoning } : {}) } as JsonObject;
  }
  return usage;
}

function withoutField(source: JsonObject, field: string): JsonObject {
  const { [field]: _left, ...rest } = source;
  return rest;
}
