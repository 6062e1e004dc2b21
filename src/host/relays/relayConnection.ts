import * as vscode from "vscode";
import { RelayClient } from "../../relay/client";
import type { ApiKeyStore, KeySource, WaitingEnvironmentKey } from "./apiKeyStore";
import { RelayClients } from "./relayClients";
import type { RelayClientSource } from "./relayClients";
import type { OutputLog } from "../outputLog";
import type { RelayProfile } from "../../relay/relayProfiles";
import { defaultRelay } from "../../relay/relayProfiles";
import type { RelayChatSettings } from "../settings";
import { relayOrigin as relayOriginOf } from "./apiKeyStore";
import { readSettings } from "../settings";

/** Which relay the panel sends to, remembered per workspace (beside the model picked for it). */
export interface RelayChoiceMemory {
  get(): string | undefined;
  set(name: string | undefined): Thenable<void>;
}

const RELAY_KEY = "relayChat.relay";

export function workspaceRelayMemory(state: vscode.Memento): RelayChoiceMemory {
  return {
    get: () => state.get<string>(RELAY_KEY) || undefined,
    set: (name) => state.update(RELAY_KEY, name),
  };
}

/**
 * The current settings, the relays, the active relay's key and client. Rebuilt when settings or secrets
 * change (in this window or another), so a key is only ever sent to the origin it was stored for. The
 * other relays get clients on demand (clientFor), for their model lists and VS Code's chat.
 */
export class RelayConnection implements vscode.Disposable {
  /** The relays' clients; a switch takes effect only once the new relay's key is read (relayClients.ts). */
  private readonly clients = new RelayClients();
  /** The other relays' keys, so they are redacted too. */
  private readonly otherKeys = new Set<string>();
  /** Origins already asked about in this window, so a settings change does not ask again and again. */
  private readonly askedOrigins = new Set<string>();
  settings: RelayChatSettings = readSettings();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly log: OutputLog,
    private readonly choice: RelayChoiceMemory = { get: () => undefined, set: async () => undefined },
  ) {}

  /** Every relay, in the order of the settings. */
  get relays(): readonly RelayProfile[] {
    return this.settings.relays;
  }

  /** The relay the panel sends to: the one picked, else the first; null when none is set. */
  get active(): RelayProfile | null {
    return this.clients.current.active;
  }

  get activeRelay(): string | null {
    return this.active?.name ?? null;
  }

  relayNames(): string[] {
    return this.settings.relays.map((relay) => relay.name);
  }

  /** Makes `name` the relay the panel sends to (remembered per workspace) and rebuilds its client. */
  async select(name: string): Promise<void> {
    if (!this.settings.relays.some((relay) => relay.name === name)) return;
    await this.choice.set(name);
    await this.refresh();
  }

  /**
   * Reads settings and the key again and replaces the clients. Nothing changes until the key is read;
   * a refresh overtaken by a later one changes nothing (the later one does).
   */
  async refresh(): Promise<void> {
    const read = readSettings();
    const picked = this.choice.get();
    const active = read.relays.find((relay) => relay.name === picked) ?? defaultRelay(read.relays) ?? null;
    const source: RelayClientSource = {
      keyOf: (profile) => this.keys.get(profile.baseUrl),
      build: (profile, key) => this.buildClient(read, profile, key),
      keyInUse: (key) => {
        this.otherKeys.add(key);
        this.log.setSecrets(this.secrets());
      },
      problem: (message) => this.log.error(message),
    };
    if (!(await this.clients.switchTo(read.relays, active, source))) return;
    // Everything downstream (the panel's setup card, the CLI-like checks) means the active relay's address.
    this.settings = { ...read, baseUrl: active?.baseUrl ?? "" };
    this.log.setSecrets(this.secrets());
    this.changed.fire();
    const waiting = this.clients.current.found.waitingEnvironmentKey;
    if (waiting) this.askAboutEnvironmentKey(waiting);
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
      const active = this.active;
      if (choice !== send || !active || relayOriginOf(active.baseUrl) !== waiting.origin) return;
      await this.keys.bindEnvironmentKey(active.baseUrl);
      await this.refresh();
    });
  }

  /** Every key that must never be shown, logged or passed to a tool: the ones in use and the environment's. */
  secrets(): string[] {
    return [this.secret, ...this.otherKeys, this.keys.environmentKey()].filter((secret): secret is string => Boolean(secret));
  }

  current(): RelayClient | null {
    return this.clients.activeClient;
  }

  /**
   * The client of relay `name`: the active one's, or one built for another relay with its own stored key
   * (the environment's key only where it is bound, never after asking); null without a key or with a
   * setting problem.
   */
  clientFor(name: string): Promise<RelayClient | null> {
    return this.clients.clientFor(name);
  }

  private buildClient(settings: RelayChatSettings, profile: RelayProfile, key: string): RelayClient {
    return new RelayClient({
      baseUrl: profile.baseUrl,
      apiKey: key,
      requestIdHeaders: settings.requestIdHeaders,
      idleTimeoutMs: settings.idleTimeoutMs,
      contentTimeoutMs: settings.contentTimeoutMs,
      nonStreamTimeoutMs: settings.nonStreamTimeoutMs,
      maxStreamBytes: settings.maxStreamBytes,
      extraHeaders: profile.extraHeaders,
      proxyUrl: settings.proxyUrl || null,
      strictSsl: settings.strictSsl,
      userAgent: `relay-chat-vscode/${vscode.version}`,
    });
  }

  /** Why there is no client, in words the user can act on; null when there is one. */
  missing(): string | null {
    if (this.clients.activeClient) return null;
    const { active, problem, found } = this.clients.current;
    if (problem) return problem;
    if (!active) return this.settings.relayProblems.length > 0 ? this.settings.relayProblems.join(" ") : vscode.l10n.t("No relay address is set. Set relayChat.baseUrl in the settings.");
    const waiting = found.waitingEnvironmentKey;
    if (waiting?.boundByEnvironment) {
      return vscode.l10n.t("The key in RELAY_CHAT_API_KEY belongs to {0} (RELAY_CHAT_BASE_URL), so it is not sent to {1}. Run \"Relay Chat: Set API Key\" for {1}.", waiting.boundTo ?? "", waiting.origin);
    }
    if (waiting) {
      return vscode.l10n.t("The key in RELAY_CHAT_API_KEY is not confirmed for {0}, so it is not sent there. Confirm it in the notification, or run \"Relay Chat: Set API Key\".", waiting.origin);
    }
    return vscode.l10n.t('No API key is set. Run "Relay Chat: Set API Key".');
  }

  get hasKey(): boolean {
    return this.secret !== null;
  }

  get source(): KeySource {
    return this.clients.current.found.source;
  }

  /** For redaction: the key in use, so it can be removed from anything written or shown. */
  get secret(): string | null {
    return this.clients.current.found.key;
  }

  dispose(): void {
    this.clients.dispose();
    this.changed.dispose();
  }
}
