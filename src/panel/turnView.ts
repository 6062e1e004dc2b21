import { answerTextOf } from "../chat/answerText";
import type { Conversation, RequestRecord, ToolCallRecord, Turn, TurnOutcome } from "../chat/conversation";
import { activePath, siblingsOf } from "../chat/conversation";
import { outcomeFromOutputText } from "../tools/runToolCall";
import type { FixAction, OutcomeKind, ReceiptView, ToolCallView, TurnView } from "./protocol";

// Turns of the branch on screen, as the webview shows them. Pure (no vscode) so it is tested in Node.

export type Localize = (english: string, ...args: Array<string | number>) => string;

const RENDERED_KINDS = new Set(["message", "function_call", "reasoning"]);

export interface TurnViewOptions {
  /** The turn whose request is in flight, if any. */
  streamingTurnId: string | null;
  busy: boolean;
  localize: Localize;
}

export function turnViewsOf(conversation: Conversation, options: TurnViewOptions): TurnView[] {
  const path = activePath(conversation);
  return path.map((turn, index) => turnViewOf(conversation, turn, index === path.length - 1, options));
}

function turnViewOf(conversation: Conversation, turn: Turn, isLast: boolean, options: TurnViewOptions): TurnView {
  const outputs = turn.requests.flatMap((request) => request.output);
  const siblings = siblingsOf(conversation, turn.id);
  const lastRequest = turn.requests[turn.requests.length - 1];
  const settled = turn.outcome.kind !== "in_progress";
  return {
    id: turn.id,
    userText: turn.userText,
    answerText: answerTextOf(turn),
    streaming: turn.id === options.streamingTurnId,
    outcome: turn.outcome.kind as OutcomeKind,
    outcomeLabel: outcomeLabel(turn.outcome, options.localize),
    explanation: turn.outcome.kind === "completed" ? null : turn.notice ?? lastRequest?.explanation ?? null,
    fixes: settled ? fixesFor(turn.outcome, lastRequest) : [],
    hasReasoning: outputs.some((item) => item.type === "reasoning"),
    otherItemKinds: [...new Set(outputs.map((item) => item.type).filter((kind) => !RENDERED_KINDS.has(kind)))],
    toolCalls: turn.toolCalls.map(toolCallViewOf),
    receipts: turn.requests.map((request) => receiptOf(request, options.localize)),
    actions: isLast && settled && !options.busy ? actionsFor(turn.outcome) : [],
    branchIndex: siblings.findIndex((sibling) => sibling.id === turn.id),
    branchCount: siblings.length,
  };
}

function actionsFor(outcome: TurnOutcome): Array<"retry" | "continue"> {
  if (outcome.kind === "completed") return [];
  if (outcome.kind === "incomplete") return ["continue", "retry"];
  return ["retry"];
}

/** What the user can do about the likely cause; the host carries each out. */
function fixesFor(outcome: TurnOutcome, request: RequestRecord | undefined): FixAction[] {
  if (outcome.kind === "http_error") {
    if (outcome.status === 401) return ["setApiKey", "checkConnection"];
    if (outcome.status === 403 || /model/i.test(outcome.code ?? "")) return ["selectModel", "setApiKey"];
    if (outcome.status === 404) return ["openSettings", "selectModel"];
    if (outcome.status === 200) return ["openSettings", "checkConnection"];
    return ["checkConnection"];
  }
  if (outcome.kind === "network_error") return ["openSettings", "checkConnection"];
  if ((outcome.kind === "failed" || outcome.kind === "error_event") && /model/i.test(outcome.code ?? "")) return ["selectModel"];
  return request ? [] : ["checkConnection"];
}

export function outcomeLabel(outcome: TurnOutcome, localize: Localize): string {
  switch (outcome.kind) {
    case "completed":
      return localize("completed");
    case "incomplete":
      return localize("incomplete ({0})", outcome.reason ?? localize("no reason given"));
    case "failed":
      return localize("failed ({0})", outcome.code ?? localize("no code"));
    case "error_event":
      return localize("error ({0})", outcome.code ?? localize("no code"));
    case "interrupted":
      return localize("interrupted");
    case "timed_out":
      return localize("timed out");
    case "cancelled":
      return localize("cancelled");
    case "http_error":
      return outcome.code ? localize("HTTP {0} ({1})", outcome.status, outcome.code) : localize("HTTP {0}", outcome.status);
    case "network_error":
      return localize("network error ({0})", outcome.code ?? localize("no code"));
    case "in_progress":
      return localize("in progress");
    case "tool_round_limit":
      return localize("stopped after {0} tool rounds", outcome.rounds);
    case "not_finished":
      return localize("not finished (the editor stopped during this turn)");
  }
}

function receiptOf(request: RequestRecord, localize: Localize): ReceiptView {
  const usage = request.usage;
  return {
    purpose: request.purpose,
    outcome: request.outcome.kind,
    outcomeLabel: outcomeLabel(request.outcome, localize),
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
