import type { Conversation } from "./conversation";
import { pathTo } from "./conversation";

// Resent history is billed as input on every request, so a long conversation gets more expensive per
// message. This is only an ESTIMATE, made before sending, to warn the user in time: it is not what the
// relay will charge. It starts from the last known `usage` (input plus output tokens of the newest
// completed request on the branch: its output is resent too) and adds about one token per four characters
// of text the service has not counted yet. Without any usage it counts the characters of the whole history.

export const CHARACTERS_PER_TOKEN_ESTIMATE = 4;

export interface SendEstimate {
  /** Estimated input tokens of the request about to be sent. */
  inputTokens: number;
  /** The setting it was compared with. */
  thresholdTokens: number;
  /** True when `inputTokens` is above the threshold and the user should confirm first. */
  needsConfirmation: boolean;
  /** How the figure was obtained, for the confirmation prompt. */
  basis: "last_usage" | "characters";
}

export function estimateTokensOfText(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN_ESTIMATE);
}

/** The estimated input size of a new message sent after `parentId` on that branch. */
export function estimateSend(conversation: Conversation, parentId: string | null, newText: string, thresholdTokens: number): SendEstimate {
  const path = pathTo(conversation, parentId).filter((turn) => turn.outcome.kind === "completed");
  let historyTokens = 0;
  let basis: SendEstimate["basis"] = "characters";
  const lastTurn = path[path.length - 1];
  const lastRequest = lastTurn?.requests.filter((request) => request.outcome.kind === "completed").pop();
  const usage = lastRequest?.usage;
  if (usage && typeof usage.input_tokens === "number") {
    historyTokens = usage.input_tokens + (typeof usage.output_tokens === "number" ? usage.output_tokens : 0);
    basis = "last_usage";
  } else {
    for (const turn of path) historyTokens += estimateTokensOfText(JSON.stringify(turn.items));
  }
  const inputTokens = historyTokens + estimateTokensOfText(newText);
  return { inputTokens, thresholdTokens, needsConfirmation: thresholdTokens > 0 && inputTokens > thresholdTokens, basis };
}
