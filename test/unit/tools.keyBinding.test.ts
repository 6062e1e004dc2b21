// Where the key may go: a stored key belongs to one relay origin, and so does the key in RELAY_CHAT_API_KEY
// (bound by RELAY_CHAT_BASE_URL beside it, or by the user's confirmation), so pointing the base URL somewhere
// else never sends it there. SecretStorage and globalState are VS Code's interfaces, kept in memory here.
import assert from "node:assert/strict";
import type * as vscode from "vscode";
import { ApiKeyStore, environmentKeyOrigin } from "../../src/host/relays/apiKeyStore";

class MemorySecrets {
  readonly values = new Map<string, string>();
  get = async (key: string) => this.values.get(key);
  store = async (key: string, value: string) => void this.values.set(key, value);
  delete = async (key: string) => void this.values.delete(key);
  onDidChange = () => ({ dispose() {} });
}

class MemoryState {
  readonly values = new Map<string, unknown>();
  keys = () => [...this.values.keys()];
  get = <T>(key: string, fallback?: T) => (this.values.has(key) ? (this.values.get(key) as T) : fallback);
  update = async (key: string, value: unknown) => void this.values.set(key, value);
}

const key = "sk-from-the-environment-0123456789";

function store(environment: NodeJS.ProcessEnv) {
  const secrets = new MemorySecrets();
  const state = new MemoryState();
  return { secrets, state, keys: new ApiKeyStore(secrets as unknown as vscode.SecretStorage, state as unknown as vscode.Memento, environment) };
}

describe("tools: the key is bound to one relay origin", () => {
  it("binds the environment's key to RELAY_CHAT_BASE_URL's origin and sends it nowhere else", async () => {
    const { keys } = store({ RELAY_CHAT_API_KEY: key, RELAY_CHAT_BASE_URL: "http://127.0.0.1:9000/v1" });
    assert.deepEqual(await keys.get("http://127.0.0.1:9000"), { key, source: "environment" });
    // The same server under another name is another origin: a workspace or a typo cannot redirect the key.
    assert.deepEqual(await keys.get("http://localhost:9000/v1"), {
      key: null,
      source: "none",
      waitingEnvironmentKey: { origin: "http://localhost:9000", boundTo: "http://127.0.0.1:9000", boundByEnvironment: true },
    });
    assert.equal((await keys.get("https://relay.evil.example/v1")).key, null);
  });

  it("without RELAY_CHAT_BASE_URL, sends the environment's key only to the one origin the user confirmed", async () => {
    const { keys, state } = store({ RELAY_CHAT_API_KEY: key });
    const first = await keys.get("https://relay.example.com/v1");
    assert.deepEqual(first, { key: null, source: "none", waitingEnvironmentKey: { origin: "https://relay.example.com", boundTo: null, boundByEnvironment: false } });
    await keys.bindEnvironmentKey("https://relay.example.com/v1/responses");
    assert.deepEqual(await keys.get("https://relay.example.com"), { key, source: "environment" });
    assert.equal((await keys.get("https://other.example.com")).waitingEnvironmentKey?.boundTo, "https://relay.example.com");
    await keys.bindEnvironmentKey("https://other.example.com");
    assert.equal((await keys.get("https://relay.example.com")).key, null, "moving the binding takes it away from the old origin");
    assert.deepEqual([...state.values.values()], ["https://other.example.com"], "only an origin is kept, never the key");
  });

  it("prefers the key stored for the origin, and gives none for an address that is not a URL", async () => {
    const { keys } = store({ RELAY_CHAT_API_KEY: key, RELAY_CHAT_BASE_URL: "https://relay.example.com" });
    await keys.set("https://relay.example.com/v1", "  sk-stored-for-this-relay  ");
    assert.deepEqual(await keys.get("https://relay.example.com"), { key: "sk-stored-for-this-relay", source: "secret-storage" });
    assert.deepEqual(await keys.get("not a url"), { key: null, source: "none" });
  });

  it("reads the binding from the environment first, then from the confirmation", () => {
    assert.deepEqual(environmentKeyOrigin({ RELAY_CHAT_BASE_URL: "https://a.example/v1" }, "https://b.example"), { origin: "https://a.example", byEnvironment: true });
    assert.deepEqual(environmentKeyOrigin({}, "https://b.example"), { origin: "https://b.example", byEnvironment: false });
    assert.deepEqual(environmentKeyOrigin({ RELAY_CHAT_BASE_URL: "  " }, undefined), { origin: null, byEnvironment: false });
  });
});
