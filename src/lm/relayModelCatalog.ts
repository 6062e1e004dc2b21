import * as vscode from "vscode";
import type { OutputLog } from "../host/outputLog";
import type { RelayConnection } from "../host/relayConnection";
import type { ModelInfo } from "../relay/types";
import { limitsFor, modelOverridesFrom } from "./modelLimits";
import type { ToolSupportFindings } from "./toolSupportFindings";

// The relay's models as VS Code's chat sees them. The list comes from GET /v1/models for the current
// relay and key, only when VS Code asks for it (never at activation), and is kept for a few minutes so
// that opening the model picker does not query the relay each time. A new base URL or key empties it.

const LIST_KEPT_MS = 5 * 60_000;

export class RelayModelCatalog {
  private cached: { fingerprint: string; models: ModelInfo[]; at: number } | null = null;
  private inFlight: { fingerprint: string; listing: Promise<ModelInfo[]> } | null = null;

  constructor(
    private readonly connection: RelayConnection,
    private readonly findings: ToolSupportFindings,
    private readonly log: OutputLog,
  ) {}

  /** Which relay and key the list belongs to; it changes exactly when the list must be fetched again. */
  fingerprint(): string {
    return `${this.connection.current()?.root ?? ""}\n${this.connection.secret ?? ""}`;
  }

  forget(): void {
    this.cached = null;
  }

  async information(silent: boolean, token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    const client = this.connection.current();
    if (!client) {
      // Without a relay or key there is nothing to list; asked out loud (not silently), say what to set.
      if (!silent) this.explainMissingConnection();
      return [];
    }
    const models = await this.models(token);
    const overrides = modelOverridesFrom(vscode.workspace.getConfiguration("relayChat").get("languageModels"));
    const host = new URL(client.root).host;
    return models.map((model) => {
      const limits = limitsFor(model.id, overrides, this.findings.knownWithoutTools(client.root, model.id));
      const limitsSource = limits.source === "setting" ? vscode.l10n.t("from relayChat.languageModels") : vscode.l10n.t("defaults; set relayChat.languageModels for this model");
      return {
        id: model.id,
        name: model.id,
        family: model.id,
        version: "relay",
        detail: host,
        tooltip: vscode.l10n.t(
          "{0} through the relay at {1}. Up to {2} input and {3} output tokens ({4}). Every request is in Relay Chat's request log.",
          model.id,
          host,
          limits.maxInputTokens,
          limits.maxOutputTokens,
          limitsSource,
        ),
        maxInputTokens: limits.maxInputTokens,
        maxOutputTokens: limits.maxOutputTokens,
        capabilities: { toolCalling: limits.toolCalling, imageInput: false },
      };
    });
  }

  private async models(token: vscode.CancellationToken): Promise<ModelInfo[]> {
    const fingerprint = this.fingerprint();
    if (this.cached?.fingerprint === fingerprint && Date.now() - this.cached.at < LIST_KEPT_MS) return this.cached.models;
    if (this.inFlight?.fingerprint !== fingerprint) this.inFlight = { fingerprint, listing: this.fetch(fingerprint) };
    const listing = this.inFlight.listing;
    try {
      return await untilCancelled(listing, token);
    } finally {
      if (this.inFlight?.listing === listing) this.inFlight = null;
    }
  }

  private async fetch(fingerprint: string): Promise<ModelInfo[]> {
    const client = this.connection.current();
    if (!client) return [];
    const result = await client.listModels();
    if (!result.ok) {
      this.log.error(`GET /v1/models for VS Code's chat failed (request ${result.requestId ?? "-"}): ${result.explanation}`);
      // VS Code shows this message beside the vendor in its model management view.
      throw new Error(
        vscode.l10n.t("Relay Chat could not list the relay's models: {0} (request id: {1})", result.explanation, result.requestId ?? vscode.l10n.t("none")),
      );
    }
    this.log.info(`GET /v1/models for VS Code's chat: ${result.models.length} model(s) (request ${result.requestId ?? "-"})`);
    // A list fetched for a relay or key that has since changed is not kept.
    if (this.fingerprint() === fingerprint) this.cached = { fingerprint, models: result.models, at: Date.now() };
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
