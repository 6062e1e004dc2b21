import * as l10n from "@vscode/l10n";
import type { TurnOutcome } from "../../chat/conversation";
import type { ModelSettings } from "../../chat/modelSettings";
import { classifyHttpError, classifyNetworkError, classifyServiceError, isImageRefusal } from "../../relay/errorClassifier";
import { UNFINISHED_TOOL_CALL_REASON } from "../../relay/chatCompletions/chunkTranslator";
import { isResponsesRefusal } from "../../relay/chatCompletions/protocolRefusal";
import { rejectedParameterOf } from "../../relay/rejectedParameter";
import type { RejectedParameter } from "../../relay/rejectedParameter";
import type { ErrorCause } from "../../relay/types";
import type { FixAction, TurnAction } from "../protocol";

// What a turn that did not complete offers: buttons that fit the likely cause of the problem, and Retry
// or Continue where sending again makes sense. Pure; the relay's own classifier names the cause.

/** The likely cause of an outcome, as the relay client classifies it; null for outcomes without one. */
export function causeOf(outcome: TurnOutcome): ErrorCause | null {
  switch (outcome.kind) {
    case "http_error":
      return classifyHttpError(outcome.status, outcome.body, "").cause;
    case "failed":
    case "error_event":
      return classifyServiceError(outcome.code, outcome.message).cause;
    case "network_error":
      return classifyNetworkError({ code: outcome.code }).cause;
    case "interrupted":
      return "stream";
    case "timed_out":
      return "network";
    default:
      return null;
  }
}

/**
 * The fix buttons for a settled turn. Quota and balance live in the relay's console, so its address is
 * offered when the user configured one; a key problem offers a new key; an address problem the settings
 * and the connection check.
 */
export function fixesFor(outcome: TurnOutcome, options: { consoleConfigured: boolean }): FixAction[] {
  // A parameter the model refuses is refused again on Retry: the way out is that model's setting.
  if (rejectedSettingOf(outcome) !== null) return ["modelSettings", "selectModel"];
  switch (causeOf(outcome)) {
    case "key":
      return ["setApiKey", "checkConnection"];
    case "quota":
      return options.consoleConfigured ? ["openConsole"] : [];
    case "model_permission":
      return ["selectModel"];
    case "address":
      return ["openSettings", "checkConnection"];
    case "network":
      return outcome.kind === "network_error" ? ["openSettings", "checkConnection"] : [];
    case "bad_request":
      return ["selectModel"];
    case "context_length":
      return ["summarizeEarlierTurns", "selectModel"];
    default:
      return [];
  }
}

/**
 * Retry only where a request reached the relay: a refused connection or an unknown host sent nothing, so
 * Check connection (a fix) is what helps there. Continue only after an incomplete answer. A message whose
 * images the model refused can go again without them.
 */
export function actionsFor(outcome: TurnOutcome, options: { hasImages: boolean; overResponses?: boolean } = { hasImages: false }): TurnAction[] {
  // The relay answered "no Responses interface for this model": one click saves Chat Completions for it and sends again.
  if (options.overResponses && (outcome.kind === "http_error" || outcome.kind === "failed") && isResponsesRefusal(outcome)) return ["useChatCompletions", "retry"];
  switch (outcome.kind) {
    case "http_error":
      return options.hasImages && isImageRefusal(outcome.status, outcome.body) ? ["resendWithoutImages", "retry"] : ["retry"];
    case "completed":
    case "in_progress":
      return [];
    case "incomplete":
      // An answer that ended inside a tool call has nothing to continue: the call has to be asked for again.
      return outcome.reason === UNFINISHED_TOOL_CALL_REASON ? ["retry"] : ["continue", "retry"];
    case "network_error":
      return causeOf(outcome) === "address" ? [] : ["retry"];
    default:
      return ["retry"];
  }
}

/** The model setting behind each parameter a model can refuse, and its name as Model settings… shows it. */
const SETTING_OF: Record<RejectedParameter, { field: keyof ModelSettings; name: () => string }> = {
  reasoning_effort: { field: "reasoningEffort", name: () => l10n.t("Reasoning effort") },
  temperature: { field: "temperature", name: () => l10n.t("Temperature") },
  max_output_tokens: { field: "maxOutputTokens", name: () => l10n.t("Max output tokens") },
  tools: { field: "sendTools", name: () => l10n.t("Tools") },
};

export interface RejectedSetting {
  /** The field of relayChat.modelSettings that sets it (Model settings… opens at it). */
  field: keyof ModelSettings;
  /** Its name, as Model settings… lists it. */
  name: string;
  /** The value the relay quoted as refused, when it did. */
  value: string | null;
}

/** The model setting whose parameter the relay says the model refused; null for any other outcome. */
export function rejectedSettingOf(outcome: TurnOutcome): RejectedSetting | null {
  if (outcome.kind !== "http_error" && outcome.kind !== "failed" && outcome.kind !== "error_event") return null;
  const rejection = rejectedParameterOf(outcome);
  if (rejection === null) return null;
  const setting = SETTING_OF[rejection.parameter];
  return { field: setting.field, name: setting.name(), value: rejection.value };
}

/** Said after the relay's explanation: which setting of which model to change, and where. */
export function rejectedSettingNote(setting: RejectedSetting, model: string): string {
  return setting.value === null
    ? l10n.t('{0} refuses "{1}" as sent: change it in Model settings… for {0}, then Retry.', model, setting.name)
    : l10n.t('{0} refuses "{1}" set to "{2}": change it in Model settings… for {0}, then Retry.', model, setting.name, setting.value);
}
