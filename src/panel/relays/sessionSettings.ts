import { chatSettingsWithDefaults } from "../../chat/chatSettings";
import type { ChatSettings, RequestInstructions } from "../../chat/chatSettings";
import { DEFAULT_COMPACTION_SETTINGS } from "../../chat/compaction";
import type { ModelProtocol } from "../../chat/modelSettings";
import { modelSettingsFor, protocolFor } from "../../chat/modelSettings";
import type { ModelSettings } from "../../chat/modelSettings";
import type { ModelPrice } from "../../relay/modelPrice";
import type { PanelPreferences, RelayAccess } from "../panelServices";

// What a chat session of the panel is given for its next request, read from the relay settings, the model
// picked and the prices known now. Kept apart from the controller: it changes when a setting is added.

export interface SessionSettingsSources {
  relay: RelayAccess;
  model: string;
  preferences?: () => PanelPreferences;
  /** The price of a model on a relay as known now (never fetched while sending); null: unknown. */
  priceOf?: (relay: string, model: string) => ModelPrice | null;
  /** What the model is told with the next request. */
  instructions?: RequestInstructions;
  /** The wire a model's requests go over on a relay (ModelChoice.protocolOf); absent: the settings alone decide. */
  protocolOf?: (relay: string, model: string) => ModelProtocol;
}

/** The model's context window: as the relay lists it (OpenRouter's context_length), else relayChat.contextWindows. */
export function contextWindowOf(sources: SessionSettingsSources): number | null {
  const relay = sources.relay.activeRelay;
  const listed = relay === null ? undefined : sources.priceOf?.(relay, sources.model)?.contextWindow;
  return listed ?? sources.preferences?.().contextWindows[sources.model] ?? null;
}

/** The model's own settings on the active relay (relayChat.modelSettings, every relay's entry under the relay's own). */
export function modelSettingsOf(sources: Pick<SessionSettingsSources, "relay" | "model">): ModelSettings {
  return modelSettingsFor(sources.relay.settings.modelSettings ?? [], sources.relay.activeRelay ?? "", sources.model);
}

export function sessionSettings(sources: SessionSettingsSources): ChatSettings {
  const settings = sources.relay.settings;
  const relay = sources.relay.activeRelay ?? undefined;
  const model = modelSettingsOf(sources);
  const instructionsAs = settings.relays?.find((profile) => profile.name === relay)?.instructionsAs;
  return chatSettingsWithDefaults({
    model: sources.model,
    relay,
    priceOf: (priced) => (relay === undefined ? null : (sources.priceOf?.(relay, priced) ?? null)),
    spendWarningAmount: settings.spendWarningAmount ?? null,
    stream: settings.stream,
    // The model's own cap wins over relayChat.maxOutputTokens.
    maxOutputTokens: model.maxOutputTokens ?? settings.maxOutputTokens,
    toolRoundCap: settings.toolRoundCap,
    expensiveSendThresholdTokens: settings.historyWarningTokens,
    contextWindowTokens: contextWindowOf(sources),
    compaction: settings.compaction ?? DEFAULT_COMPACTION_SETTINGS,
    instructions: sources.instructions,
    protocol: (relay === undefined ? undefined : sources.protocolOf?.(relay, sources.model)) ?? protocolFor(settings.modelSettings ?? [], relay ?? "", sources.model),
    ...(instructionsAs ? { instructionsAs } : {}),
    ...(Object.keys(model).length > 0 ? { modelSettings: model } : {}),
  });
}
