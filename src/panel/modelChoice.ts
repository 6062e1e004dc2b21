import * as l10n from "@vscode/l10n";
import type { RelayClient } from "../relay/client";
import type { ModelMemory, PanelLog } from "./panelServices";

// Which model the next request uses, and the models the relay lists. A model picked in the panel is
// remembered per workspace and wins over the relayChat.model setting; the first listed model is the
// fallback when neither is set.

export class ModelChoice {
  private listed: string[] = [];
  private listNote: string | null = null;

  constructor(
    private readonly memory: ModelMemory,
    private readonly setting: () => string,
    private readonly log: PanelLog,
  ) {}

  current(): string {
    return this.memory.get() || this.setting() || this.listed[0] || "";
  }

  /** The models the relay listed for the key, sorted; empty until loaded. */
  get models(): string[] {
    return this.listed;
  }

  get note(): string | null {
    return this.listNote;
  }

  async pick(model: string): Promise<void> {
    await this.memory.set(model.trim() || undefined);
  }

  /** Loads the list from the relay (one GET /v1/models); without a client the list is empty. */
  async refresh(client: RelayClient | null): Promise<void> {
    if (!client) {
      this.listed = [];
      this.listNote = null;
      return;
    }
    const result = await client.listModels();
    if (result.ok) {
      this.listed = result.models.map((model) => model.id).sort();
      this.listNote = l10n.t("A listed model may still lack a feature (tools, streaming).");
    } else {
      this.listNote = l10n.t("The model list could not be loaded: {0}", result.explanation);
      this.log.error(`GET /v1/models failed (request ${result.requestId ?? "-"}): ${result.explanation}`);
    }
  }
}
