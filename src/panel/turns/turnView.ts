import * as l10n from "@vscode/l10n";
import { refusalTextOf } from "../../relay/accumulate";
import { isEmptyChatReasoning } from "../../relay/chatCompletions/chatReasoning";
import { MAX_TOOL_CALLS_PER_ANSWER } from "../../relay/chatCompletions/chunkTranslator";
import { isObject } from "../../relay/outputItems";
import type { OutputItem } from "../../relay/types";
import { usageDetail, usageFigure } from "../../relay/usage";
import { answerTextOf } from "../../chat/answerText";
import { preferredCost } from "../../chat/cost";
import { summaryText } from "../../chat/compaction";
import type { Conversation, RequestRecord, ToolCallRecord, Turn, TurnSummary } from "../../chat/conversation";
import { activePath, siblingsOf } from "../../chat/conversation";
import { outcomeLabel as outcomeLabelIn } from "../../chat/outcomeLabel";
import { outcomeFromOutputText } from "../../tools/runToolCall";
import { splitMessage } from "../context/messageAttachments";
import type { CostView, OutcomeKind, ReceiptView, SentWithView, SummaryView, ToolCallView, TurnView } from "../protocol";
import { actionsFor, causeOf, fixesFor, rejectedSettingNote, rejectedSettingOf } from "./turnFixes";

// Turns of the branch on screen, as the webview shows them. Pure (no vscode) so it is tested in Node.
// A turn's view depends on the turn alone (and its siblings, for the branch position), so the host can
// send one changed turn without looking at the others.

const RENDERED_KINDS = new Set(["message", "function_call", "reasoning"]);

export interface TurnViewOptions {
  /** The turn whose request is in flight, if any. */
  streamingTurnId: string | null;
  /** The streaming turn's answer so far, as forwarded to the webview (never rebuilt from the snapshot). */
  liveText: string | null;
  /** Reasoning summary text of the streaming turn's request under way, as it arrives (shown collapsed). */
  liveReasoning?: string | null;
  /** The relay's console address is set (relayChat.consoleUrl): quota problems can offer to open it. */
  consoleConfigured?: boolean;
  /** "Balance left on Cheap relay: $1.20." for a relay whose balance is known; a quota problem says it. */
  balanceNote?: (relay: string | null) => string | null;
}

export function turnViewsOf(conversation: Conversation, options: TurnViewOptions): TurnView[] {
  return activePath(conversation).map((turn) => turnViewOf(conversation, turn, options));
}

export function turnViewOf(conversation: Conversation, turn: Turn, options: TurnViewOptions): TurnView {
  const outputs = turn.requests.flatMap((request) => request.output);
  const siblings = siblingsOf(conversation, turn.id);
  const lastRequest = turn.requests[turn.requests.length - 1];
  const settled = turn.outcome.kind !== "in_progress";
  const streaming = turn.id === options.streamingTurnId;
  const message = splitMessage(turn.userText);
  return {
    id: turn.id,
    userText: message.text,
    attachments: message.attachments,
    ...(turn.images && turn.images.length > 0 ? { images: [...turn.images] } : {}),
    ...(turn.reviewNote ? { reviewNote: turn.reviewNote } : {}),
    ...(turn.commandNote ? { commandNote: turn.commandNote } : {}),
    ...(turn.outcome.kind === "incomplete" ? { sentLater: turn.includeIncomplete ? ("included" as const) : ("left_out" as const) } : {}),
    answerText: streaming && options.liveText !== null ? options.liveText : answerTextOf(turn),
    refusal: refusalTextOf(outputs) || null,
    streaming,
    outcome: turn.outcome.kind as OutcomeKind,
    outcomeLabel: outcomeLabel(turn.outcome),
    explanation: explanationOf(turn, lastRequest, options),
    fixes: settled ? fixesFor(turn.outcome, { consoleConfigured: options.consoleConfigured === true }) : [],
    // A thinking model that did not think still sends an empty reasoning field (kept to go back): nothing to show.
    hasReasoning: outputs.some((item) => item.type === "reasoning" && !isEmptyChatReasoning(item)),
    reasoningSummaries: reasoningSummariesOf(turn, streaming ? options.liveReasoning ?? null : null),
    otherItemKinds: [...new Set(outputs.map((item) => item.type).filter((kind) => !RENDERED_KINDS.has(kind)))],
    toolCalls: turn.toolCalls.map(toolCallViewOf),
    // A request still under way has no receipt yet: the turn shows it is working, and its receipt (outcome,
    // usage, request id) comes when it ends. It is always the last one, so indexes stay those of turn.requests.
    receipts: turn.requests.filter((request) => request.outcome.kind !== "in_progress").map((request) => receiptOf(request)),
    actions: settled ? actionsFor(turn.outcome, { hasImages: (turn.images?.length ?? 0) > 0, overResponses: turn.requests[turn.requests.length - 1]?.protocol !== "chat" }) : [],
    branchIndex: siblings.findIndex((sibling) => sibling.id === turn.id),
    branchCount: siblings.length,
    ...(turn.checkpoint?.after && turn.checkpoint.changedFiles > 0 ? { changedFiles: turn.checkpoint.changedFiles } : {}),
    ...(turn.checkpoint?.restoredFrom ? { restored: true } : {}),
    ...(turn.checkpointProblem && !turn.checkpoint ? { checkpointProblem: turn.checkpointProblem } : {}),
    ...(turn.summary ? { summary: summaryViewOf(turn.summary) } : {}),
    ...(turn.mode === "plan" ? { mode: "plan" as const, ...(turn.outcome.kind === "completed" ? { actOnPlan: true } : {}) } : {}),
  };
}

