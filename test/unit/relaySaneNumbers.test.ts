import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { costOfLedgerRow, costTotal, estimatedCost, requestCost } from "../../src/chat/cost";
import { readBalance } from "../../src/relay/balance";
import { billedCostOf } from "../../src/relay/billedCost";
import { RelayClient } from "../../src/relay/client";
import { readPrices } from "../../src/relay/pricing";
import { pricesFromOpenRouterModels } from "../../src/relay/pricingReaders";
import { parsePriceSetting } from "../../src/relay/priceSetting";
import { MAX_PRICE_PER_MILLION, saneNumber } from "../../src/relay/saneNumber";
import type { Usage } from "../../src/relay/types";

// Absurd relay numbers (issue 27): a price of "1e303" per token, a model_ratio of 1e303, usage.cost of
// 1e308 and "0x10" read as 16 became Infinity, NaN or a wrong price. Every price, cost and balance goes
// through saneNumber: what is not a finite, sane decimal is unknown, never 0 and never summed.

describe("relay numbers: absurd ones are unknown", () => {
  const table: [unknown, boolean, number | null][] = [
    // value, accept text, expected
    [12, false, 12],
    [0, false, 0],
    [0.000001, false, 0.000001],
    [-1, false, null],
    [Number.NaN, false, null],
    [Number.POSITIVE_INFINITY, false, null],
    [1e303, false, null],
    [1e308, false, null],
    [MAX_PRICE_PER_MILLION, false, MAX_PRICE_PER_MILLION],
    [MAX_PRICE_PER_MILLION * 2, false, null],
    ["12", false, null],
    ["0.000001", true, 0.000001],
    [" 2.5 ", true, 2.5],
    [".5", true, 0.5],
    ["1e-6", true, 0.000001],
    ["1e303", true, null],
    ["0x10", true, null],
    ["0b11", true, null],
    ["Infinity", true, null],
    ["NaN", true, null],
    ["", true, null],
    ["  ", true, null],
    ["-1", true, null],
    ["12abc", true, null],
    [null, true, null],
    [true, true, null],
    [{}, true, null],
  ];
  for (const [value, text, expected] of table) {
    it(`${JSON.stringify(value) ?? String(value)}${text ? " (text allowed)" : ""} reads as ${expected}`, () => {
      assert.equal(saneNumber(value, { max: MAX_PRICE_PER_MILLION, text }), expected);
    });
  }

  it('a price list: "1e303" and "0x10" per token are unknown, not Infinity or 16', () => {
    const prices = pricesFromOpenRouterModels([
      { id: "huge", pricing: { prompt: "1e303", completion: "0.000002" } },
      { id: "hex", pricing: { prompt: "0x10", completion: "0.000002" } },
      { id: "huge-cache", pricing: { prompt: "0.000001", completion: "0.000002", input_cache_read: "1e303" } },
      { id: "fine", pricing: { prompt: "0.000001", completion: "0.000002" } },
    ]);
    assert.deepEqual([...prices.keys()], ["huge-cache", "fine"]);
    assert.equal(prices.get("huge-cache")?.cachedInputPerMillion, null);
    assert.deepEqual([prices.get("fine")?.inputPerMillion, prices.get("fine")?.outputPerMillion], [1, 2]);
  });

  it("new-api: a model_ratio or completion_ratio of 1e303 leaves the model unpriced; the sane ones stay", async () => {
    await withAnswers(
      {
        "/api/pricing": {
          success: true,
          data: [
            { model_name: "huge", quota_type: 0, model_ratio: 1e303, completion_ratio: 1, enable_groups: ["default"] },
            { model_name: "huge-output", quota_type: 0, model_ratio: 1, completion_ratio: 1e303, enable_groups: ["default"] },
            { model_name: "fine", quota_type: 0, model_ratio: 0.5, completion_ratio: 4, enable_groups: ["default"] },
          ],
          group_ratio: { default: 1 },
        },
        "/api/status": { success: true, data: { quota_per_unit: 500000 } },
      },
      async (client) => {
        const result = await readPrices(client, { kind: "new-api" });
        assert.ok(result.ok, result.ok ? "" : result.reason);
        assert.deepEqual([...result.prices.keys()], ["fine"]);
        assert.deepEqual([result.prices.get("fine")?.inputPerMillion, result.prices.get("fine")?.outputPerMillion], [1, 4]);
      },
    );
  });

  it("a balance: an absurd quota unit falls back to the default, and 1e308 quota is no balance", async () => {
    const usage = (used: number) => ({ code: true, data: { object: "token_usage", total_used: used, total_available: used, unlimited_quota: false } });
    await withAnswers({ "/api/usage/token/": usage(1000), "/api/status": { success: true, data: { quota_per_unit: 1e-300, quota_display_type: "CNY", usd_exchange_rate: 1e303 } } }, async (client) => {
      const result = await readBalance(client, { kind: "new-api" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.deepEqual([result.balance.used, result.balance.remaining, result.balance.unit], [0.002, 0.002, "USD"]);
    });
    await withAnswers({ "/api/usage/token/": usage(1e308), "/api/status": { success: true, data: {} } }, async (client) => {
      const result = await readBalance(client, { kind: "new-api" });
      assert.equal(result.ok, false, "1e308 quota is not a balance");
    });
  });

  it("a billed usage.cost of 1e308 (or a header of 0x10) is not a cost; the estimate stands in", () => {
    assert.equal(billedCostOf({ input_tokens: 1, output_tokens: 1, total_tokens: 2, cost: 1e308 } as Usage, undefined), null);
    assert.equal(billedCostOf(null, "0x10"), null);
    assert.equal(billedCostOf(null, "Infinity"), null);
    assert.deepEqual(billedCostOf(null, "0.0016"), { amount: 0.0016, currency: "USD", source: "x-litellm-response-cost" });
  });

  it("an absurd request is unknown and never summed into a total", () => {
    const usage = { input_tokens: 1e300, output_tokens: 1e300, total_tokens: 2e300 } as Usage;
    const price = { inputPerMillion: 1, cachedInputPerMillion: null, outputPerMillion: 2, currency: "USD" };
    assert.equal(estimatedCost(usage, price), null);
    const fromDisk = costOfLedgerRow({ estimatedCost: Number.POSITIVE_INFINITY, billedCost: 1e308, costCurrency: "USD" });
    const sane = requestCost({ usage: { input_tokens: 1000, output_tokens: 1000, total_tokens: 2000 } as Usage, billedCost: null }, price);
    const total = costTotal([fromDisk, sane, requestCost({ usage, billedCost: null }, price)]);
    assert.deepEqual(total, { amount: 0.003, currency: "USD", estimated: true, requestsWithoutCost: 2 });
  });

  it("relayChat.prices: an absurd price is reported and skipped, not used", () => {
    const parsed = parsePriceSetting([
      { model: "m", input: 1e303, output: 1 },
      { model: "n", input: 0.15, output: 0.6 },
    ]);
    assert.deepEqual(parsed.entries.map((entry) => entry.model), ["n"]);
    assert.equal(parsed.problems.length, 1);
  });
});

/** A loopback relay answering each path with a fixed JSON body, for the client under test. */
async function withAnswers(answers: Record<string, unknown>, run: (client: RelayClient) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    const body = answers[path];
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(body ?? { error: { message: "not found" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = new RelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: "sk-test-0123456789", idleTimeoutMs: 5000 });
  try {
    await run(client);
  } finally {
    await client.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
