import * as l10n from "@vscode/l10n";
import { functionCallsOf, outputTextOf } from "./accumulate";
import type { RelayClient } from "./client";
import { isObject } from "./outputItems";
import { buildResponseRequest, userMessage } from "./requestBuilder";
import type { FunctionToolDefinition, RequestResult } from "./types";

// The relay check-up shared by the CLI's `check` and the extension's "Check Relay Connection". Each step
// says what it saw and, when it fails, what to do; it never calls something fine that is not. It sends a
// model list request and three small, possibly billed requests: a streamed answer, and one function call
// streamed and one not, because some relays deliver function calls intact only when not streamed. After
// an HTTP failure the later steps are skipped (with the reason): they would fail the same way and cost.

export type CheckStatus = "ok" | "warning" | "failed" | "skipped";

export interface CheckStep {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface ConnectionReport {
  /** True when no step failed (warnings and skipped steps after a success are fine). */
  ok: boolean;
  /** Said before anything is sent: what the check sends and that it may be billed. */
  billingNote: string;
  steps: CheckStep[];
  /** The streamed text request, for its request id in logs. */
  result: RequestResult | null;
  /** Set when only non-streamed function calls arrive intact: turn streaming off for this relay. */
  suggestStreamingOff: boolean;
}

/** Said before the check starts (translated when asked for, after the extension loaded its bundle). */
export function checkBillingNote(): string {
  return l10n.t("This check sends a model list request and three small requests to the relay (a short streamed answer, and one function call streamed and one not). The relay may bill each of them.");
}

const PROBE_TOOL: FunctionToolDefinition = {
  type: "function",
  name: "relay_chat_check",
  description: "Part of Relay Chat's connection check. Call it with the word given.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false },
  strict: false,
};

export async function checkConnection(client: RelayClient, model: string, options: { signal?: AbortSignal } = {}): Promise<ConnectionReport> {
  const steps: CheckStep[] = [];
  const report = (result: RequestResult | null, suggestStreamingOff = false): ConnectionReport => ({
    ok: steps.every((step) => step.status !== "failed"),
    billingNote: checkBillingNote(),
    steps,
    result,
    suggestStreamingOff,
  });
  const skipRest = (reason: string, names: readonly string[]) => {
    for (const name of names) steps.push({ name, status: "skipped", detail: l10n.t("Skipped: {0}", reason) });
  };
  const adjusted = client.baseUrlAdjustments.length > 0;
  steps.push({ name: "Base URL", status: adjusted ? "warning" : "ok", detail: adjusted ? l10n.t("Using {0}; {1}.", `${client.root}/v1`, client.baseUrlAdjustments.join("; ")) : l10n.t("Using {0}.", `${client.root}/v1`) });

  const models = await client.listModels(options);
  if (models.ok) {
    const listed = models.models.some((entry) => entry.id === model);
    steps.push({ name: "Models listed", status: models.models.length > 0 ? "ok" : "failed", detail: l10n.t("{0} model(s) visible to this key.", models.models.length) });
    steps.push({
      name: "Model available",
      status: listed ? "ok" : "failed",
      detail: listed
        ? l10n.t('"{0}" is listed (a listed model may still lack a feature).', model)
        : l10n.t('"{0}" is not in the list for this key. Pick one of: {1}.', model, models.models.slice(0, 10).map((entry) => entry.id).join(", ") || l10n.t("(none)")),
    });
  } else {
    steps.push({ name: "Models listed", status: "failed", detail: models.explanation });
    if (models.httpStatus === null || models.httpStatus >= 400) {
      skipRest(`the model list request failed${models.httpStatus ? ` with HTTP ${models.httpStatus}` : ""}, so the requests below would fail the same way (and might be billed).`, LATER_STEPS);
      return report(null);
    }
  }

  const result = await client.send(buildResponseRequest({ model, input: [userMessage("Reply with the single word OK.")], maxOutputTokens: 64, stream: true }), options);
  steps.push(textStep(result));
  if (isHttpFailure(result)) {
    skipRest(l10n.t("the streamed request failed ({0}).", `${result.outcome.kind}${result.httpStatus ? ` ${result.httpStatus}` : ""}`), LATER_STEPS.slice(1));
    return report(result);
  }
  steps.push({
    name: "Final event",
    status: result.snapshot.terminal !== null ? "ok" : "failed",
    detail: result.snapshot.terminal
      ? l10n.t("The stream ended with {0}.", result.snapshot.terminal)
      : l10n.t("No final event arrived: this relay may cut streams, so answers could look finished when they are not."),
  });
  steps.push(usageStep(result));
  steps.push({
    name: "Request id header",
    status: result.requestId !== null ? "ok" : "warning",
    detail: result.requestId
      ? result.requestIds.length > 1
        ? l10n.t("Request id {0} (the first matches the relay's usage log; the others come from a proxy or gateway).", result.requestIds.join(", "))
        : l10n.t("Request id {0}.", result.requestIds.join(", "))
      : l10n.t("No request-id header was found; add the relay's header name to the request-id header setting to match requests with the usage log."),
  });

  const streamedCall = await client.send(probeRequest(model, true), options);
  if (isHttpFailure(streamedCall)) {
    // A 400 here usually means the model takes no tools; chat still works. Anything else is a relay problem.
    steps.push({ name: "Function call, streamed", status: streamedCall.cause === "bad_request" ? "warning" : "failed", detail: describeFailure(streamedCall) });
    skipRest(l10n.t("the function call request failed ({0}).", `${streamedCall.outcome.kind}${streamedCall.httpStatus ? ` ${streamedCall.httpStatus}` : ""}`), ["Function call, not streamed", "Function calls"]);
    return report(result);
  }
  const plainCall = await client.send(probeRequest(model, false), options);
  const streamedProblem = callProblem(streamedCall);
  const plainProblem = callProblem(plainCall);
  steps.push(callStep("Function call, streamed", streamedCall, streamedProblem));
  steps.push(callStep("Function call, not streamed", plainCall, plainProblem));
  const onlyPlainIntact = streamedProblem !== null && plainProblem === null;
  steps.push(
    streamedProblem === null && plainProblem === null
      ? { name: "Function calls", status: "ok", detail: l10n.t("Function calls arrive intact, streamed and not streamed.") }
      : onlyPlainIntact
        ? { name: "Function calls", status: "failed", detail: l10n.t("Only non-streamed function calls arrive intact through this relay: turn streaming off for it (setting relayChat.stream: false) to use tools.") }
        : plainProblem !== null && streamedProblem === null
          ? { name: "Function calls", status: "warning", detail: l10n.t("Streamed function calls arrive intact, non-streamed ones do not: keep streaming on (relayChat.stream).") }
          : { name: "Function calls", status: "warning", detail: l10n.t("No usable function call came back, streamed or not: this relay or model may not support tools. Chat works; tool calls will not.") },
  );
  return report(result, onlyPlainIntact);
}

const LATER_STEPS = ["Streamed request", "Final event", "Usage reported", "Request id header", "Function call, streamed", "Function call, not streamed", "Function calls"];

function probeRequest(model: string, stream: boolean) {
  return buildResponseRequest({ model, input: [userMessage('Call the relay_chat_check function with the word "ok".')], tools: [PROBE_TOOL], toolChoice: "required", maxOutputTokens: 64, stream });
}

function isHttpFailure(result: RequestResult): boolean {
  return result.outcome.kind === "http_error" || result.outcome.kind === "network_error";
}

function describeFailure(result: RequestResult): string {
  return `${result.outcome.kind}: ${result.explanation ?? ""}`.trim();
}

function textStep(result: RequestResult) {
  const kind = result.outcome.kind;
  // `incomplete` is not a working relay: even a one-word answer did not finish.
  if (kind === "completed") return { name: "Streamed request", status: "ok" as const, detail: l10n.t("Completed with {0}.", JSON.stringify(outputTextOf(result.snapshot.output).slice(0, 60))) };
  return { name: "Streamed request", status: "failed" as const, detail: describeFailure(result) };
}

function usageStep(result: RequestResult): CheckStep {
  if (result.usage) return { name: "Usage reported", status: "ok", detail: l10n.t("input {0}, output {1} tokens.", result.usage.input_tokens ?? "?", result.usage.output_tokens ?? "?") };
  const zeros = result.snapshot.usage !== null;
  return {
    name: "Usage reported",
    status: "warning",
    detail: zeros
      ? l10n.t("The relay reported usage of zero for a non-empty answer (gateways that translate to Chat Completions do this): usage is shown as not reported; see the relay's console for costs.")
      : l10n.t("The response carried no usage; costs cannot be shown per turn. See the relay's console."),
  };
}

/** Why the probe's function call is not usable, or null when it arrived intact. */
function callProblem(result: RequestResult): string | null {
  if (result.outcome.kind !== "completed") return describeFailure(result);
  const call = functionCallsOf(result.snapshot.output).find((candidate) => candidate.name === PROBE_TOOL.name);
  if (!call) return l10n.t("No call to the requested function came back.");
  if (!call.call_id) return l10n.t("The call came back without a call_id, so its result could not be sent back.");
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    if (!isObject(parsed)) return l10n.t("The call's arguments are not a JSON object.");
  } catch {
    return l10n.t("The call's arguments are not valid JSON: {0}.", JSON.stringify(call.arguments.slice(0, 60)));
  }
  return null;
}

function callStep(name: string, result: RequestResult, problem: string | null): CheckStep {
  if (problem !== null) return { name, status: "warning", detail: problem };
  const omitted = result.snapshot.omittedStreamedItems;
  return {
    name,
    status: "ok",
    detail:
      omitted > 0
        ? l10n.t("Intact, read from the stream: the relay's final response left out {0} streamed item(s), which Relay Chat keeps.", omitted)
        : l10n.t("Intact: name, call_id and JSON arguments arrived."),
  };
}
