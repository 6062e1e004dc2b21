import * as l10n from "@vscode/l10n";
import { functionCallsOf, outputTextOf } from "./accumulate";
import { probeChatCompletions } from "./chatCompletions/protocolCheck";
import { isResponsesRefusal } from "./chatCompletions/protocolRefusal";
import type { WireProtocol } from "./chatCompletions/wire";
import type { CheckStep } from "./checkStep";
import type { RelayClient } from "./client";
import { isObject } from "./outputItems";
import { buildResponseRequest, userMessage } from "./requestBuilder";
import type { FunctionToolDefinition, RequestResult, ResponseRequest } from "./types";

// The relay check-up shared by the CLI's `check` and the extension's "Check Relay Connection". Each step
// says what it saw and, when it fails, what to do; it never calls something fine that is not. It sends a
// model list request and three small, possibly billed requests: a streamed answer, and one function call
// streamed and one not, because some relays deliver function calls intact only when not streamed. After
// an HTTP failure the later steps are skipped (with the reason): they would fail the same way and cost.
// The check's own requests must be able to finish on any model: they leave room for reasoning and ask for
// the lowest reasoning effort the model takes (see EffortChoice); an answer still cut by the check's budget
// shows the relay works, so it is a warning about the budget, never a failure of the relay.

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
  /**
   * "chat" when the check found the model needs Chat Completions (Responses was refused in the way that means "not
   * this interface" and the same request over Chat Completions worked) and the check was not already told to use
   * it: offer the switch. A relay's model list never finds it (new-api lists "openai" for models whose
   * /v1/responses works).
   */
  protocolFinding: WireProtocol | null;
}

/** Said before the check starts (translated when asked for, after the extension loaded its bundle). */
export function checkBillingNote(): string {
  return `${l10n.t("This check sends a model list request and three small requests to the relay (a short streamed answer, and one function call streamed and one not). The relay may bill each of them. A request the model rejects for its reasoning effort is sent again with one it takes, or none.")} ${l10n.t("If the model refuses the Responses interface, the short request is sent once more over Chat Completions.")}`;
}

/** Room for a one-word answer after a reasoning model's thinking at its lowest effort. */
const CHECK_OUTPUT_BUDGET = 1024;

/** Reasoning efforts from the lowest up: `none` is the Open Responses spec's, `minimal` and `low` are what other models take as lowest. */
const EFFORTS_LOWEST_FIRST = ["none", "minimal", "low", "medium"];

/**
 * The reasoning effort the check asks for. There is no way to ask a relay whether a model reasons, so the
 * check asks for the lowest effort and reads the answer: a 400 that names the effort value moves to the
 * lowest one the relay's message lists as supported (or the next one up); a 400 about the reasoning
 * parameter itself means the model takes none, and the request goes again without it. Such a 400 is a
 * rejected request, never a finding about the relay, and the choice holds for the check's later requests.
 */
export class EffortChoice {
  effort: string | null = EFFORTS_LOWEST_FIRST[0];