function summaryViewOf(summary: TurnSummary): SummaryView {
  const request = summary.requests[0];
  return {
    text: summaryText(summary),
    replacedTurns: summary.replacedTurns,
    estimatedTokensBefore: summary.estimatedTokensBefore,
    estimatedTokensAfter: summary.estimatedTokensAfter,
    receipt: request === undefined || request.outcome.kind === "in_progress" ? null : receiptOf(request, summaryNote(summary)),
  };
}

/** What the receipt of a summarize request says it replaced. */
function summaryNote(summary: TurnSummary): string {
  return summary.estimatedTokensAfter === null
    ? l10n.t("Would have replaced {0} turns (about {1} input tokens, an estimate).", summary.replacedTurns, summary.estimatedTokensBefore)
    : l10n.t("Replaced {0} turns: the next request is about {1} input tokens instead of {2} (estimates).", summary.replacedTurns, summary.estimatedTokensAfter, summary.estimatedTokensBefore);
}

/**
 * The reasoning summaries of the turn's requests; while a request streams, its summary so far comes from
 * the live text (its saved output is only a snapshot taken every few seconds).
 */
function reasoningSummariesOf(turn: Turn, liveReasoning: string | null): string[] {
  const settledRequests = liveReasoning === null ? turn.requests : turn.requests.filter((request) => request.outcome.kind !== "in_progress");
  const summaries = settledRequests.flatMap((request) => request.output.flatMap(reasoningSummaryTexts));
  return liveReasoning !== null && liveReasoning.trim() !== "" ? [...summaries, liveReasoning] : summaries;
}

/** The summary texts of a reasoning item (its `summary` parts), if the relay sent any. */
function reasoningSummaryTexts(item: OutputItem): string[] {
  if (item.type !== "reasoning" || !Array.isArray(item.summary)) return [];
  return item.summary.flatMap((part) => (isObject(part) && typeof part.text === "string" && part.text.trim() !== "" ? [part.text] : []));
}

/** An outcome in the display language (the one wording is in src/chat/outcomeLabel.ts). */
export function outcomeLabel(outcome: Parameters<typeof outcomeLabelIn>[0]): string {
  return outcomeLabelIn(outcome, l10n.t);
}

export function receiptOf(request: RequestRecord, extraNote: string | null = null): ReceiptView {
  const usage = request.usage;
  return {
    purpose: request.purpose,
    outcome: request.outcome.kind,
    outcomeLabel: outcomeLabel(request.outcome),
    usage: usage
      ? {
          inputTokens: usageFigure(usage, "input_tokens"),
          cachedTokens: usageDetail(usage, "cached_tokens"),
          outputTokens: usageFigure(usage, "output_tokens"),
          reasoningTokens: usageDetail(usage, "reasoning_tokens"),
        }
      : null,
    latencyMs: request.totalMs ?? null,
    firstByteMs: request.firstByteMs ?? null,
    requestId: request.requestId,
    httpStatus: request.httpStatus,
    model: request.model,
    relay: request.relay ?? null,
    cost: costViewOf(request),
    note: [extraNote, receiptNote(request)].filter((note) => note !== null).join(" ") || null,
    ...(request.protocol === "chat" ? { protocol: "chat" as const } : {}),
    sentWith: sentWithOf(request),
  };
}

