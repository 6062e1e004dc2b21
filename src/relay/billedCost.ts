import { isObject } from "./outputItems";
import { MAX_REQUEST_COST, saneNumber } from "./saneNumber";
import type { BilledCost, Usage } from "./types";

// What the relay says it charged for one request, where it says so: OpenRouter puts `usage.cost` (in
// credits, which are US dollars) into the final event and the whole body; LiteLLM proxies send the
// `x-litellm-response-cost` header (US dollars) on non-streamed answers, and `usage.cost` in a stream's
// final usage (its headers leave before the answer is priced). A billed cost is a fact from the relay;
// an estimate from prices is computed elsewhere (src/chat/cost.ts) and only stands in when this is null.

export const RESPONSE_COST_HEADER = "x-litellm-response-cost";

/**
 * The billed cost of a request from its final usage and its response-cost header, or null. The usage
 * figure wins: it belongs to the answer itself. A header of 0 is not believed (LiteLLM reports 0 for
 * models it has no price for, litellm#13790), nor is anything negative, absurd or not a plain number (saneNumber.ts).
 */
export function billedCostOf(usage: Usage | null, responseCostHeader: string | string[] | undefined): BilledCost | null {
  const fromUsage = saneNumber(isObject(usage) ? usage.cost : undefined, { max: MAX_REQUEST_COST });
  if (fromUsage !== null) return { amount: fromUsage, currency: "USD", source: "usage.cost" };
  const header = Array.isArray(responseCostHeader) ? responseCostHeader[0] : responseCostHeader;
  const fromHeader = saneNumber(header, { max: MAX_REQUEST_COST, text: true });
  if (fromHeader !== null && fromHeader > 0) return { amount: fromHeader, currency: "USD", source: RESPONSE_COST_HEADER };
  return null;
}