  /** True when `result` is a rejection of the effort sent and another choice is worth one more request. */
  retreatAfter(result: RequestResult): boolean {
    const sent = this.effort;
    if (sent === null || result.outcome.kind !== "http_error" || result.outcome.status !== 400) return false;
    const said = `${result.outcome.message} ${result.outcome.body}`;
    if (!/reasoning/i.test(said)) return false;
    const quoted = new Set([...said.matchAll(/['"`]([a-z]+)['"`]/gi)].map((match) => match[1].toLowerCase()));
    const higher = EFFORTS_LOWEST_FIRST.slice(EFFORTS_LOWEST_FIRST.indexOf(sent) + 1);
    if (!quoted.has(sent)) {
      this.effort = null;
      return true;
    }
    this.effort = higher.find((effort) => quoted.has(effort)) ?? higher[0] ?? null;
    return true;
  }
}

const PROBE_TOOL: FunctionToolDefinition = {
  type: "function",
  name: "relay_chat_check",
  description: "Part of Relay Chat's connection check. Call it with the word given.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false },
  strict: false,
};

/** `protocol`: the wire the model is set to use; absent, the Responses interface (a refusal is then found and reported). */
export async function checkConnection(client: RelayClient, model: string, options: { signal?: AbortSignal; protocol?: WireProtocol } = {}): Promise<ConnectionReport> {
  const steps: CheckStep[] = [];
  let protocolFinding: WireProtocol | null = null;
  const report = (result: RequestResult | null, suggestStreamingOff = false): ConnectionReport => ({
    ok: steps.every((step) => step.status !== "failed"),
    billingNote: checkBillingNote(),
    steps,
    result,
    suggestStreamingOff,
    protocolFinding,
  });
  const skipRest = (reason: string, names: readonly string[]) => {
    for (const name of names) steps.push({ name, status: "skipped", detail: l10n.t("Skipped: {0}", reason) });
  };
  const adjusted = client.baseUrlAdjustments.length > 0;
  steps.push({ name: "Base URL", status: adjusted ? "warning" : "ok", detail: adjusted ? l10n.t("Using {0}; {1}.", `${client.root}/v1`, client.baseUrlAdjustments.join("; ")) : l10n.t("Using {0}.", `${client.root}/v1`) });

  const models = await client.listModels({ signal: options.signal });
  if (models.ok) {
    const listed = models.models.some((entry) => entry.id === model);
    steps.push({ name: "Models listed", status: models.models.length > 0 ? "ok" : "failed", detail: models.models.length === 1 ? l10n.t("1 model visible to this key.") : l10n.t("{0} models visible to this key.", models.models.length) });
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

  const protocol: WireProtocol = options.protocol ?? "responses";
  const effort = new EffortChoice();
  const sentRequests: ResponseRequest[] = [];
  const send = async (request: (reasoningEffort: string | null) => ResponseRequest): Promise<RequestResult> => {
    for (;;) {
      const body = request(effort.effort);
      sentRequests.push(body);
      const sent = await client.send(body, { signal: options.signal, protocol });
      if (!effort.retreatAfter(sent)) return sent;
    }
  };
  const result = await send((reasoningEffort) =>
    buildResponseRequest({ model, input: [userMessage("Reply with the single word OK.")], maxOutputTokens: CHECK_OUTPUT_BUDGET, reasoningEffort, stream: true }),
  );
  steps.push(textStep(result));
  const refused = sentRequests[sentRequests.length - 1];
  if (protocol === "responses" && refused && isResponsesRefusal(result.outcome)) {
    // "Not this protocol": the same small request once over Chat Completions says whether that is the way.
    const probe = await probeChatCompletions(client, refused, options.signal);
    if (probe.works) {
      protocolFinding = "chat";
      // Not a failure of the relay: the model answers once the switch is confirmed.
      steps[steps.length - 1] = { name: "Streamed request", status: "warning", detail: l10n.t("Refused over the Responses interface ({0}).", refusalOf(result.outcome)) };
    }
    steps.push(probe.step);
    skipRest(probe.works ? l10n.t("the model answers on Chat Completions only; check again after switching to check the rest over it.") : l10n.t("the model answered on neither interface."), LATER_STEPS.slice(1));
    return report(result);
  }
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

  const streamedCall = await send((reasoningEffort) => probeRequest(model, true, reasoningEffort));
  if (isHttpFailure(streamedCall)) {
    // A 400 here usually means the model takes no tools; chat still works. Anything else is a relay problem.
    steps.push({ name: "Function call, streamed", status: streamedCall.cause === "bad_request" ? "warning" : "failed", detail: describeFailure(streamedCall) });
    skipRest(l10n.t("the function call request failed ({0}).", `${streamedCall.outcome.kind}${streamedCall.httpStatus ? ` ${streamedCall.httpStatus}` : ""}`), ["Function call, not streamed", "Function calls"]);
    return report(result);
  }
  const plainCall = await send((reasoningEffort) => probeRequest(model, false, reasoningEffort));
  const streamedProblem = callProblem(streamedCall);
  const plainProblem = callProblem(plainCall);
  steps.push(callStep("Function call, streamed", streamedCall, streamedProblem));
  steps.push(callStep("Function call, not streamed", plainCall, plainProblem));
  // A call cut by the check's own budget says nothing about how the relay delivers calls.
  const onlyPlainIntact = streamedProblem !== null && !cutByBudget(streamedCall) && plainProblem === null;
  steps.push(
    streamedProblem === null && plainProblem === null
      ? { name: "Function calls", status: "ok", detail: l10n.t("Function calls arrive intact, streamed and not streamed.") }
      : cutByBudget(streamedCall) || cutByBudget(plainCall)
        ? { name: "Function calls", status: "warning", detail: l10n.t("Not fully checked: the model used up the check's output budget before finishing a call.") }
        : onlyPlainIntact
        ? { name: "Function calls", status: "failed", detail: l10n.t("Only non-streamed function calls arrive intact through this relay: turn streaming off for it (setting relayChat.stream: false) to use tools.") }
        : plainProblem !== null && streamedProblem === null
          ? { name: "Function calls", status: "warning", detail: l10n.t("Streamed function calls arrive intact, non-streamed ones do not: keep streaming on (relayChat.stream).") }
          : { name: "Function calls", status: "warning", detail: l10n.t("No usable function call came back, streamed or not: this relay or model may not support tools. Chat works; tool calls will not.") },
  );
  return report(result, onlyPlainIntact);
}

const LATER_STEPS = ["Streamed request", "Final event", "Usage reported", "Request id header", "Function call, streamed", "Function call, not streamed", "Function calls"];

function probeRequest(model: string, stream: boolean, reasoningEffort: string | null): ResponseRequest {
  return buildResponseRequest({
    model,
    input: [userMessage('Call the relay_chat_check function with the word "ok".')],
    tools: [PROBE_TOOL],
    toolChoice: "required",
    maxOutputTokens: CHECK_OUTPUT_BUDGET,
    reasoningEffort,
    stream,
  });
}

/** The answer ended properly, as `incomplete`, because it reached the check's own output budget. */
function cutByBudget(result: RequestResult): boolean {
  return result.outcome.kind === "incomplete" && result.outcome.reason === "max_output_tokens";
}

/** Said instead of the usual explanation, which offers Continue: a report has nothing to continue. */
function budgetNote(result: RequestResult): string {
  const reasoning = result.usage?.output_tokens_details?.reasoning_tokens;
  return reasoning
    ? l10n.t("The stream ended properly (incomplete: max_output_tokens), but the check's budget of {0} output tokens was too small for this model: it spent {1} on reasoning. The relay works; chat uses the output budget from the settings.", CHECK_OUTPUT_BUDGET, reasoning)
    : l10n.t("The stream ended properly (incomplete: max_output_tokens), but the check's budget of {0} output tokens was too small for this model. The relay works; chat uses the output budget from the settings.", CHECK_OUTPUT_BUDGET);
}

/**
 * The start of what the relay sent, quoted for a person: its line breaks become spaces, never the `\n` that
 * JSON.stringify would write (the report is read, not parsed; a Markdown table cell holds one line anyway).
 */
function quotedExcerpt(text: string, length = 60): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return `"${oneLine.length > length ? `${oneLine.slice(0, length).trimEnd()}…` : oneLine}"`;
}

function isHttpFailure(result: RequestResult): boolean {
  return result.outcome.kind === "http_error" || result.outcome.kind === "network_error";
}

/** The relay's refusal as it said it (its status, code and message), without advice meant for other failures. */
function refusalOf(outcome: RequestResult["outcome"]): string {
  if (outcome.kind === "http_error") return `HTTP ${outcome.status}${outcome.code ? ` ${outcome.code}` : ""}: ${outcome.message}`;
  return outcome.kind === "failed" || outcome.kind === "error_event" ? `${outcome.kind}${outcome.code ? ` ${outcome.code}` : ""}: ${outcome.message}` : outcome.kind;
}

function describeFailure(result: RequestResult): string {
  return `${result.outcome.kind}: ${result.explanation ?? ""}`.trim();
}

function textStep(result: RequestResult) {
  const kind = result.outcome.kind;
  // Cut at the check's own budget, the answer still ended properly; any other end is not a working relay.
  if (kind === "completed") return { name: "Streamed request", status: "ok" as const, detail: l10n.t("Completed with {0}.", quotedExcerpt(outputTextOf(result.snapshot.output))) };
  if (cutByBudget(result)) return { name: "Streamed request", status: "warning" as const, detail: budgetNote(result) };
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
  if (cutByBudget(result)) return budgetNote(result);
  if (result.outcome.kind !== "completed") return describeFailure(result);
  const call = functionCallsOf(result.snapshot.output).find((candidate) => candidate.name === PROBE_TOOL.name);
  if (!call) return l10n.t("No call to the requested function came back.");
  if (!call.call_id) return l10n.t("The call came back without a call_id, so its result could not be sent back.");
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    if (!isObject(parsed)) return l10n.t("The call's arguments are not a JSON object.");
  } catch {
    return l10n.t("The call's arguments are not valid JSON: {0}.", quotedExcerpt(call.arguments));
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
        ? omitted === 1
          ? l10n.t("Intact, read from the stream: the relay's final response left out 1 streamed item, which Relay Chat keeps.")
          : l10n.t("Intact, read from the stream: the relay's final response left out {0} streamed items, which Relay Chat keeps.", omitted)
        : l10n.t("Intact: name, call_id and JSON arguments arrived."),
  };
}
