import * as l10n from "@vscode/l10n";
import { CHAT_COMPLETIONS_FORMAT_CODE } from "./accumulate";
import type { ErrorCause, RequestOutcome } from "./types";

// Maps what came back (status, error code/type, body shape, socket error) to the spec's likely causes:
// address, key, model permission, quota/balance, plus rate limit, server and network. The explanation
// is what the user reads; it says what to check, not just what happened, and never repeats the outcome's
// label (status and code), which every reader shows beside it. The wording goes through
// @vscode/l10n: in VS Code it is in the display language, in the CLI and tests it stays English. The
// relay's own message and codes are quoted as they came.

export interface ClassifiedError {
  /** Null only for a cancel by the user, which has no cause to fix. */
  cause: ErrorCause | null;
  code: string | null;
  message: string;
  explanation: string;
}

const CODE_CAUSES: ReadonlyArray<[RegExp, ErrorCause]> = [
  [/^(invalid_api_key|incorrect_api_key|unauthorized|authentication_error|invalid_token|key_(disabled|expired|invalid)|token_(disabled|expired|invalid|not_found)|api_key_(disabled|expired|invalid))$/i, "key"],
  [/^(model_not_found|model_not_allowed|model_not_supported|permission_denied|no_available_channel|unsupported_model|model_access_denied)$/i, "model_permission"],
  [/(insufficient_(user_|token_)?quota|quota_exceeded|billing|balance|pre_consume_token_quota_failed)/i, "quota"],
  [/^(rate_limit_exceeded|rate_limited|too_many_requests)$/i, "rate_limit"],
  [/^(server_error|internal_error|service_unavailable|overloaded|bad_gateway|upstream_error)$/i, "server"],
  [/^(context_length_exceeded|string_above_max_length|model_context_window_exceeded|request_too_large)$/i, "context_length"],
  [/^(invalid_request|invalid_request_error|invalid_value|decimal_below_min_value|invalid_type|missing_required_parameter)$/i, "bad_request"],
];

/**
 * How relays and providers word a request longer than the context window when their code says less
 * (OpenAI "maximum context length is", "exceeds the context window", Anthropic "prompt is too long",
 * vLLM/others "context length", "too many tokens").
 */
