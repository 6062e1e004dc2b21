import * as vscode from "vscode";
import { RelayClient, RelayConfigurationError } from "../relay/client";
import type { ApiKeyStore, FoundKey, KeySource, WaitingEnvironmentKey } from "./apiKeyStore";
import type { OutputLog } from "./outputLog";
import type { RelayChatSettings } from "./settings";
import { relayOrigin as relayOriginOf } from "./apiKeyStore";
import { readSettings } from "./settings";

/**
 * The current settings, key and relay client. Rebuilt when settings or secrets change (in this window
 * or another), so a key is only ever sent to the origin it was stored for.
 */
export class RelayConnection implements vscode.Disposable {
  private client: RelayClient | null = null;
  private key: string | null = null;
  private keySource: KeySource = "none";
  private problem: string | null = null;
  private waitingEnvironmentKey: WaitingEnvironmentKey | null = null;
  /** Origins already asked about in this window, so a settings change does not ask again and again. */
  private readonly askedOrigins = new Set<string>();
  settings: RelayChatSettings = readSettings();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly log: OutputLog,
  ) {}

  /** Reads settings and the key again and replaces the client. */
  async refresh(): Promise<void> {
    this.settings = readSettings();
    const found: FoundKey = this.settings.baseUrl ? await this.keys.get(this.settings.baseUrl) : { key: null, source: "none" };
    this.key = found.key;
    this.keySource = found.source;
    this.waitingEnvironmentKey = found.waitingEnvironmentKey ?? null;
    this.log.setSecrets(this.secrets());
    const previous = this.client;
    this.client = null;
    this.problem = null;
    if (this.settings.baseUrl && this.key) {
      try {
        this.client = new RelayClient({
          baseUrl: this.settings.baseUrl,
          apiKey: this.key,
          requestIdHeaders: this.settings.requestIdHeaders,
          idleTimeoutMs: this.settings.idleTimeoutMs,
          nonStreamTimeoutMs: this.settings.nonStreamTimeoutMs,
          maxStreamBytes: this.settings.maxStreamBytes,
          extraHeaders: this.settings.extraHeaders,
          proxyUrl: this.settings.proxyUrl || null,
          strictSsl: this.settings.strictSsl,
          userAgent: `relay-chat-vscode/${vscode.version}`,
        });
      } catch (error) {
        this.problem = error instanceof RelayConfigurationError ? error.message : String(error);
      }
    }
    void previous?.close();
    this.changed.fire();
    if (this.waitingEnvironmentKey) this.askAboutEnvironmentKey(this.waitingEnvironmentKey);
  }

  /**
   * The RELAY_CHAT_API_KEY key is bound to one origin (see environmentKeyOrigin). For another relay it is not
   * sent; the user is asked once per window whether this relay is where it belongs.
   */
  private askAboutEnvironmentKey(waiting: WaitingEnvironmentKey): void {
    if (this.askedOrigins.has(waiting.origin)) return;
    this.askedOrigins.add(waiting.origin);
    const setKey = vscode.l10n.t("Set API Key");
    if (waiting.boundByEnvironment) {
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            "The key in RELAY_CHAT_API_KEY belongs to {0} (RELAY_CHAT_BASE_URL), so it is not sent to {1}. Set a key for {1}, or change the base URL.",
            waiting.boundTo ?? "",
            waiting.origin,
          ),
          setKey,
        )
        .then((choice) => (choice === setKey ? vscode.commands.executeCommand("relayChat.setApiKey") : undefined));
      return;
    }
    const send = vscode.l10n.t("Use it for {0}", waiting.origin);
    const message =
      waiting.boundTo === null
        ? vscode.l10n.t("Send the API key from RELAY_CHAT_API_KEY to {0}? It will be used for this relay only.", waiting.origin)
        : vscode.l10n.t("The key in RELAY_CHAT_API_KEY was confirmed for {0}. Use it for {1} instead? It is then sent to {1} only.", waiting.boundTo, waiting.origin);
    void vscode.window.showWarningMessage(message, send, setKey).then(async (choice) => {
      if (choice === setKey) await vscode.commands.executeCommand("relayChat.setApiKey");
      if (choice !== send || relayOriginOf(this.settings.baseUrl) !== waiting.origin) return;
      await this.keys.bindEnvironmentKey(this.settings.baseUrl);
      await this.refresh();
    });
  }

  /** Every key that must never be shown, logged or passed to a tool: the one in use and the environment's. */
  secrets(): string[] {
    return [this.key, this.keys.environmentKey()].filter((secret): secret is string => Boolean(secret));
  }

  current(): RelayClient | null {
    return this.client;
  }

  /** Why there is no client, in words the user can act on; null when there is one. */
  missing(): string | null {
    if (this.client) return null;
    if (this.problem) return this.problem;
    if (!this.settings.baseUrl) return vscode.l10n.t("No relay address is set. Set relayChat.baseUrl in the settings.");
    const waiting = this.waitingEnvironmentKey;
    if (waiting?.boundByEnvironment) {
      return vscode.l10n.t("The key in RELAY_CHAT_API_KEY belongs to {0} (RELAY_CHAT_BASE_URL), so it is not sent to {1}. Run \"Relay Chat: Set API Key\" for {1}.", waiting.boundTo ?? "", waiting.origin);
    }
    if (waiting) {
      return vscode.l10n.t("The key in RELAY_CHAT_API_KEY is not confirmed for {0}, so it is not sent there. Confirm it in the notification, or run \"Relay Chat: Set API Key\".", waiting.origin);
    }
    return vscode.l10n.t('No API key is set. Run "Relay Chat: Set API Key".');
  }

  get hasKey(): boolean {
    return this.key !== null;
  }

  get source(): KeySource {
    return this.keySource;
  }

  /** For redaction: the key in use, so it can be removed from anything written or shown. */
  get secret(): string | null {
    return this.key;
  }

  dispose(): void {
    void this.client?.close();
    this.changed.dispose();
  }
}
