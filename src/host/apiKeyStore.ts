import * as vscode from "vscode";
import { normalizeBaseUrl } from "../relay/baseUrl";

// The API key lives in SecretStorage (the OS keychain), one per relay origin: when the base URL moves
// to another host, the key of the old host is never sent there. RELAY_CHAT_API_KEY is the fallback for
// shells, CI and the demo.

const SECRET_PREFIX = "relayChat.apiKey:";

export function relayOrigin(baseUrl: string): string | null {
  try {
    return new URL(normalizeBaseUrl(baseUrl).root).origin;
  } catch {
    return null;
  }
}

export type KeySource = "secret-storage" | "environment" | "none";

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(baseUrl: string): Promise<{ key: string | null; source: KeySource }> {
    const origin = relayOrigin(baseUrl);
    if (origin) {
      const stored = await this.secrets.get(SECRET_PREFIX + origin);
      if (stored) return { key: stored, source: "secret-storage" };
    }
    const fromEnvironment = process.env.RELAY_CHAT_API_KEY?.trim();
    return fromEnvironment ? { key: fromEnvironment, source: "environment" } : { key: null, source: "none" };
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
    if (!origin) throw new Error("Set the relay's base URL first: the key is stored for that address.");
    return origin;
  }
}
