import assert from "node:assert/strict";
import type { FoundKey } from "../../src/host/relays/apiKeyStore";
import { ModelChoice } from "../../src/panel/relays/modelChoice";
import type { ModelMemory, RelayAccess } from "../../src/panel/panelServices";
import { RelayClients } from "../../src/host/relays/relayClients";
import type { RelayClientSource } from "../../src/host/relays/relayClients";
import { RelayClient } from "../../src/relay/client";
import { readPrices } from "../../src/relay/pricing";
import type { RelayProfile } from "../../src/relay/relayProfiles";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";

// Issue 27: when a relay was added or picked, the active relay switched before its key was read and its
// client built; in that window the new relay's prices, models and balance were asked of the previous
// relay, with its key, and "no prices" was kept for the new one for an hour. Two emulators on loopback
// and a key lookup held open show where each request lands, and with which key.

const KEY_A = "sk-relay-a-0123456789abcdef";
const KEY_B = "sk-relay-b-0123456789abcdef";

function profile(name: string, emulator: RelayEmulator): RelayProfile {
  return { name, baseUrl: `${emulator.baseUrl}/v1`, extraHeaders: {}, consoleUrl: null, priceSource: "relay", kind: "new-api", origin: "relays" };
}

/** A key store whose lookups can be held open, as the keychain may be. */
class HeldKeys {
  private readonly keys = new Map<string, string>();
  private held: { baseUrl: string; release: () => void; released: Promise<void> } | null = null;

  set(baseUrl: string, key: string): void {
    this.keys.set(baseUrl, key);
  }

  /** The next lookups of `baseUrl` wait until release() is called. */
  hold(baseUrl: string): () => void {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { baseUrl, release, released };
    return release;
  }

  async get(baseUrl: string): Promise<FoundKey> {
    if (this.held?.baseUrl === baseUrl) await this.held.released;
    const key = this.keys.get(baseUrl) ?? null;
    return { key, source: key ? "secret-storage" : "none" };
  }
}

function sourceOf(keys: HeldKeys): RelayClientSource {
  return {
    keyOf: (relay) => keys.get(relay.baseUrl),
    build: (relay, key) => new RelayClient({ baseUrl: relay.baseUrl, apiKey: key, idleTimeoutMs: 5000 }),
    keyInUse: () => undefined,
    problem: (message) => assert.fail(message),
  };
}

/** Every request an emulator received, as "path key". */
function arrivals(emulator: RelayEmulator): string[] {
  return emulator.received.map((request) => `${request.path} ${String(request.headers.authorization ?? "").replace(/^Bearer /, "") || "(no key)"}`);
}

