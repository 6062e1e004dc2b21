import * as l10n from "@vscode/l10n";
import { isObject, outputTextOf } from "../relay/accumulate";
import type { OutputItem } from "../relay/types";
import type { Conversation, RequestRecord, Turn, TurnOutcome } from "../chat/conversation";
import { activePath, siblingsOf } from "../chat/conversation";
import { splitMessage } from "./messageAttachments";
import type { OutcomeKind, ReceiptView, ToolCallView, TurnView } from "./protocol";
import { actionsFor, fixesFor } from "./turnFixes";

// Turns of the branch on screen, as the webview shows them. Pure (no vscode) so it is tested in Node.
// A turn's view depends on the turn alone (and its siblings, for the branch position), so the host can
// send one changed turn without looking at the others.

const RENDERED_KINDS = new Set(["message", "function_call", "reasoning"]);

export interface TurnViewOptions {
  /** The turn whose request is in flight, if any. */
  streamingTurnId: string | null;
  /** The streaming turn's answer so far, as forwarded to the webview (never rebuilt from the snapshot). */
  liveText: string | null;
  /** The relay's console address is set (relayChat.consoleUrl): quota problems can offer to open it. */
  consoleConfigured?: boolean;
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
    answerText: streaming && options.liveText !== null ? options.liveText : settledAnswerText(turn),
    streaming,
    outcome: turn.outcome.kind as OutcomeKind,
    outcomeLabel: outcomeLabel(turn.outcome),
    explanation: turn.outcome.kind === "completed" ? null : turn.notice ?? lastRequest?.explanation ?? null,
    fixes: settled ? fixesFor(turn.outcome, { consoleConfigured: options.consoleConfigured === true }) : [],
    hasReasoning: outputs.some((item) => item.type === "reasoning"),
    reasoningSummaries: outputs.flatMap(reasoningSummaryTexts),
    otherItemKinds: [...new Set(outputs.map((item) => item.type).filter((kind) => !RENDERED_KINDS.has(kind)))],
    toolCalls: turn.toolCalls.map(
      (call): ToolCallView => ({ callId: call.callId, name: call.name, argumentsJson: prettyArguments(call.arguments), status: call.status, output: call.output.output }),
    ),
    receipts: turn.requests.map((request) => receiptOf(request)),
    actions: settled ? actionsFor(turn.outcome) : [],
    branchIndex: siblings.findIndex((sibling) => sibling.id === turn.id),
    branchCount: siblings.length,
  };
}

/** The text of every request of the turn that wrote some, or what arrived before it stopped. */
function settledAnswerText(turn: Turn): string {
  const requestTexts = turn.requests.map((request) => outputTextOf(request.output)).filter((text) => text.length > 0);
  return requestTexts.length > 0 ? requestTexts.join("\n\n") : turn.partialText;
}

/** The summary texts of a reasoning item (its `summary` parts), if the relay sent any. */
function reasoningSummaryTexts(item: OutputItem): string[] {
  if (item.type !== "reasoning" || !Array.isArray(item.summary)) return [];
  return item.summary.flatMap((part) => (isObject(part) && typeof part.text === "string" && part.text.trim() !== "" ? [part.text] : []));
}

export function outcomeLabel(outcome: TurnOutcome): string {
  switch (outcome.kind) {
    case "completed":
      return l10n.t("completed");
    case "incomplete":
      return l10n.t("incomplete ({0})", outcome.reason ?? l10n.t("no reason given"));
    case "failed":
      return l10n.t("failed ({0})", outcome.code ?? l10n.t("no code"));
    case "error_event":
      return l10n.t("error ({0})", outcome.code ?? l10n.t("no code"));
    case "interrupted":
      return l10n.t("interrupted");
    case "timed_out":
      return l10n.t("timed out");
    case "cancelled":
      return l10n.t("cancelled");
    case "http_error":
      return outcome.code ? l10n.t("HTTP {0} ({1})", outcome.status, outcome.code) : l10n.t("HTTP {0}", outcome.status);
    case "network_error":
      return l10n.t("network error ({0})", outcome.code ?? l10n.t("no code"));
    case "in_progress":
      return l10n.t("in progress");
    case "tool_round_limit":
      return l10n.t("stopped after {0} tool rounds", outcome.rounds);
    case "not_finished":
      return l10n.t("not finished (the editor stopped during this turn)");
  }
}

export function receiptOf(request: RequestRecord): ReceiptView {
  const usage = request.usage;
  return {
    purpose: request.purpose,
    outcome: request.outcome.kind,
    outcomeLabel: outcomeLabel(request.outcome),
    usage: usage
      ? {
          inputTokens: usage.input_tokens ?? null,
          cachedTokens: usage.input_tokens_details?.cached_tokens ?? null,
          outputTokens: usage.output_tokens ?? null,
          reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? null,
        }
      : null,
    latencyMs: request.totalMs ?? null,
    firstByteMs: request.firstByteMs ?? null,
    requestId: request.requestId,
    httpStatus: request.httpStatus,
    model: request.model,
  };
}

function prettyArguments(argumentsText: string): string {
  try {
    return JSON.stringify(JSON.parse(argumentsText), null, 2);
  } catch {
    return argumentsText;
  }
}
