import assert from "node:assert/strict";
import { RelayMoneyCaches } from "../../src/host/relays/relayMoneyCaches";
import type { Balance } from "../../src/relay/balance";
import type { PriceTable } from "../../src/relay/modelPrice";
import type { RelayProfile } from "../../src/relay/relayProfiles";

// Issue 27: after a relay's base URL changed, the prices (kept an hour) and the balance (a minute) read
// from its old address stayed in use. They belong to the address they were read from.

function relay(name: string, baseUrl: string): RelayProfile {
  return { name, baseUrl, extraHeaders: {}, consoleUrl: null, priceSource: "relay", kind: "new-api", origin: "relays" };
}

describe("relay money caches: what an address said goes with the address", () => {
  it("a relay whose base URL changes loses its prices and balance at once; the others keep theirs", async () => {
    const addressOf = new Map<string, string>();
    const read: string[] = [];
    const caches = new RelayMoneyCaches({
      prices: async (name) => {
        read.push(`prices ${name} ${addressOf.get(name)}`);
        return new Map([["m", { inputPerMillion: addressOf.get(name) === "http://old" ? 1 : 2, cachedInputPerMillion: null, outputPerMillion: 1, currency: "USD" }]]) as PriceTable;
      },
      balance: async (name) => {
        read.push(`balance ${name} ${addressOf.get(name)}`);
        return { remaining: addressOf.get(name) === "http://old" ? 5 : 7, used: 0, unit: "USD", unlimited: false, source: "test" } as Balance;
      },
    });
    addressOf.set("A", "http://old");
    addressOf.set("B", "http://b");
    caches.relaysChanged([relay("A", "http://old"), relay("B", "http://b")]);
    await caches.prices.get("A");
    await caches.balances.get("A");
    await caches.prices.get("B");

    addressOf.set("A", "http://new");
    assert.deepEqual(caches.relaysChanged([relay("A", "http://new"), relay("B", "http://b")]), ["A"]);
    assert.equal(caches.prices.peek("A"), undefined, "the old address's prices are gone");
    assert.equal(caches.balances.peek("A"), undefined, "the old address's balance is gone");
    assert.equal(caches.prices.isFresh("A"), false);
    assert.ok(caches.prices.isFresh("B"), "an unchanged relay keeps its prices");
    assert.equal((await caches.prices.get("A"))?.get("m")?.inputPerMillion, 2, "read again from the new address");
    assert.equal((await caches.balances.get("A"))?.remaining, 7);
    assert.deepEqual(read, ["prices A http://old", "balance A http://old", "prices B http://b", "prices A http://new", "balance A http://new"]);

    assert.deepEqual(caches.relaysChanged([relay("A", "http://new")]), ["B"], "a removed relay's figures go too");
    assert.equal(caches.prices.peek("B"), undefined);
  });
});
