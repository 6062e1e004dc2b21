import * as l10n from "@vscode/l10n";
import type * as vscode from "vscode";
import { normalizeBaseUrl } from "../../relay/baseUrl";

// The API key lives in SecretStorage (the OS keychain), one per relay origin: when the base URL moves
// to another host, the key of the old host is never sent there. RELAY_CHAT_API_KEY is the fallback for
// shells, CI and the demo, and it is bound to one origin the same way (see environmentKeyOrigin).

const SECRET_PREFIX = "relayChat.apiKey:";
/** globalState key: the origin the user confirmed for the RELAY_CHAT_API_KEY key. An origin, never a key. */
const ENVIRONMENT_KEY_ORIGIN = "relayChat.environmentKeyOrigin";

export function relayOrigin(baseUrl: string): string | null {
  try {
    return new URL(normalizeBaseUrl(baseUrl).root).origin;
  } catch {
    return null;
  }
}

export type KeySource = "secret-storage" | "environment" | "none";

/** Why the environment's key is not used for this relay, so the user can be asked or told. */
export interface WaitingEnvironmentKey {
  /** The origin the key would be sent to. */
  readonly origin: string;
  /** The origin it is bound to, if any. */
  readonly boundTo: string | null;
  /** True when RELAY_CHAT_BASE_URL binds it: confirming another origin cannot change that. */
  readonly boundByEnvironment: boolean;
}

export interface FoundKey {
  readonly key: string | null;
  readonly source: KeySource;
  readonly waitingEnvironmentKey?: WaitingEnvironmentKey;
}

/**
 * The one origin the RELAY_CHAT_API_KEY key may go to: the origin of RELAY_CHAT_BASE_URL when that is set
 * beside it (both come from the same environment, so they belong together), else the origin the user
 * confirmed for it once. Null means no origin yet: the key is sent nowhere until the user confirms one.
 */
export function environmentKeyOrigin(environment: NodeJS.ProcessEnv, confirmedOrigin: string | undefined): { origin: string | null; byEnvironment: boolean } {
  const fromEnvironment = environment.RELAY_CHAT_BASE_URL?.trim() ? relayOrigin(environment.RELAY_CHAT_BASE_URL) : null;
  if (fromEnvironment !== null) return { origin: fromEnvironment, byEnvironment: true };
  return { origin: confirmedOrigin ?? null, byEnvironment: false };
}

export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** Machine-wide extension state (context.globalState): where the environment key's origin is kept. */
    private readonly state: vscode.Memento,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {}

  async get(baseUrl: string): Promise<FoundKey> {
    const origin = relayOrigin(baseUrl);
    if (!origin) return { key: null, source: "none" };
    const stored = await this.secrets.get(SECRET_PREFIX + origin);
    if (stored) return { key: stored, source: "secret-storage" };
    const fromEnvironment = this.environmentKey();
    if (!fromEnvironment) return { key: null, source: "none" };
    const bound = environmentKeyOrigin(this.environment, this.state.get<string>(ENVIRONMENT_KEY_ORIGIN));
    if (bound.origin === origin) return { key: fromEnvironment, source: "environment" };
    return { key: null, source: "none", waitingEnvironmentKey: { origin, boundTo: bound.origin, boundByEnvironment: bound.byEnvironment } };
  }

  /** The user agreed to send the RELAY_CHAT_API_KEY key to this relay (and so to no other). */
  async bindEnvironmentKey(baseUrl: string): Promise<void> {
    await this.state.update(ENVIRONMENT_KEY_ORIGIN, this.requireOrigin(baseUrl));
  }

  /** The RELAY_CHAT_API_KEY value, bound or not: tools must never see it either (see ToolSetup). */
  environmentKey(): string | null {
    return this.environment.RELAY_CHAT_API_KEY?.trim() || null;
  }

  async set(baseUrl: string, key: string): Promise<void> {
    await this.secrets.store(SECRET_PREFIX + this.requireOrigin(baseUrl), key.trim());
  }

  async clear(baseUrl: string): Promise<void> {
    await this.secrets.delete(SECRET_PREFIX + this.requireOrigin(baseUrl));
  }

  /** Fires when a key changes, in this window or another one. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key.startsWith(SECRET_PREFIX)) listener();
    });
  }

  private requireOrigin(baseUrl: string): string {
    const origin = relayOrigin(baseUrl);
    if (!origin) throw new Error(l10n.t("Set the relay's base URL first: the key is stored for that address."));
    return origin;
  }
}