const CONTEXT_TOO_LONG = /maximum context length|context[ _-]?(length|window)[\w ]*(exceed|too long)|exceeds? the (model'?s? )?context (window|length)|prompt is too long|input is too long|too many (input )?tokens/i;

/** How relays and providers word a refused image ("image input is not supported", "image_url is only supported by certain models"). */
const IMAGES_REFUSED = /\b(image|vision)[\w ]*\b(not supported|only supported|does not support|unsupported|not (allowed|enabled|available))|\b(does not|doesn't|cannot) (support|accept|read|process) (image|vision)/i;

function adviceFor(cause: ErrorCause): string {
  switch (cause) {
    case "address":
      return l10n.t("Check the base URL: it should point at the relay's API (for example https://relay.example.com/v1), not its web console.");
    case "key":
      return l10n.t('Check the API key: it may be wrong, disabled or expired. Set a new one with "Relay Chat: Set API Key".');
    case "model_permission":
      return l10n.t("Check the model: it may not exist on this relay, or the key's model restriction may not include it. Pick another model or change the key's allowed models.");
    case "quota":
      return l10n.t("Check the account balance and the key's remaining quota in the relay's console: both must cover the request.");
    case "rate_limit":
      return l10n.t("The relay is rate limiting requests. Wait a moment before sending again; nothing was retried automatically.");
    case "context_length":
      return l10n.t("The conversation is longer than the model's context window. Summarize earlier turns to go on, start a new chat, or pick a model with a larger window.");
    case "bad_request":
      return l10n.t("The relay rejected the request as invalid. The model may not support a feature that was used (a listed model can still lack one).");
    case "server":
      return l10n.t("The relay or its upstream had a server error. Check the relay's usage log with the request id before sending again.");
    case "network":
      return l10n.t("The relay could not be reached. Check the network, proxy settings and the base URL.");
    case "stream":
      return l10n.t("The stream ended without a final status, so the answer is not complete.");
    case "unknown":
      return l10n.t("Check the relay's usage log with the request id.");
  }
}

function causeFromCode(code: string | null): ErrorCause | null {
  if (!code) return null;
  for (const [pattern, cause] of CODE_CAUSES) if (pattern.test(code)) return cause;
  return null;
}

/** A generic "invalid request" (or an upstream error) whose message says the input is too long is a length problem. */
function withLengthInMessage(cause: ErrorCause, message: string): ErrorCause {
  return (cause === "bad_request" || cause === "server") && CONTEXT_TOO_LONG.test(message) ? "context_length" : cause;
}

function causeFromStatus(status: number): ErrorCause {
  if (status === 401) return "key";
  if (status === 402) return "quota";
  if (status === 403) return "model_permission";
  if (status === 404) return "address";
  if (status === 429) return "rate_limit";
  if (status >= 500) return "server";
  if (status >= 400) return "bad_request";
  return "unknown";
}

export interface ParsedErrorBody {
  code: string | null;
  type: string | null;
  message: string | null;
  /** The request parameter the error is about (OpenAI's `param`), when it names one. */
  param: string | null;
}

/** Reads the nested `{error:{code,type,message,param}}` envelope, the flat `{code,message}` one, or `{detail}`. */
export function parseErrorBody(bodyText: string): ParsedErrorBody | null {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null) return null;
  const record = body as Record<string, unknown>;
  const envelope = typeof record.error === "object" && record.error !== null ? (record.error as Record<string, unknown>) : record;
  const text = (value: unknown): string | null => (typeof value === "string" && value ? value : typeof value === "number" ? String(value) : null);
  const message = text(envelope.message) ?? text(record.detail) ?? (typeof record.error === "string" ? record.error : null);
  return { code: text(envelope.code), type: text(envelope.type), message, param: text(envelope.param) };
}

function looksLikeHtml(bodyText: string, contentType: string): boolean {
  return /text\/html/i.test(contentType) || /^\s*(<!doctype html|<html|<head|<body)/i.test(bodyText);
}

export function classifyHttpError(status: number, bodyText: string, contentType: string): ClassifiedError {
  if (looksLikeHtml(bodyText, contentType)) {
    const gateway = status >= 500;
    const cause: ErrorCause = gateway ? "server" : status === 401 || status === 403 ? causeFromStatus(status) : "address";
    const what = gateway
      ? l10n.t("A proxy or gateway answered with an HTML error page (HTTP {0}) instead of the relay's JSON.", status)
      : l10n.t("The address answered with an HTML page (HTTP {0}), not the Responses API.", status);
    return { cause, code: null, message: what, explanation: `${what} ${adviceFor(cause)}` };
  }
  const parsed = parseErrorBody(bodyText);
  if (!parsed) {
    const snippet = bodyText.trim().slice(0, 200) || l10n.t("(empty body)");
    const cause = status >= 200 && status < 300 ? "address" : causeFromStatus(status);
    const what = l10n.t("The relay answered HTTP {0} with a body that is not JSON: {1}", status, snippet);
    return { cause, code: null, message: what, explanation: `${what} ${adviceFor(cause)}` };
  }
  const code = parsed.code ?? parsed.type;
  const message = parsed.message ?? `HTTP ${status}`;
  const cause = withLengthInMessage(causeFromCode(parsed.code) ?? causeFromCode(parsed.type) ?? causeFromStatus(status), message);
  if (refusesImages(status, message)) {
    return { cause: "bad_request", code, message, explanation: `${message} ${l10n.t("This model does not accept images. Pick a model that can read images, or send the message again without them.")}` };
  }
  // The status and code are the outcome's label, shown beside the explanation: it says the rest.
  return { cause, code, message, explanation: `${message} ${adviceFor(cause)}` };
}

/** The relay turned the request down because of its images (the model does not take any). */
export function isImageRefusal(status: number, bodyText: string): boolean {
  const message = parseErrorBody(bodyText)?.message;
  return typeof message === "string" && refusesImages(status, message);
}

function refusesImages(status: number, message: string): boolean {
  return status >= 400 && status < 500 && IMAGES_REFUSED.test(message);
}

/** Errors reported inside a 200 stream or body (`error` event, `response.failed`). */
export function classifyServiceError(code: string | null, message: string): ClassifiedError {
  if (code === CHAT_COMPLETIONS_FORMAT_CODE) {
    return { cause: "model_permission", code, message, explanation: `${message} ${l10n.t("Pick another model, or ask the relay's operator to serve this one through the Responses API. Nothing was retried.")}` };
  }
  const cause = withLengthInMessage(causeFromCode(code) ?? "server", message);
  const reported = code ? l10n.t("The relay reported an error ({0}): {1}", code, message) : l10n.t("The relay reported an error: {0}", message);
  return { cause, code, message, explanation: `${reported} ${adviceFor(cause)}` };
}

const NETWORK_CODES: Record<string, { cause: ErrorCause; what: () => string }> = {
  ECONNREFUSED: { cause: "address", what: () => l10n.t("The connection was refused: nothing is listening at that address and port.") },
  ENOTFOUND: { cause: "address", what: () => l10n.t("The host name could not be resolved (DNS lookup failed).") },
  EAI_AGAIN: { cause: "network", what: () => l10n.t("The host name could not be resolved right now (temporary DNS failure).") },
  ECONNRESET: { cause: "network", what: () => l10n.t("The connection was reset.") },
  ETIMEDOUT: { cause: "network", what: () => l10n.t("The connection timed out.") },
  EHOSTUNREACH: { cause: "network", what: () => l10n.t("The host is unreachable.") },
  ENETUNREACH: { cause: "network", what: () => l10n.t("The network is unreachable.") },
  UND_ERR_CONNECT_TIMEOUT: { cause: "network", what: () => l10n.t("Connecting to the relay timed out.") },
  UND_ERR_SOCKET: { cause: "network", what: () => l10n.t("The connection to the relay failed.") },
  CERT_HAS_EXPIRED: { cause: "network", what: () => l10n.t("The relay's TLS certificate has expired.") },
  DEPTH_ZERO_SELF_SIGNED_CERT: { cause: "network", what: () => l10n.t("The relay's TLS certificate is self-signed and not trusted.") },
  SELF_SIGNED_CERT_IN_CHAIN: { cause: "network", what: () => l10n.t("The relay's TLS certificate chain is not trusted (a corporate proxy?).") },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { cause: "network", what: () => l10n.t("The relay's TLS certificate could not be verified.") },
};

function errorCodeOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code in NETWORK_CODES) return code;
    current = (current as { cause?: unknown }).cause;
  }
  const code = error && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : null;
}

