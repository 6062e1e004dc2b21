import assert from "node:assert/strict";
import { dropListOnlyProtocolChoices, PENDING_CHOICES_KEY, withProtocolOf } from "../../src/chat/listOnlyProtocolChoices";
import type { ListOnlyMigrationHost, ProtocolChoice } from "../../src/chat/listOnlyProtocolChoices";
import { RelayClient } from "../../src/relay/client";
import type { RelayEmulator } from "../emulator/server";
import { startRelayEmulator } from "../emulator/server";

// Chat Completions chosen from a relay's model list alone (earlier versions read new-api's ["openai"] as "Chat
// Completions only" and the check-up's confirmation wrote it into relayChat.modelSettings) is dropped once, and
// the person told once; a choice the person made, or confirmed after a refusal, stays. The lists come from real
// emulator relays: a new-api relay (["openai"] for a default channel, ["openai-response"] for a Responses-only
// model, an Anthropic channel's ["anthropic", "openai"]) and a one-api-like relay that lists no endpoint types.

describe("dropping Chat Completions chosen from a model list alone", () => {
  let newApi: RelayEmulator;
  let oneApi: RelayEmulator;
  const clients: RelayClient[] = [];

  before(async () => {
    newApi = await startRelayEmulator({ profile: "new-api", endpointTypes: { reasoning: ["openai-response"], tools: ["anthropic", "openai"] } });
    oneApi = await startRelayEmulator({ profile: "new-api", listsEndpointTypes: false });
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await newApi.close();
    await oneApi.close();
  });

  /** An extension host as far as the migration sees it: User settings, globalState, relays (one of them down until `up`). */
  function host(setting: unknown[]) {
    const state = new Map<string, unknown>();
    const told: ProtocolChoice[][] = [];
    let down = true;
    const listOf = async (emulator: RelayEmulator) => {
      const client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey });
      clients.push(client);
      const listed = await client.listModels();
      return listed.ok ? listed.models : null;
    };
    const migration: ListOnlyMigrationHost & { setting: unknown[] } = {
      setting,
      state: { get: (key) => state.get(key), update: async (key, value) => void state.set(key, value) },
      readSetting: () => migration.setting,
      writeSetting: async (value) => void (migration.setting = value),
      modelsOf: async (relay) => (relay === "new api" ? listOf(newApi) : relay === "one api" ? listOf(oneApi) : relay === "down" && !down ? listOf(newApi) : null),
    };
    // What the extension does with the result: one notification per run that dropped something.
    const run = async () => {
      const dropped = await dropListOnlyProtocolChoices(migration);
      if (dropped.length > 0) told.push(dropped);
      return dropped;
    };
    return { migration, run, told, state, up: () => (down = false) };
  }

  const written = [
    // Listed ["openai"]: earlier versions sent it over Chat Completions from the list, never over Responses, so no
    // refusal was ever seen for it: the choice came from the list.
    { relay: "New API", model: "echo", protocol: "chat" },
    // Listed ["openai-response"]: earlier versions sent it over Responses; "chat" came from a refusal or the person.
    { relay: "New API", model: "reasoning", protocol: "chat" },
    // An Anthropic channel's ["anthropic", "openai"], with a setting of the person's beside the protocol.
    { relay: "new api", model: "tools", protocol: "chat", temperature: 0.2 },
    // Not listed (any more): nothing says where it came from; it stays.
    { relay: "New API", model: "retired-model", protocol: "chat" },
    // A relay whose list names no endpoint types: only a refusal or the person could choose it.
    { relay: "One API", model: "echo", protocol: "chat" },
    // For every relay: Relay Chat never wrote such an entry; the person did.
    { model: "echo", protocol: "chat" },
    // Not chat: nothing to drop.
    { relay: "New API", model: "demo", reasoningEffort: "low" },
    // On a relay that cannot be reached yet.
    { relay: "Down", model: "echo", protocol: "chat" },
  ];

  it("drops the list-only choices (the entry's other settings kept), keeps the others, and tells once", async () => {
    const { migration, run, told, up } = host(structuredClone(written));
    const dropped = await run();
    assert.deepEqual(dropped, [
      { relay: "New API", model: "echo" },
      { relay: "new api", model: "tools" },
    ]);
    assert.deepEqual(told, [dropped], "told once, naming each");
    assert.deepEqual(migration.setting, [
      { relay: "New API", model: "reasoning", protocol: "chat" },
      { relay: "new api", model: "tools", temperature: 0.2 },
      { relay: "New API", model: "retired-model", protocol: "chat" },
      { relay: "One API", model: "echo", protocol: "chat" },
      { model: "echo", protocol: "chat" },
      { relay: "New API", model: "demo", reasoningEffort: "low" },
      { relay: "Down", model: "echo", protocol: "chat" },
    ]);

    // After a reload: nothing more is dropped or told; the relay that was down is looked at once it answers.
    assert.deepEqual(await run(), []);
    assert.equal(told.length, 1, "not told again after a reload");
    up();
    assert.deepEqual(await run(), [{ relay: "Down", model: "echo" }]);
    assert.equal(told.length, 2);
    assert.equal(migration.setting.some((entry) => (entry as { relay?: string }).relay === "Down"), false);
  });

  it("never drops a choice made after this version first ran (the person's, or confirmed after a refusal)", async () => {
    const { migration, run, told } = host([]);
    assert.deepEqual(await run(), []);
    // Later, the person confirms Chat Completions for a model listed ["openai"] after its refusal.
    migration.setting = [{ relay: "New API", model: "echo", protocol: "chat" }];
    assert.deepEqual(await run(), []);
    assert.deepEqual(migration.setting, [{ relay: "New API", model: "echo", protocol: "chat" }]);
    assert.deepEqual(told, []);
  });

  it("leaves alone a choice the person changed before its relay could be read", async () => {
    const { migration, run, told, state, up } = host([{ relay: "Down", model: "echo", protocol: "chat" }]);
    assert.deepEqual(await run(), []);
    migration.setting = [{ relay: "Down", model: "echo", protocol: "responses" }];
    up();
    assert.deepEqual(await run(), []);
    assert.deepEqual(migration.setting, [{ relay: "Down", model: "echo", protocol: "responses" }]);
    assert.deepEqual(state.get(PENDING_CHOICES_KEY), [], "looked at: never again");
    assert.deepEqual(told, []);
  });

  it("puts the dropped choices back when the person asks to keep them, and does not drop them again", async () => {
    const { migration, run, told, state } = host([{ relay: "New API", model: "echo", protocol: "chat", temperature: 0.5 }]);
    const dropped = await run();
    assert.deepEqual(dropped, [{ relay: "New API", model: "echo" }]);
    assert.deepEqual(migration.setting, [{ relay: "New API", model: "echo", temperature: 0.5 }]);
    // "Keep Chat Completions for Them"
    migration.setting = withProtocolOf(migration.setting, dropped, "chat");
    assert.deepEqual(migration.setting, [{ relay: "New API", model: "echo", temperature: 0.5, protocol: "chat" }]);
    assert.deepEqual(state.get(PENDING_CHOICES_KEY), []);
    assert.deepEqual(await run(), []);
    assert.equal(told.length, 1);
  });
});
