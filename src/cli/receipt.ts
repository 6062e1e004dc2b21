import type { RequestCost } from "../chat/requestRecordParts";
import { englishText, outcomeLabel } from "../chat/outcomeLabel";
import type { RequestResult, Usage } from "../relay/types";
import { usageDetail, usageFigure } from "../relay/usage";

/** One line a person can read after a request: outcome, usage, cost, time and the request id to look up. */
export function receiptLine(result: RequestResult, cost?: RequestCost): string {
  const usage = result.usage;
  const parts = [outcomeLabel(result.outcome, englishText)];
  if (usage) {
    // Figures are read as counts (usage.ts): one the relay sent that cannot be believed prints as unknown, never as sent.
    const cached = usageDetail(usage, "cached_tokens") ?? 0;
    const reasoning = usageDetail(usage, "reasoning_tokens") ?? 0;
    parts.push(`input ${usageFigure(usage, "input_tokens") ?? "?"} (cached ${cached}) · output ${usageFigure(usage, "output_tokens") ?? "?"} (reasoning ${reasoning}) tokens`);
  } else {
    // Zeros for a non-empty answer are not a reported figure: the relay still billed the request.
    parts.push(result.snapshot.usage === null ? "usage not reported" : sentOnlyZeros(result.snapshot.usage) ? "usage not reported (the relay sent zeros)" : "usage unknown (the relay's figures cannot be believed)");
  }
  if (cost?.currency) {
    if (cost.billed !== null) parts.push(`billed ${cost.billed} ${cost.currency}${cost.estimated === null ? "" : ` (estimated ${cost.estimated})`}`);
    else if (cost.estimated !== null) parts.push(`estimated ${cost.estimated} ${cost.currency}`);
  }
  parts.push(`${(result.timing.totalMs / 1000).toFixed(2)} s`);
  parts.push(`request id ${result.requestIds.length > 0 ? result.requestIds.join(", ") : "(none)"}`);
  const omitted = result.snapshot.omittedStreamedItems;
  if (omitted > 0) parts.push(`the relay's final response left out ${omitted} streamed item${omitted === 1 ? "" : "s"} (kept)`);
  const refused = result.snapshot.refusedToolCalls;
  if (refused > 0) parts.push(`${refused} more tool call${refused === 1 ? "" : "s"} than one answer may hold were refused`);
  const unreadable = result.snapshot.unreadableEventCount;
  if (unreadable > 0) parts.push(`${unreadable} event${unreadable === 1 ? "" : "s"} could not be read: the answer may be missing text`);
  return parts.join(" · ");
}

function sentOnlyZeros(usage: Usage): boolean {
  return [usage.input_tokens, usage.output_tokens, usage.total_tokens].every((figure) => figure === undefined || figure === 0);
}
