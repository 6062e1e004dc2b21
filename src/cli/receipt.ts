import type { RequestResult } from "../relay/types";

/** One line a person can read after a request: outcome, usage, time and the request id to look up. */
export function receiptLine(result: RequestResult): string {
  const usage = result.snapshot.usage;
  const parts = [describeOutcome(result)];
  if (usage) {
    const cached = usage.input_tokens_details?.cached_tokens ?? 0;
    const reasoning = usage.output_tokens_details?.reasoning_tokens ?? 0;
    parts.push(`input ${usage.input_tokens ?? "?"} (cached ${cached}) · output ${usage.output_tokens ?? "?"} (reasoning ${reasoning}) tokens`);
  } else {
    parts.push("no usage reported");
  }
  parts.push(`${(result.timing.totalMs / 1000).toFixed(2)} s`);
  parts.push(`request id ${result.requestId ?? "(none)"}`);
  return parts.join(" · ");
}

function describeOutcome(result: RequestResult): string {
  const outcome = result.outcome;
  switch (outcome.kind) {
    case "incomplete":
      return `incomplete (${outcome.reason ?? "no reason"})`;
    case "failed":
    case "error_event":
      return `${outcome.kind} (${outcome.code ?? "no code"})`;
    case "http_error":
      return `http_error ${outcome.status}${outcome.code ? ` (${outcome.code})` : ""}`;
    case "network_error":
      return `network_error${outcome.code ? ` (${outcome.code})` : ""}`;
    default:
      return outcome.kind;
  }
}
