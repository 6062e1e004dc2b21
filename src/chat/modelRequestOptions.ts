import type { FunctionToolDefinition } from "../relay/types";
import type { ChatMode } from "../tools/planMode";
import type { ModelSettings } from "./modelSettings";
import { requestToolsInMode } from "./planState";
import type { SentModelSettings } from "./requestRecordParts";
import type { ChatTools } from "./toolRound";

// What a model's own settings (relayChat.modelSettings) change in one request of the panel, kept small and
// apart: the tools it is offered, and the record of what was sent, which the receipt shows and "Copy as curl"
// sends again. The output cap is applied where the budget is chosen (sessionSettings.ts), as the setting's.

/** The tools to offer `settings`' model: none when it is set not to receive tools, else `tools` as they are. */
export function toolsForModel<T extends readonly FunctionToolDefinition[] | undefined>(tools: T, settings: ModelSettings | undefined): T | undefined {
  return settings?.sendTools === false ? undefined : tools;
}

/**
 * The `tools` of a request: the mode's set (Plan: read-only), none for a model set to get none. The request and
 * "What the model is told" both take this list, so the preview names the tools the request offers.
 */
export function offeredTools(tools: ChatTools | null | undefined, mode: ChatMode, settings: ModelSettings | undefined): FunctionToolDefinition[] | undefined {
  return toolsForModel(tools ? requestToolsInMode(tools, mode) : undefined, settings);
}

/** The record of what the settings put in a request; undefined when they changed nothing. */
export function sentModelSettings(settings: ModelSettings | undefined): SentModelSettings | undefined {
  if (!settings) return undefined;
  const sent: SentModelSettings = {
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
    ...(typeof settings.temperature === "number" ? { temperature: settings.temperature } : {}),
    ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
    ...(settings.sendTools === false ? { noTools: true as const } : {}),
  };
  return Object.keys(sent).length > 0 ? sent : undefined;
}