/** The model's own settings as the request sent them: its output cap is the budget it went with (a retry's larger one). */
function sentWithOf(request: RequestRecord): SentWithView | null {
  const sent = request.modelSettings;
  if (!sent) return null;
  const { maxOutputTokens, ...rest } = sent;
  return maxOutputTokens === undefined ? { ...rest } : { ...rest, maxOutputTokens: request.maxOutputTokens ?? maxOutputTokens };
}

/** Why the turn did not complete; a quota or balance problem also says what balance the relay reports. */
function explanationOf(turn: Turn, lastRequest: RequestRecord | undefined, options: TurnViewOptions): string | null {
  if (turn.outcome.kind === "completed") return null;
  const explanation = turn.notice ?? lastRequest?.explanation ?? null;
  const balance = causeOf(turn.outcome) === "quota" ? (options.balanceNote?.(lastRequest?.relay ?? null) ?? null) : null;
  const refused = lastRequest ? rejectedSettingOf(turn.outcome) : null;
  const setting = refused && lastRequest ? rejectedSettingNote(refused, lastRequest.model) : null;
  return [explanation, balance, setting].filter(Boolean).join(" ") || null;
}

function costViewOf(request: RequestRecord): CostView | null {
  if (!request.cost) return null;
  const preferred = preferredCost(request.cost);
  if (!preferred) return null;
  return { ...preferred, estimatedAmount: preferred.estimated ? null : request.cost.estimated };
}

function receiptNote(request: RequestRecord): string | null {
  const notes = [
    countNote(
      request.omittedStreamedItems,
      () => l10n.t("The relay's final response left out 1 streamed item; Relay Chat kept it from the stream."),
      (count) => l10n.t("The relay's final response left out {0} streamed items; Relay Chat kept them from the stream.", count),
    ),
    countNote(
      request.unreadableEvents,
      () => l10n.t("1 event from the relay could not be read: the answer may be missing text."),
      (count) => l10n.t("{0} events from the relay could not be read: the answer may be missing text.", count),
    ),
    countNote(
      request.otherRelayReasoningLeftOut,
      () => l10n.t("1 reasoning item from another relay was left out of what was sent: this relay cannot read it."),
      (count) => l10n.t("{0} reasoning items from another relay were left out of what was sent: this relay cannot read them.", count),
    ),
    countNote(
      request.chatReasoningLeftOut,
      () => l10n.t("1 reasoning item was left out of what was sent: Chat Completions cannot carry it."),
      (count) => l10n.t("{0} reasoning items were left out of what was sent: Chat Completions cannot carry them.", count),
    ),
    countNote(
      request.responsesReasoningLeftOut,
      () => l10n.t("1 reasoning item from a Chat Completions answer was left out of what was sent: the Responses interface cannot carry it."),
      (count) => l10n.t("{0} reasoning items from Chat Completions answers were left out of what was sent: the Responses interface cannot carry them.", count),
    ),
    countNote(
      request.chatPartsLeftOut,
      () => l10n.t("1 attached part (a file) was left out of what was sent: Chat Completions cannot carry it."),
      (count) => l10n.t("{0} attached parts (files) were left out of what was sent: Chat Completions cannot carry them.", count),
    ),
    countNote(
      request.refusedToolCalls,
      () => l10n.t("The answer proposed 1 more tool call than the {0} Relay Chat takes from one answer: it was refused and not run.", MAX_TOOL_CALLS_PER_ANSWER),
      (count) => l10n.t("The answer proposed {0} more tool calls than the {1} Relay Chat takes from one answer: they were refused and not run.", count, MAX_TOOL_CALLS_PER_ANSWER),
    ),
  ].filter((note): note is string => note !== null);
  return notes.length > 0 ? notes.join(" ") : null;
}

/** A note about `count` things, in the words for one or for several (each its own bundle string); none for 0. */
function countNote(count: number | undefined, one: () => string, several: (count: number) => string): string | null {
  if (!count) return null;
  return count === 1 ? one() : several(count);
}

function toolCallViewOf(call: ToolCallRecord): ToolCallView {
  const outcome = call.outcome ?? outcomeFromOutputText(call.status, call.output.output);
  const explained = outcome === "failed" || outcome === "invalid_arguments" || outcome === "unavailable";
  return {
    callId: call.callId,
    name: call.name,
    argumentsJson: prettyArguments(call.arguments),
    status: call.status,
    output: call.output.output,
    outcome,
    outcomeDetail: explained ? firstLine(call.output.output.replace(/^Error:\s*/, "")) : null,
    ...(call.approvedBy ? { approvedBy: call.approvedBy } : {}),
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function prettyArguments(argumentsText: string): string {
  try {
    return JSON.stringify(JSON.parse(argumentsText), null, 2);
  } catch {
    return argumentsText;
  }
}
