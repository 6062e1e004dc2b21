import * as vscode from "vscode";
import { RelayClient, RelayConfigurationError } from "../relay/client";
import type { ApiKeyStore, KeySource } from "./apiKeyStore";
import type { OutputLog } from "./outputLog";
import type { RelayChatSettings } from "./settings";
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
    const found = this.settings.baseUrl ? await this.keys.get(this.settings.baseUrl) : { key: null, source: "none" as KeySource };
    this.key = found.key;
    this.keySource = found.source;
    this.log.setSecrets([this.key]);
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
  }

  current(): RelayClient | null {
    return this.client;
  }

  /** Why there is no client, in words the user can act on; null when there is one. */
  missing(): string | null {
    if (this.client) return null;
    if (this.problem) return this.problem;
    if (!this.settings.baseUrl) return vscode.l10n.t("No relay address is set. Set relayChat.baseUrl in the settings.");
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