describe("relay switching: a request for a relay goes to that relay or nowhere", () => {
  let relayA: RelayEmulator;
  let relayB: RelayEmulator;
  let clients: RelayClients;

  beforeEach(async () => {
    relayA = await startRelayEmulator({ profile: "new-api", keys: [{ key: KEY_A, name: "a", quota: null }] });
    relayB = await startRelayEmulator({ profile: "new-api", keys: [{ key: KEY_B, name: "b", quota: null }] });
    clients = new RelayClients();
  });

  afterEach(async () => {
    clients.dispose();
    await relayA.close();
    await relayB.close();
  });

  it("adding relay B and switching to it while B's key is still being read: nothing for B reaches A, and B is asked with B's key", async () => {
    const keys = new HeldKeys();
    const a = profile("A", relayA);
    const b = profile("B", relayB);
    keys.set(a.baseUrl, KEY_A);
    keys.set(b.baseUrl, KEY_B);
    assert.equal(await clients.switchTo([a], a, sourceOf(keys)), true);

    const release = keys.hold(b.baseUrl);
    const switching = clients.switchTo([a, b], b, sourceOf(keys));
    // The window: B's key is not read yet. What is asked for B (its price list, as the money code does,
    // and its models) must not go to A.
    const duringSwitch = await clients.clientFor("B");
    if (duringSwitch) {
      await readPrices(duringSwitch, { kind: "new-api" });
      await duringSwitch.listModels();
    }
    const activeDuringSwitch = clients.current.active?.name;
    release();
    assert.equal(await switching, true);

    const afterSwitch = await clients.clientFor("B");
    assert.ok(afterSwitch, "B has a client once its key is read");
    assert.equal(clients.current.active?.name, "B");
    const prices = await readPrices(afterSwitch, { kind: "new-api" });
    assert.ok(prices.ok, prices.ok ? "" : prices.reason);
    const models = await afterSwitch.listModels();
    assert.ok(models.ok);

    assert.deepEqual(arrivals(relayA), [], "relay A received nothing meant for B");
    assert.ok(arrivals(relayB).includes(`/api/pricing (no key)`) && arrivals(relayB).includes(`/v1/models ${KEY_B}`), arrivals(relayB).join("\n"));
    assert.ok(!arrivals(relayB).some((arrival) => arrival.endsWith(KEY_A)), "A's key never went to B");
    assert.equal(activeDuringSwitch, "A", "A stays the active relay until B's key is read");
  });

  it("a switch overtaken by a later one changes nothing: the later one wins, whatever order the keys arrive in", async () => {
    const keys = new HeldKeys();
    const a = profile("A", relayA);
    const b = profile("B", relayB);
    keys.set(a.baseUrl, KEY_A);
    keys.set(b.baseUrl, KEY_B);
    const release = keys.hold(b.baseUrl);
    const toB = clients.switchTo([a, b], b, sourceOf(keys));
    const toA = clients.switchTo([a, b], a, sourceOf(keys));
    assert.equal(await toA, true);
    release();
    assert.equal(await toB, false, "the earlier switch, finishing last, is dropped");
    assert.equal(clients.current.active?.name, "A");
    const active = await clients.clientFor("A");
    assert.ok(active);
    await active.listModels();
    assert.deepEqual(arrivals(relayA), [`/v1/models ${KEY_A}`]);
    assert.deepEqual(arrivals(relayB), []);
  });

  it("an other relay's client asked for during a switch is not kept past it", async () => {
    const keys = new HeldKeys();
    const a = profile("A", relayA);
    const b = profile("B", relayB);
    keys.set(a.baseUrl, KEY_A);
    keys.set(b.baseUrl, KEY_B);
    assert.equal(await clients.switchTo([a, b], a, sourceOf(keys)), true);
    const release = keys.hold(b.baseUrl);
    const other = clients.clientFor("B");
    const switching = clients.switchTo([a, b], a, sourceOf(keys));
    release();
    await switching;
    assert.equal(await other, null, "built for settings no longer in force");
    const fresh = await clients.clientFor("B");
    assert.ok(fresh);
    await fresh.listModels();
    assert.deepEqual(arrivals(relayB), [`/v1/models ${KEY_B}`]);
  });

  it('a model list cut by the switch that closed its client is not an error: nothing like "The client is closed" is logged', async () => {
    const keys = new HeldKeys();
    const a = profile("A", relayA);
    const b = profile("B", relayB);
    keys.set(a.baseUrl, KEY_A);
    keys.set(b.baseUrl, KEY_B);
    assert.equal(await clients.switchTo([a, b], a, sourceOf(keys)), true);
    const errors: string[] = [];
    const access = {
      relayNames: () => clients.current.relays.map((relay) => relay.name),
      activeRelay: "A",
      // The panel asked for the client just before Add Relay's refresh replaced (and closed) it.
      clientFor: async (name: string) => {
        const client = await clients.clientFor(name);
        await clients.switchTo([a, b], b, sourceOf(keys));
        return client;
      },
    } as unknown as RelayAccess;
    const memory: ModelMemory = { get: () => undefined, set: async () => undefined };
    const choice = new ModelChoice(memory, access, () => "", { info: () => undefined, error: (message) => errors.push(message) });
    await choice.refresh();
    assert.deepEqual(errors, []);
  });
});
