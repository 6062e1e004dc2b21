import type { ChatSettings } from "../chat/chatSettings";
import type { SendEstimate } from "../chat/spendGuard";
import { estimateTokensOfText, withSpendWarning } from "../chat/spendGuard";
import type { AssembledInstructions } from "../instructions/assembleInstructions";
import { buildResponseRequest, userMessage } from "../relay/requestBuilder";
import type { ResponseRequest } from "../relay/types";
import type { EditTurn } from "./editFollowUp";
import { conversationInput } from "./editFollowUp";

// The one request of an edit in place, built with the settings a panel request of the same model would have
// (src/panel/sessionSettings.ts: relay, wire, output cap, the model's own effort and temperature, where the relay
// takes instructions) and the instructions the panel's assembly makes for the file, the edit's prompt last. It
// offers no tools: the answer is text that replaces lines. A follow-up carries the earlier requests of the same
// change and their answers before its own message (src/editInPlace/editFollowUp.ts).

export interface EditRequest {
  request: ResponseRequest;
  /** The spend guard's estimate of its input, with the money warning applied. */
  estimate: SendEstimate;
}

export function editRequest(settings: ChatSettings, instructions: Pick<AssembledInstructions, "text" | "tokens">, prompt: string, earlier: { turns: readonly EditTurn[]; languageId: string } | null = null): EditRequest {
  const own = settings.modelSettings;
  const conversation = earlier ? conversationInput(earlier.turns, earlier.languageId) : [];
  const request = buildResponseRequest({
    model: settings.model,
    instructions: instructions.text,
    ...(settings.instructionsAs ? { instructionsAs: settings.instructionsAs } : {}),
    input: [...conversation, userMessage(prompt)],
    maxOutputTokens: settings.maxOutputTokens,
    reasoningEffort: own?.reasoningEffort ?? null,
    temperature: own?.temperature ?? null,
    stream: settings.stream,
  });
  const conversationText = (earlier?.turns ?? []).map((turn) => `${turn.prompt}\n${turn.answer}`).join("\n");
  const inputTokens = instructions.tokens + estimateTokensOfText(`${conversationText}${prompt}`);
  const threshold = settings.expensiveSendThresholdTokens;
  const tokens: SendEstimate = { inputTokens, thresholdTokens: threshold, needsConfirmation: threshold > 0 && inputTokens > threshold, basis: "characters", purpose: "edit_in_place" };
  return { request, estimate: withSpendWarning(tokens, settings.priceOf?.(settings.model) ?? null, settings.spendWarningAmount ?? null) };
}
