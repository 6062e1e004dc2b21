import * as vscode from "vscode";
import type { OutputLog } from "../host/outputLog";
import type { RelayConnection } from "../host/relays/relayConnection";
import type { RelayClient } from "../relay/client";
import type { ModelInfo } from "../relay/types";
import { limitsFor, modelOverridesFrom } from "./modelLimits";
import type { ToolSupportFindings } from "./toolSupportFindings";

// The relays' models as VS Code's chat sees them. Each list comes from GET /v1/models for one relay and its
// key, only when VS Code asks for it (never at activation), and is kept for a few minutes so that opening
// the model picker does not query the relays each time. A new base URL or key empties it. With several
// relays each model names its relay (its detail, and an id of "relay/model"); with one, the id is the
// model id as before.

const LIST_KEPT_MS = 5 * 60_000;

/** Where a model VS Code's chat picked is served: the relay's name and the model id it lists. */
export interface RelayModelRef {
  relay: string;
  model: string;
}

export class RelayModelCatalog {
  private readonly cached = new Map<string, { fingerprint: string; models: ModelInfo[]; at: number }>();
  private readonly inFlight = new Map<string, { fingerprint: string; listing: Promise<ModelInfo[]> }>();
  /** The ids last handed to VS Code, to find the relay of a model it asks with. */
  private readonly refs = new Map<string, RelayModelRef>();

  constructor(
    private readonly connection: RelayConnection,
    private readonly findings: ToolSupportFindings,
    private readonly log: OutputLog,
  ) {}

  /** Which relays and keys the lists belong to; it changes exactly when a list must be fetched again. */
  fingerprint(): string {
    return `${this.connection.relays.map((relay) => relay.baseUrl).join("\n")}\n${this.connection.secrets().join("\n")}`;
  }

  forget(): void {
    this.cached.clear();
  }

  /** The relay and model behind an id VS Code's chat uses; an unknown id is taken as a model of the active relay. */
  refOf(id: string): RelayModelRef | null {
    const known = this.refs.get(id);
    if (known) return known;
    const active = this.connection.activeRelay;
    return active === null ? null : { relay: active, model: id };
  }

  async information(silent: boolean, token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    const relays = this.connection.relayNames();
    const clients = await Promise.all(relays.map(async (relay) => ({ relay, client: await this.connection.clientFor(relay) })));
    const reachable = clients.filter((entry): entry is { relay: string; client: RelayClient } => entry.client !== null);
    if (reachable.length === 0) {
      // Without a relay or key there is nothing to list; asked out loud (not silently), say what to set.
      if (!silent) this.explainMissingConnection();
      return [];
    }
    const several = relays.length > 1;
    const overrides = modelOverridesFrom(vscode.workspace.getConfiguration("relayChat").get("languageModels"));
    const lists = await Promise.all(reachable.map(async ({ relay, client }) => ({ relay, client, models: await this.modelsOf(relay, client, token, reachable.length === 1) })));
    this.refs.clear();
    return lists.flatMap(({ relay, client, models }) =>
      models.map((model) => {
        const id = several ? `${relay}/${model.id}` : model.id;
        this.refs.set(id, { relay, model: model.id });
        const limits = limitsFor(model.id, overrides, this.findings.knownWithoutTools(client.root, model.id));
        const limitsSource = limits.source === "setting" ? vscode.l10n.t("from relayChat.languageModels") : vscode.l10n.t("defaults; set relayChat.languageModels for this model");
        return {
          id,
          name: model.id,
          family: model.id,
          version: "relay",
          detail: several ? relay : new URL(client.root).host,
          tooltip: vscode.l10n.t(
            "{0} through the relay at {1}. Up to {2} input and {3} output tokens ({4}). Every request is in Relay Chat's request log.",
            model.id,
            several ? `${relay} (${new URL(client.root).host})` : new URL(client.root).host,
            limits.maxInputTokens,
            limits.maxOutputTokens,
            limitsSource,
          ),
          maxInputTokens: limits.maxInputTokens,
          maxOutputTokens: limits.maxOutputTokens,
          capabilities: { toolCalling: limits.toolCalling, imageInput: limits.imageInput },
        };
      }),
    );
  }

  /**
   * One relay's list, cached. With one relay a failed list is VS Code's error to show; with several, a
   * relay that does not answer is left out (and logged) so the others' models still show.
   */
  private async modelsOf(relay: string, client: RelayClient, token: vscode.CancellationToken, only: boolean): Promise<ModelInfo[]> {
    const fingerprint = `${client.root}\n${this.fingerprint()}`;
    const cached = this.cached.get(relay);
    if (cached?.fingerprint === fingerprint && Date.now() - cached.at < LIST_KEPT_MS) return cached.models;
    let flight = this.inFlight.get(relay);
    if (flight?.fingerprint !== fingerprint) {
      flight = { fingerprint, listing: this.fetch(relay, client, fingerprint) };
      this.inFlight.set(relay, flight);
    }
    const listing = flight.listing;
    try {
      return await untilCancelled(listing, token);
    } catch (error) {
      if (only || error instanceof vscode.CancellationError) throw error;
      return [];
    } finally {
      if (this.inFlight.get(relay)?.listing === listing) this.inFlight.delete(relay);
    }
  }

  private async fetch(relay: string, client: RelayClient, fingerprint: string): Promise<ModelInfo[]> {
    const result = await client.listModels();
    // A client closed by a refresh (a relay added or picked) cut its own request: nothing to log or keep;
    // the refresh announces the new lists.
    if (!result.ok && client.closed) return [];
    if (!result.ok) {
      this.log.error(`GET /v1/models of ${relay} for VS Code's chat failed (request ${result.requestId ?? "-"}): ${result.explanation}`);
      // VS Code shows this message beside the vendor in its model management view.
      throw new Error(
        vscode.l10n.t("Relay Chat could not list the relay's models: {0} (request id: {1})", result.explanation, result.requestId ?? vscode.l10n.t("none")),
      );
    }
    this.log.info(`GET /v1/models of ${relay} for VS Code's chat: ${result.models.length} model(s) (request ${result.requestId ?? "-"})`);
    // A list fetched for a relay or key that has since changed is not kept.
    if (`${client.root}\n${this.fingerprint()}` === fingerprint) this.cached.set(relay, { fingerprint, models: result.models, at: Date.now() });
    return result.models;
  }

  private explainMissingConnection(): void {
    const setKey = vscode.l10n.t("Set API Key");
    const openSettings = vscode.l10n.t("Open Settings");
    void vscode.window
      .showWarningMessage(this.connection.missing() ?? vscode.l10n.t("Relay Chat is not connected to a relay."), setKey, openSettings)
      .then((choice) => {
        if (choice === setKey) void vscode.commands.executeCommand("relayChat.setApiKey");
        if (choice === openSettings) void vscode.commands.executeCommand("relayChat.openSettings");
      });
  }
}

/** The shared listing keeps going for other callers; only this caller stops waiting. */
function untilCancelled<T>(work: Promise<T>, token: vscode.CancellationToken): Promise<T> {
  if (token.isCancellationRequested) return Promise.reject(new vscode.CancellationError());
  return new Promise<T>((resolve, reject) => {
    const subscription = token.onCancellationRequested(() => reject(new vscode.CancellationError()));
    work.then(
      (value) => {
        subscription.dispose();
        resolve(value);
      },
      (error: unknown) => {
        subscription.dispose();
        reject(error);
      },
    );
  });
}