export function classifyNetworkError(error: unknown): ClassifiedError {
  const code = errorCodeOf(error);
  const known = code ? NETWORK_CODES[code] : undefined;
  const cause = known?.cause ?? "network";
  const message = known?.what() ?? l10n.t("The request failed: {0}", error instanceof Error ? error.message : String(error));
  return { cause, code, message, explanation: `${message} ${adviceFor(cause)}` };
}

/** Cause and explanation for outcomes that carry no server error: interruption, timeout, cancel. */
export function classifyLocalOutcome(outcome: RequestOutcome): ClassifiedError | null {
  switch (outcome.kind) {
    case "interrupted":
      if (outcome.reason === "size_limit") {
        return {
          cause: "stream",
          code: "stream_too_large",
          message: l10n.t("stopped at the size limit"),
          explanation: l10n.t(
            "The answer grew past the stream size limit ({0} MB received; setting relayChat.maxStreamMegabytes), so Relay Chat stopped reading it. The text so far is kept. The relay may still bill the whole answer.",
            Math.round(outcome.bytes / (1024 * 1024)),
          ),
        };
      }
      if (outcome.reason === "client_stopped") {
        return {
          cause: "stream",
          code: null,
          message: l10n.t("Relay Chat stopped during this request"),
          explanation: l10n.t("Relay Chat stopped during this request (the editor closed or crashed). The relay may have finished and billed it: look up the request id in its usage log before sending again."),
        };
      }
      return {
        cause: "stream",
        code: null,
        message: l10n.t("interrupted"),
        explanation: `${l10n.t("The stream closed after {0} bytes and {1} events without a final status.", outcome.bytes, outcome.events)} ${adviceFor("stream")} ${l10n.t("Sending again is a new, possibly billed request.")}`,
      };
    case "timed_out":
      if (outcome.nonStreamed) {
        return {
          cause: "network",
          code: null,
          message: l10n.t("timed out"),
          explanation: l10n.t(
            "The relay did not answer within {0} s (the limit for non-streamed requests, setting relayChat.nonStreamTimeoutSeconds), so the request was stopped. Check the relay's usage log before sending again.",
            seconds(outcome.limitMs),
          ),
        };
      }
      if (outcome.withoutContent) {
        return {
          cause: "stream",
          code: null,
          message: l10n.t("timed out"),
          explanation: l10n.t(
            "The relay kept the connection open for {0} s without sending any text, reasoning or tool call (only keep-alive signals), so the request was stopped (setting relayChat.contentTimeoutSeconds). What arrived is kept. Check the relay's usage log before sending again.",
            seconds(outcome.limitMs),
          ),
        };
      }
      return {
        cause: "network",
        code: null,
        message: l10n.t("timed out"),
        explanation: l10n.t("Nothing arrived for {0} s, so the request was stopped. Check the relay's usage log before sending again.", seconds(outcome.limitMs)),
      };
    case "cancelled":
      return { cause: null, code: null, message: l10n.t("cancelled"), explanation: l10n.t("Stopped by you. The relay may still bill what it produced.") };
    default:
      return null;
  }
}

/** Whole seconds, or one decimal under ten seconds (a limit of 0.3 s must not read "0 s"). */
function seconds(milliseconds: number): string {
  return milliseconds < 10_000 ? String(Math.round(milliseconds / 100) / 10) : String(Math.round(milliseconds / 1000));
}
