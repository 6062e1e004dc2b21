import type { ModelPrice } from "../relay/modelPrice";
import { chatReasoningSentText } from "../relay/chatCompletions/chatReasoning";
import type { InputItem } from "../relay/types";
import { usageFigure } from "../relay/usage";
import type { Conversation, RequestPurpose, Turn } from "./conversation";
import { pathTo } from "./conversation";
import { summaryIndexIn, summaryRequestItems, summaryRequestTurn } from "./compaction";
import { historyItemsBefore, isSentWithLaterMessages, requestInputFor } from "./historyItems";

// Resent history is billed as input on every request, so a long conversation gets more expensive per
// message. This is only an ESTIMATE, made before sending, to warn the user in time: it is not what the
// relay will charge. It starts from the newest known usage (input, plus output when that output is resent)
// and adds about one token per four characters of what the service has not counted yet. Without usage it
// counts the characters of everything sent. Every billed request the user starts is estimated: a new
// message, Continue, Retry, and the follow-up after tool calls.

export const CHARACTERS_PER_TOKEN_ESTIMATE = 4;
/**
 * The estimate for one image: OpenAI's count for a 1024 x 1024 image at high detail (85 base tokens + 170
 * per 512-pixel tile, four tiles). Relays and models count differently; this is a round figure of the
 * right size, not a bill.
 */
export const IMAGE_TOKEN_ESTIMATE = 765;

export interface SendEstimate {
  /** Estimated input tokens of the request about to be sent. */
  inputTokens: number;
  /** The setting it was compared with. */
  thresholdTokens: number;
  /** True when `inputTokens` is above the threshold and the user should confirm first. */
  needsConfirmation: boolean;
  /** How the figure was obtained, for the confirmation prompt. */
  basis: "last_usage" | "characters";
  /** The request it is for: a new message (`send`), `continue`, `retry_larger` or `tool_follow_up`. */
  purpose: RequestPurpose;
  /** The input's estimated cost, when the model's price is known and a money warning is set (relayChat.spendWarning). */
  inputCost?: { amount: number; currency: string; threshold: number };
}

/**
 * The estimate with the money warning applied: the input's cost from the model's price (input price per
 * million tokens) is compared with `threshold` (in the price's currency). Without a price or threshold
 * the estimate is unchanged: a cost that cannot be known warns through the token threshold only.
 */
export function withSpendWarning(estimate: SendEstimate, price: ModelPrice | null, threshold: number | null): SendEstimate {
  if (price === null || threshold === null || threshold <= 0) return estimate;
  const amount = (estimate.inputTokens * price.inputPerMillion) / 1_000_000;
  return { ...estimate, needsConfirmation: estimate.needsConfirmation || amount > threshold, inputCost: { amount, currency: price.currency, threshold } };
}

export function estimateTokensOfText(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN_ESTIMATE);
}

/**
 * Text of plain messages and tool results counts as text, an image part as IMAGE_TOKEN_ESTIMATE, reasoning read
 * from Chat Completions as what goes back of it (its text once, not also the copy shown in the panel); anything
 * else as its JSON.
 */
export function estimateTokensOfItems(items: readonly InputItem[]): number {
  let tokens = 0;
  for (const item of items) {
    const reasoning = chatReasoningSentText(item);
    if (reasoning !== null) tokens += estimateTokensOfText(reasoning);
    else if (typeof item.content === "string") tokens += estimateTokensOfText(item.content);
    else if (Array.isArray(item.content)) for (const part of item.content) tokens += isImagePart(part) ? IMAGE_TOKEN_ESTIMATE : estimateTokensOfText(JSON.stringify(part));
    else if (item.type === "function_call_output" && typeof item.output === "string") tokens += estimateTokensOfText(item.output);
    else tokens += estimateTokensOfText(JSON.stringify(item));
  }
  return tokens;
}

function isImagePart(part: unknown): boolean {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === "input_image";
}

