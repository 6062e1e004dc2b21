// The request log's icon for a row, in the tones the panel uses for a turn: an answer that stopped early
// (incomplete, interrupted, timed out) is a warning, a Stop is neutral, only a failure is an error.

const WARNING_OUTCOMES = new Set(["incomplete", "interrupted", "timed_out", "tool_round_limit", "not_finished", "pending"]);

/** A codicon reference for a quick pick label, e.g. `$(warning)`. */
export function requestLogIcon(outcome: string): string {
  if (outcome === "completed") return "$(pass)";
  if (outcome === "cancelled") return "$(circle-slash)";
  return WARNING_OUTCOMES.has(outcome) ? "$(warning)" : "$(error)";
}
