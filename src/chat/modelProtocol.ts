import type { ModelProtocol, ModelSettingsEntry } from "./modelSettings";
import { modelSettingsFor } from "./modelSettings";

/**
 * The wire a model's requests go over: what the person set (relayChat.modelSettings, by hand or confirmed from the
 * check-up) wins; else what the relay's model list says the model speaks; else the Responses interface.
 */
export function effectiveProtocol(entries: readonly ModelSettingsEntry[], relay: string, model: string, listed: ModelProtocol | null): ModelProtocol {
  return modelSettingsFor(entries, relay, model).protocol ?? listed ?? "responses";
}
