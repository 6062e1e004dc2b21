import * as l10n from "@vscode/l10n";
import type { ModelProtocol, ModelSettingsEntry } from "../../chat/modelSettings";
import { protocolFor } from "../../chat/modelSettings";
import type { ModelMemory, PanelLog, RelayAccess } from "../panelServices";

// Which relay and model the next request uses, and the models each relay lists. A model picked in the
// panel is remembered per relay (per workspace) and wins over the relayChat.model setting; the first model
// the relay lists is the fallback when neither is set. Picking a model of another relay makes that relay
// the one the panel sends to.

/** What one relay lists, for the grouped picker. */
export interface RelayModels {
  relay: string;
  /** Sorted; empty until loaded, or when the relay has no key or did not answer. */
  models: string[];
  /** The model remembered for this relay when its list (loaded) no longer has it. */
  unlisted: string | null;
  /** Why the list is empty or may mislead, in a sentence; null when fine. */
  note: string | null;
  /** The models whose requests go over Chat Completions (set or confirmed by the person); empty: none. */
  chatModels?: string[];
}

export class ModelChoice {
  private lists = new Map<string, RelayModels>();
  /**
   * What the person confirmed in the panel, with the settings it was confirmed against: it holds until the settings
   * are read again (the saved choice then speaks for itself, and a later change, such as Model settings… forcing
   * Responses, wins).
   */
  private readonly confirmedProtocols = new Map<string, { protocol: ModelProtocol; against: readonly ModelSettingsEntry[] | undefined }>();

  constructor(
    private readonly memory: ModelMemory,
    private readonly relay: RelayAccess,
    private readonly setting: () => string,
    private readonly log: PanelLog,
  ) {}

  /** The model for the next request on the active relay. */
  current(): string {
    const active = this.relay.activeRelay;
    if (active === null) return this.setting();
    return this.memory.get(active) || this.setting() || this.lists.get(active)?.models[0] || "";
  }

  /** The model a request to `relay` would use: the one remembered for it, else the setting, else its first listed. */
  async modelFor(relay: string): Promise<string> {
    const chosen = this.memory.get(relay) || this.setting();
    if (chosen) return chosen;
    if (!this.lists.has(relay)) this.lists.set(relay, await this.load(relay));
    return this.lists.get(relay)?.models[0] ?? "";
  }

  /** The models the active relay listed for its key, sorted; empty until loaded. */
  get models(): string[] {
    const active = this.relay.activeRelay;
    return (active !== null && this.lists.get(active)?.models) || [];
  }

  get note(): string | null {
    const active = this.relay.activeRelay;
    return active === null ? null : (this.lists.get(active)?.note ?? null);
  }

  /** Every relay's list, in the order of the settings (the active relay's included). */
  get relays(): RelayModels[] {
    return this.relay.relayNames().map((relay) => {
      const listed = this.lists.get(relay) ?? { relay, models: [], unlisted: null, note: null };
      const remembered = this.memory.get(relay);
      const unlisted = remembered && listed.models.length > 0 && !listed.models.includes(remembered) ? remembered : null;
      const chatModels = [...new Set([...(unlisted === null ? [] : [unlisted]), ...listed.models])].filter((model) => this.protocolOf(relay, model) === "chat");
      return { ...listed, unlisted, ...(chatModels.length > 0 ? { chatModels } : {}) };
    });
  }

  /**
   * The wire `model`'s requests go over on `relay`: what the person just confirmed in the panel (until the saved
   * setting is read back), else the setting (relayChat.modelSettings), else Responses. A relay's model list never
   * decides it: new-api lists "openai" for models whose /v1/responses works.
   */
  protocolOf(relay: string, model: string): ModelProtocol {
    const entries = this.relay.settings.modelSettings;
    const key = `${relay}\u0000${model}`;
    const confirmed = this.confirmedProtocols.get(key);
    if (confirmed && confirmed.against !== entries) this.confirmedProtocols.delete(key);
    else if (confirmed) return confirmed.protocol;
    return protocolFor(entries ?? [], relay, model);
  }

  /** The person confirmed `protocol` for `model` on `relay` (the panel's offer); it holds from the next request on. */
  confirmProtocol(relay: string, model: string, protocol: ModelProtocol): void {
    this.confirmedProtocols.set(`${relay}\u0000${model}`, { protocol, against: this.relay.settings.modelSettings });
  }

  /** `model` for the next request, on `relay` (default: the active relay), which becomes the active one. */
  async pick(model: string, relay: string | null = this.relay.activeRelay): Promise<void> {
    if (relay === null) return;
    await this.memory.set(relay, model.trim() || undefined);
    if (relay !== this.relay.activeRelay) await this.relay.select(relay);
  }

  /** Loads every relay's list (one GET /v1/models each, never billed); a relay without a key lists nothing. */
  async refresh(): Promise<void> {
    const names = this.relay.relayNames();
    const loaded = await Promise.all(names.map((relay) => this.load(relay)));
    this.lists = new Map(loaded.map((entry) => [entry.relay, entry]));
  }

  private async load(relay: string): Promise<RelayModels> {
    const client = await this.relay.clientFor(relay);
    if (!client) return { relay, models: [], unlisted: null, note: null };
    const result = await client.listModels();
    // The connection was rebuilt meanwhile (a relay added or picked) and this client closed: not the
    // relay's failure, and the refresh that follows lists again.
    if (!result.ok && client.closed) return { relay, models: this.lists.get(relay)?.models ?? [], unlisted: null, note: null };
    if (result.ok) {
      return { relay, models: result.models.map((model) => model.id).sort(), unlisted: null, note: l10n.t("A listed model may still lack a feature (tools, streaming).") };
    }
    this.log.error(`GET /v1/models on ${relay} failed (request ${result.requestId ?? "-"}): ${result.explanation}`);
    // The list from before stays: a relay that is briefly down does not empty the picker.
    return { relay, models: this.lists.get(relay)?.models ?? [], unlisted: null, note: l10n.t("The model list could not be loaded: {0}", result.explanation) };
  }
}
