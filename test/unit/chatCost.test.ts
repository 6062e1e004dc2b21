import assert from "node:assert/strict";
import { costTotal, estimatedCost, preferredCost, requestCost } from "../../src/chat/cost";
import { billedCostOf } from "../../src/relay/billedCost";
import type { ModelPrice } from "../../src/relay/modelPrice";
import { parsePriceSetting, priceFor } from "../../src/relay/priceSetting";
import { TimedCache } from "../../src/relay/timedCache";
import type { Usage } from "../../src/relay/types";

// Issue 20: the money arithmetic, with no network: usage x price, billed before estimated, totals that
// never pretend an unknown cost was 0, the relayChat.prices setting, and the cache that keeps price and
// balance requests off the send path.

const PRICE: ModelPrice = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8, currency: "USD" };
const usage = (input: number, output: number, cached = 0): Usage => ({ input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, total_tokens: input + output });

describe("chat cost", () => {
  it("estimates usage x price, cached input at its own price (or the input price when the relay names none)", () => {
    assert.equal(estimatedCost(usage(1_000_000, 1_000_000), PRICE), 10);
    assert.equal(estimatedCost(usage(1_000_000, 0, 400_000), PRICE), 0.6 * 2 + 0.4 * 0.5);
    assert.equal(estimatedCost(usage(1_000_000, 0, 400_000), { ...PRICE, cachedInputPerMillion: null }), 2);
  });

  it("an unknown price or usage is an unknown cost, never 0", () => {
    assert.equal(estimatedCost(null, PRICE), null);
    assert.equal(estimatedCost(usage(10, 10), null), null);
    assert.equal(estimatedCost({ output_tokens: 5 }, PRICE), null);
    assert.deepEqual(requestCost({ usage: null, billedCost: null }, PRICE), { estimated: null, billed: null, currency: null });
    assert.equal(preferredCost(requestCost({ usage: usage(10, 10), billedCost: null }, null)), null);
  });

  it("prefers the billed cost, keeps the estimate beside it, and drops an estimate in another currency", () => {
    const billed = { amount: 0.25, currency: "USD", source: "usage.cost" as const };
    const both = requestCost({ usage: usage(1_000_000, 0), billedCost: billed }, PRICE);
    assert.deepEqual(both, { estimated: 2, billed: 0.25, currency: "USD" });
    assert.deepEqual(preferredCost(both), { amount: 0.25, currency: "USD", estimated: false });
    assert.deepEqual(requestCost({ usage: usage(1_000_000, 0), billedCost: billed }, { ...PRICE, currency: "CNY" }), { estimated: null, billed: 0.25, currency: "USD" });
    assert.deepEqual(preferredCost(requestCost({ usage: usage(1_000_000, 0), billedCost: null }, PRICE)), { amount: 2, currency: "USD", estimated: true });
  });

  it("totals: billed and estimated add up, marked as an estimate, unknown costs counted rather than added as 0", () => {
    const total = costTotal([
      { estimated: 1, billed: 0.5, currency: "USD" },
      { estimated: 2, billed: null, currency: "USD" },
      { estimated: null, billed: null, currency: null },
      { estimated: 3, billed: null, currency: "CNY" },
    ]);
    assert.deepEqual(total, { amount: 2.5, currency: "USD", estimated: true, requestsWithoutCost: 2 });
    assert.deepEqual(costTotal([{ estimated: null, billed: null, currency: null }]), { amount: null, currency: null, estimated: false, requestsWithoutCost: 1 });
  });

  it("billed cost: usage.cost before the header, a LiteLLM header of 0 (no price known) is not believed", () => {
    assert.deepEqual(billedCostOf({ cost: 0.001 }, "0.002"), { amount: 0.001, currency: "USD", source: "usage.cost" });
    assert.deepEqual(billedCostOf({ input_tokens: 1 }, "0.002"), { amount: 0.002, currency: "USD", source: "x-litellm-response-cost" });
    assert.equal(billedCostOf(null, "0"), null);
    assert.equal(billedCostOf(null, "abc"), null);
    assert.equal(billedCostOf({ cost: -1 }, undefined), null);
    assert.deepEqual(billedCostOf({ cost: 0 }, undefined), { amount: 0, currency: "USD", source: "usage.cost" }, "OpenRouter's free models cost 0");
  });
});