/** The estimated input size of a new message (with `newImages` images) sent after `parentId` on that branch. */
export function estimateSend(conversation: Conversation, parentId: string | null, newText: string, thresholdTokens: number, newImages = 0): SendEstimate {
  const path = pathTo(conversation, parentId).filter(isSentWithLaterMessages);
  let historyTokens = 0;
  let basis: SendEstimate["basis"] = "characters";
  const lastTurn = path[path.length - 1];
  // An included incomplete turn reported no usage that counts its partial answer as history: count by characters.
  const lastRequest = lastTurn?.requests.filter((request) => request.outcome.kind === "completed").pop();
  // Usage a relay reported that cannot be believed (usage.ts) is no basis: the branch is counted by its characters.
  const usedInput = usageFigure(lastRequest?.usage, "input_tokens");
  // Usage counted before a summary replaced turns would count them still: the summary's branch is counted by its characters.
  if (lastTurn?.outcome.kind === "completed" && usedInput !== null && !summarizedSince(path, lastRequest?.startedAt ?? 0)) {
    historyTokens = usedInput + (usageFigure(lastRequest?.usage, "output_tokens") ?? 0);
    basis = "last_usage";
  } else {
    historyTokens = estimateTokensOfItems(historyItemsBefore(conversation, parentId));
  }
  return estimate(historyTokens + estimateTokensOfText(newText) + newImages * IMAGE_TOKEN_ESTIMATE, thresholdTokens, basis, "send");
}

/**
 * The estimated input size of the next request of a turn that is under way: `added` are the items it adds
 * (tool results for a follow-up, the partial answer and the request to go on for Continue, none for Retry).
 */
export function estimateNextRequest(conversation: Conversation, turn: Turn, added: readonly InputItem[], thresholdTokens: number, purpose: RequestPurpose): SendEstimate {
  const last = turn.requests[turn.requests.length - 1];
  const usedInput = usageFigure(last?.usage, "input_tokens");
  if (last && usedInput !== null) {
    // The last request's input is all resent; its output only when it completed (it is then history).
    const resentOutput = last.outcome.kind === "completed" ? usageFigure(last.usage, "output_tokens") ?? 0 : 0;
    return estimate(usedInput + resentOutput + estimateTokensOfItems(added), thresholdTokens, "last_usage", purpose);
  }
  return estimate(estimateTokensOfItems([...requestInputFor(conversation, turn), ...added]), thresholdTokens, "characters", purpose);
}

/**
 * The share of the window a summary request's estimate may fill. The estimate counts characters, and a
 * relay's tokenizer and its per-message overhead count more (about 8% more for many short messages, measured
 * against the emulator's count); the rest leaves the summary room to be written when no output budget is set.
 */
const SUMMARY_ESTIMATE_SHARE = 0.8;

/**
 * Whether the request for a summary of the branch up to a turn fits the model's context window, leaving
 * room for the answer (compaction.ts summarizes in chunks when it does not); undefined when the window is unknown.
 */
export function summaryRequestFits(conversation: Conversation, windowTokens: number | null, maxOutputTokens: number | null): ((through: Turn) => boolean) | undefined {
  if (windowTokens === null || windowTokens <= 0) return undefined;
  const room = windowTokens * SUMMARY_ESTIMATE_SHARE - (maxOutputTokens ?? 0);
  // An output budget near the window's size leaves no room to plan with: the summary is not cut into turns.
  if (room <= 0) return undefined;
  return (through) => estimateNextRequest(conversation, summaryRequestTurn(through, 0), summaryRequestItems(), 0, "summarize").inputTokens <= room;
}

function summarizedSince(path: readonly Turn[], since: number): boolean {
  const summarized = path[summaryIndexIn(path)]?.summary?.requests[0];
  return summarized !== undefined && summarized.startedAt >= since;
}

/**
 * The estimate with the instructions counted. An estimate from the last reported usage already holds the
 * instructions sent then (about the same text); one from characters counted only the items.
 */
export function withInstructionTokens(estimated: SendEstimate, instructionTokens: number): SendEstimate {
  if (estimated.basis !== "characters" || instructionTokens <= 0) return estimated;
  return estimate(estimated.inputTokens + instructionTokens, estimated.thresholdTokens, estimated.basis, estimated.purpose);
}

function estimate(inputTokens: number, thresholdTokens: number, basis: SendEstimate["basis"], purpose: RequestPurpose): SendEstimate {
  return { inputTokens, thresholdTokens, needsConfirmation: thresholdTokens > 0 && inputTokens > thresholdTokens, basis, purpose };
}
