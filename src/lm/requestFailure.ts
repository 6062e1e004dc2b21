import * as vscode from "vscode";
import type { ErrorCause, RequestResult } from "../relay/types";

// The error VS Code's chat shows when a relay request did not complete. VS Code shows only the message
// of what the provider throws, so the message carries everything the user needs: what happened, the
// likely cause with what to check, and the request id to find the request in the relay's usage log.

/** Thrown by the provider for every outcome but `completed` and a cancel by the user. */
class RelayRequestError extends Error {
  override readonly name = "RelayRequestError";
  constructor(
    message: string,
    readonly outcome: string,
    readonly likelyCause: ErrorCause | null,
    readonly requestId: string | null,
  ) {
    super(message);
    // An expected outcome, not a bug: VS Code's chat prints a stack after the message, and these frames
    // would only bury the cause and the request id. The Output log has the full record.
    this.stack = undefined;
  }
}

export function relayRequestError(result: RequestResult, redact: (text: string) => string): RelayRequestError {
  const what = outcomeSentence(result);
  const explanation = result.explanation ? ` ${redact(result.explanation)}` : "";
  const requestId = result.requestId
    ? vscode.l10n.t("Request id: {0}.", result.requestId)
    : vscode.l10n.t("Request id: none (the relay sent no request-id header; see the request-id header setting).");
  const message = vscode.l10n.t("Relay Chat: {0}{1} {2}", what, explanation, requestId);
  return new RelayRequestError(message, result.outcome.kind, result.cause, result.requestId);
}

function outcomeSentence(result: RequestResult): string {
  const outcome = result.outcome;
  const cause = result.cause ? causeLabel(result.cause) : vscode.l10n.t("unknown cause");
  switch (outcome.kind) {
    case "incomplete":
      return vscode.l10n.t("the answer is incomplete ({0}).", outcome.reason ?? vscode.l10n.t("no reason given"));
    case "interrupted":
      return vscode.l10n.t("the stream was interrupted before a final status ({0} bytes, {1} events).", outcome.bytes, outcome.events);
    case "error_event":
      return vscode.l10n.t("the relay reported an error after HTTP 200 ({0}).", cause);
    case "failed":
      return vscode.l10n.t("the response failed ({0}).", cause);
    case "timed_out":
      return outcome.nonStreamed
        ? vscode.l10n.t("no answer came within {0} s.", Math.round(outcome.limitMs / 1000))
        : vscode.l10n.t("nothing arrived for {0} s.", Math.round(outcome.limitMs / 1000));
    case "http_error":
      return outcome.code ? vscode.l10n.t("HTTP {0} ({1}), {2}.", outcome.status, outcome.code, cause) : vscode.l10n.t("HTTP {0}, {1}.", outcome.status, cause);
    case "network_error":
      return vscode.l10n.t("the relay could not be reached ({0}).", cause);
    case "cancelled":
      return vscode.l10n.t("cancelled.");
    case "completed":
      return vscode.l10n.t("completed.");
    default: {
      const unexpected: never = outcome;
      return String(unexpected);
    }
  }
}

/** The spec's likely causes, as the user reads them. */
function causeLabel(cause: ErrorCause): string {
  switch (cause) {
    case "address":
      return vscode.l10n.t("cause: the relay address");
    case "key":
      return vscode.l10n.t("cause: the API key");
    case "model_permission":
      return vscode.l10n.t("cause: model permission");
    case "quota":
      return vscode.l10n.t("cause: quota or balance");
    case "rate_limit":
      return vscode.l10n.t("cause: rate limit");
    case "bad_request":
      return vscode.l10n.t("cause: a request the relay rejected");
    case "context_length":
      return vscode.l10n.t("cause: a conversation longer than the model's context window");
    case "server":
      return vscode.l10n.t("cause: the relay's server or upstream");
    case "network":
      return vscode.l10n.t("cause: the network");
    case "stream":
      return vscode.l10n.t("cause: an unfinished stream");
    case "unknown":
      return vscode.l10n.t("cause: unknown");
    default: {
      const unexpected: never = cause;
      return String(unexpected);
    }
  }
}