describe("relayChat.prices setting", () => {
  it("reads entries, defaults the currency to USD, and prefers an entry for the relay over one for any relay", () => {
    const parsed = parsePriceSetting([
      { model: "gpt-4o-mini", input: 0.15, output: 0.6 },
      { model: "gpt-4o-mini", relay: "Cheap relay", input: 1, cachedInput: 0.25, output: 4, currency: "cny" },
    ]);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(priceFor("gpt-4o-mini", "Cheap relay", null, parsed.entries), { inputPerMillion: 1, cachedInputPerMillion: 0.25, outputPerMillion: 4, currency: "CNY" });
    assert.deepEqual(priceFor("gpt-4o-mini", "Other", null, parsed.entries), { inputPerMillion: 0.15, cachedInputPerMillion: null, outputPerMillion: 0.6, currency: "USD" });
    assert.equal(priceFor("unknown-model", "Other", null, parsed.entries), null);
  });

  it("the relay's published price wins over the setting", () => {
    const parsed = parsePriceSetting([{ model: "echo", input: 9, output: 9 }]);
    assert.equal(priceFor("echo", "Relay", new Map([["echo", PRICE]]), parsed.entries), PRICE);
  });

  it("bad entries are reported by number and model, and skipped; the good ones still apply", () => {
    const parsed = parsePriceSetting([{ model: "a", input: -1, output: 1 }, "text", { input: 1, output: 1 }, { model: "b", input: 1, output: 1, currency: "dollars" }, { model: "c", relay: 3, input: 1, output: 1 }, { model: "ok", input: 1, output: 2 }]);
    assert.deepEqual(parsed.entries.map((entry) => entry.model), ["ok"]);
    assert.equal(parsed.problems.length, 5);
    assert.match(parsed.problems[0], /entry 1 \(a\).*"input" and "output"/);
    assert.match(parsed.problems[1], /entry 2 is not an object/);
    assert.match(parsed.problems[2], /entry 3 needs a "model"/);
    assert.match(parsed.problems[3], /entry 4 \(b\): "currency"/);
    assert.match(parsed.problems[4], /entry 5 \(c\): "relay"/);
    assert.match(parsePriceSetting({ model: "x" }).problems[0], /must be a list/);
    assert.deepEqual(parsePriceSetting(undefined), { entries: [], problems: [] });
  });
});

describe("timed cache", () => {
  it("loads once per interval, shares a load among callers, and peeks without loading", async () => {
    let now = 0;
    let loads = 0;
    const cache = new TimedCache<number>(async () => ++loads, { freshForMs: 60_000, now: () => now });
    assert.equal(cache.peek("relay"), undefined);
    assert.deepEqual(await Promise.all([cache.get("relay"), cache.get("relay")]), [1, 1]);
    now = 59_999;
    assert.equal(await cache.get("relay"), 1);
    assert.equal(cache.isFresh("relay"), true);
    now = 60_000;
    assert.equal(cache.isFresh("relay"), false);
    assert.equal(cache.peek("relay"), 1, "a stale value is still there to show");
    assert.equal(await cache.get("relay"), 2);
    assert.equal(loads, 2);
  });

  it("a failed load keeps the old value and is tried again on the next get", async () => {
    let now = 0;
    let fail = false;
    const cache = new TimedCache<string>(async () => {
      if (fail) throw new Error("offline");
      return "prices";
    }, { freshForMs: 10, now: () => now });
    assert.equal(await cache.get("relay"), "prices");
    now = 20;
    fail = true;
    await assert.rejects(cache.get("relay"), /offline/);
    assert.equal(cache.peek("relay"), "prices");
    fail = false;
    assert.equal(await cache.get("relay"), "prices");
    cache.delete("relay");
    assert.equal(cache.peek("relay"), undefined);
  });
});
