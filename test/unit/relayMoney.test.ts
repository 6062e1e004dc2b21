import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { costOfLedgerRow, costTotal, requestCost } from "../../src/chat/cost";
import { ledgerToCsv } from "../../src/chat/ledgerCsv";
import { ledgerRowFor } from "../../src/chat/requestLedger";
import { readBalance } from "../../src/relay/balance";
import { RelayClient } from "../../src/relay/client";
import { readPrices } from "../../src/relay/pricing";
import { pricesFromOpenRouterModels } from "../../src/relay/pricingReaders";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { EmulatorKey } from "../emulator/accessControl";
import { EMULATOR_CONTEXT_WINDOW, EMULATOR_USD_EXCHANGE_RATE } from "../emulator/moneyEndpoints";
import { CREDITS_PER_USD } from "../emulator/responseCost";
import { startRelayEmulator } from "../emulator/server";
import type { EmulatorOptions, RelayEmulator } from "../emulator/server";
import { startConnectProxy } from "../support/connectProxy";

// Issue 20: balance, prices and billed cost per kind of relay, against the emulator's profiles over
// loopback. Nothing here sends a billed request except where a test asks for an answer's cost.

const LIMITED_KEY = "sk-limited-0123456789abcdef";
const UNLIMITED_KEY = "sk-unlimited-0123456789abcdef";

function keys(): EmulatorKey[] {
  return [
    { key: LIMITED_KEY, name: "limited", quota: 1_000_000 },
    { key: UNLIMITED_KEY, name: "unlimited", quota: null },
  ];
}

async function withRelay(options: EmulatorOptions, key: string, run: (emulator: RelayEmulator, client: RelayClient) => Promise<void>, clientOptions: { extraHeaders?: Record<string, string>; proxyUrl?: string } = {}): Promise<void> {
  const emulator = await startRelayEmulator({ keys: keys(), ...options });
  const client = new RelayClient({ baseUrl: `${emulator.baseUrl}/v1`, apiKey: key, idleTimeoutMs: 5000, ...clientOptions });
  try {
    await run(emulator, client);
  } finally {
    await client.close();
    await emulator.close();
  }
}

async function spend(client: RelayClient, stream: boolean) {
  const result = await client.send(buildResponseRequest({ model: "echo", input: [userMessage("what does this cost")], stream }));
  assert.equal(result.outcome.kind, "completed", result.explanation ?? "");
  return result;
}

const close = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe("relay money: balance", () => {
  it("new-api: the token usage endpoint, in the site's currency, after spending", async () => {
    await withRelay({ profile: "new-api" }, LIMITED_KEY, async (emulator, client) => {
      await spend(client, true);
      const spent = emulator.usageLog[0].cost;
      const result = await readBalance(client, { kind: "new-api" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.deepEqual({ ...result.balance, remaining: null, used: null }, { remaining: null, used: null, unit: "USD", unlimited: false, source: "GET /api/usage/token/" });
      close(result.balance.remaining, (1_000_000 - spent) / CREDITS_PER_USD);
      close(result.balance.used, spent / CREDITS_PER_USD);
      assert.equal(emulator.postCount(), 1, "reading the balance sent no billed request");
    });
  });

  it("new-api: an unlimited key reads as unlimited and still reports what it used, from the token usage and from the billing endpoints", async () => {
    await withRelay({ profile: "new-api" }, UNLIMITED_KEY, async (emulator, client) => {
      await spend(client, false);
      const spent = emulator.usageLog[0].cost / CREDITS_PER_USD;
      const usage = await readBalance(client, { kind: "new-api" });
      assert.ok(usage.ok);
      assert.deepEqual([usage.balance.unlimited, usage.balance.remaining, usage.balance.source], [true, null, "GET /api/usage/token/"]);
      close(usage.balance.used, spent);
      const billing = await readBalance(client, { kind: "one-api" });
      assert.ok(billing.ok);
      assert.deepEqual({ ...billing.balance, used: null }, { remaining: null, used: null, unit: "USD", unlimited: true, source: "GET /v1/dashboard/billing/subscription" });
      close(billing.balance.used, spent);
    });
  });

  it("new-api: the token usage route is /api/usage/token/; the form without the slash answers 301, as new-api's router does", async () => {
    await withRelay({ profile: "new-api" }, LIMITED_KEY, async (emulator) => {
      const slashless = await fetch(`${emulator.baseUrl}/api/usage/token`, { headers: { authorization: `Bearer ${LIMITED_KEY}` }, redirect: "manual" });
      assert.deepEqual([slashless.status, slashless.headers.get("location")], [301, "/api/usage/token/"]);
      const withSlash = await fetch(`${emulator.baseUrl}/api/usage/token/`, { headers: { authorization: `Bearer ${LIMITED_KEY}` } });
      assert.equal(withSlash.status, 200);
      assert.equal(((await withSlash.json()) as { data: { object: string } }).data.object, "token_usage");
    });
  });

  it("new-api / one-api: the OpenAI-compatible billing endpoints, converted from CNY and from raw quota", async () => {
    for (const quotaDisplayType of ["USD", "CNY", "TOKENS"] as const) {
      await withRelay({ profile: "new-api", quotaDisplayType }, LIMITED_KEY, async (emulator, client) => {
        await spend(client, false);
        const spent = emulator.usageLog[0].cost;
        const result = await readBalance(client, { kind: "one-api" });
        assert.ok(result.ok, result.ok ? "" : result.reason);
        const perUsd = quotaDisplayType === "CNY" ? EMULATOR_USD_EXCHANGE_RATE : 1;
        assert.equal(result.balance.unit, quotaDisplayType === "CNY" ? "CNY" : "USD", quotaDisplayType);
        close(result.balance.remaining, ((1_000_000 - spent) / CREDITS_PER_USD) * perUsd);
        close(result.balance.used, (spent / CREDITS_PER_USD) * perUsd);
      });
    }
  });

  it("one-api without /v1: the billing endpoints at the root answer when the /v1 ones do not", async () => {
    const server = createServer((request, response) => {
      const answers: Record<string, unknown> = {
        "/dashboard/billing/subscription": { object: "billing_subscription", hard_limit_usd: 12.5 },
        "/dashboard/billing/usage": { object: "list", total_usage: 250 },
        "/api/status": { success: true, data: { quota_per_unit: 500000, display_in_currency: true } },
      };
      const body = answers[request.url ?? ""];
      response.writeHead(body ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(body ?? { error: { message: "Invalid URL", type: "one_api_error" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new RelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: LIMITED_KEY });
    try {
      const result = await readBalance(client, { kind: "one-api" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.deepEqual(result.balance, { remaining: 10, used: 2.5, unit: "USD", unlimited: false, source: "GET /dashboard/billing/subscription" });
    } finally {
      await client.close();
      server.close();
    }
  });

  it("openrouter: GET /api/v1/key (limit_remaining and usage in dollars; a null limit is unlimited)", async () => {
    await withRelay({ profile: "openrouter" }, LIMITED_KEY, async (emulator, client) => {
      await spend(client, true);
      const spent = emulator.usageLog[0].cost;
      const result = await readBalance(client);
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.equal(result.balance.source, "GET /v1/key");
      close(result.balance.remaining, (1_000_000 - spent) / CREDITS_PER_USD);
      close(result.balance.used, spent / CREDITS_PER_USD);
    });
    await withRelay({ profile: "openrouter" }, UNLIMITED_KEY, async (_emulator, client) => {
      const result = await readBalance(client, { kind: "openrouter" });
      assert.ok(result.ok);
      assert.deepEqual(result.balance, { remaining: null, used: 0, unit: "USD", unlimited: true, source: "GET /v1/key" });
    });
  });

  it("litellm: GET /key/info (budget minus spend; no budget is unlimited), and the echoed key goes nowhere", async () => {
    await withRelay({ profile: "litellm" }, LIMITED_KEY, async (emulator, client) => {
      await spend(client, false);
      const spent = emulator.usageLog[0].cost;
      const result = await readBalance(client, { kind: "litellm" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.equal(result.balance.source, "GET /key/info");
      close(result.balance.remaining, (1_000_000 - spent) / CREDITS_PER_USD);
      close(result.balance.used, spent / CREDITS_PER_USD);
      const raw = await client.getJson("/key/info");
      assert.ok(raw.ok && typeof raw.json === "object" && raw.json !== null);
      assert.equal((raw.json as { key?: unknown }).key, "[REDACTED]", "the key LiteLLM echoes is redacted before anything reads the answer");
    });
    await withRelay({ profile: "litellm" }, UNLIMITED_KEY, async (_emulator, client) => {
      const result = await readBalance(client, { kind: "litellm" });
      assert.ok(result.ok);
      assert.deepEqual([result.balance.unlimited, result.balance.remaining], [true, null]);
    });
  });

  it("without a kind, the readers are tried in turn until one answers", async () => {
    await withRelay({ profile: "litellm" }, LIMITED_KEY, async (emulator, client) => {
      const result = await readBalance(client);
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.equal(result.balance.source, "GET /key/info");
      assert.ok(emulator.received.some((request) => request.path === "/api/usage/token/"), "the new-api endpoint was tried first");
      assert.equal(emulator.postCount(), 0);
    });
  });

  it("a relay without balance endpoints: a reason naming each endpoint tried, never the key", async () => {
    await withRelay({ profile: "openai" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readBalance(client);
      assert.ok(!result.ok);
      for (const endpoint of ["/api/usage/token/", "/v1/dashboard/billing/subscription", "/dashboard/billing/subscription", "/v1/key", "/key/info"]) assert.match(result.reason, new RegExp(`GET ${endpoint}: HTTP 404`));
      assert.ok(!result.reason.includes(LIMITED_KEY));
    });
  });

  it("a refused key: the relay's message, with the key redacted from it", async () => {
    const server = createServer((request, response) => {
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `Invalid key ${String(request.headers.authorization).slice(7)}` } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new RelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: LIMITED_KEY });
    try {
      const result = await readBalance(client, { kind: "litellm" });
      assert.ok(!result.ok);
      assert.match(result.reason, /GET \/key\/info: HTTP 401: Invalid key \[REDACTED\]/);
      assert.ok(!result.reason.includes(LIMITED_KEY));
    } finally {
      await client.close();
      server.close();
    }
  });

  it("a relay that never answers: given up after the time limit, and abortable", async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new RelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: LIMITED_KEY });
    try {
      const started = Date.now();
      const timedOut = await client.getJson("/key/info", { timeoutMs: 200 });
      assert.deepEqual(timedOut, { ok: false, status: null, problem: "no answer within 200 ms" });
      assert.ok(Date.now() - started < 2000);
      const abort = new AbortController();
      const pending = readBalance(client, { kind: "litellm", signal: abort.signal });
      setTimeout(() => abort.abort(), 50);
      const aborted = await pending;
      assert.ok(!aborted.ok);
      assert.match(aborted.reason, /GET \/key\/info: cancelled/);
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it("balance requests carry the extra headers and go through the configured proxy, like the relay's requests", async () => {
    const proxy = await startConnectProxy();
    try {
      await withRelay(
        { profile: "openrouter" },
        LIMITED_KEY,
        async (emulator, client) => {
          const result = await readBalance(client, { kind: "openrouter" });
          assert.ok(result.ok, result.ok ? "" : result.reason);
          const request = emulator.received.find((entry) => entry.path === "/v1/key");
          assert.equal(request?.headers["x-portkey-provider"], "openrouter");
          assert.equal(request?.headers.authorization, `Bearer ${LIMITED_KEY}`);
        },
        { extraHeaders: { "x-portkey-provider": "openrouter" } },
      );
      await withRelay(
        { profile: "openrouter" },
        LIMITED_KEY,
        async (_emulator, client) => {
          const result = await readBalance(client, { kind: "openrouter" });
          assert.ok(result.ok, result.ok ? "" : result.reason);
        },
        { proxyUrl: proxy.url },
      );
      assert.ok(proxy.tunnels.length > 0, "the balance request went through the proxy");
    } finally {
      await proxy.close();
    }
  });
});

describe("relay money: prices", () => {
  it("new-api: /api/pricing ratios as money per million tokens, the way new-api bills them (and per-call models left out)", async () => {
    await withRelay({ profile: "new-api" }, LIMITED_KEY, async (emulator, client) => {
      const result = await readPrices(client, { kind: "new-api" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.equal(result.source, "GET /api/pricing");
      // model_ratio 1 and completion_ratio 2 at 500 000 quota per dollar: $2 and $4 per million, cache ratio 0.5.
      assert.deepEqual(result.prices.get("echo"), { inputPerMillion: 2, cachedInputPerMillion: 1, outputPerMillion: 4, currency: "USD" });
      assert.equal(result.prices.has("image-per-call"), false, "a price per call is no price per token");
      const pricing = emulator.received.find((request) => request.path === "/api/pricing");
      assert.equal(pricing?.headers.authorization, undefined, "the public price list is asked without the key");
      // The estimate from these prices is what the relay charged.
      const answer = await spend(client, true);
      close(requestCost(answer, result.prices.get("echo") ?? null).estimated, emulator.usageLog[0].cost / CREDITS_PER_USD);
    });
  });

  it("new-api with a CNY display: prices in yuan", async () => {
    await withRelay({ profile: "new-api", quotaDisplayType: "CNY" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readPrices(client, { kind: "new-api" });
      assert.ok(result.ok);
      const price = result.prices.get("echo");
      assert.equal(price?.currency, "CNY");
      close(price?.inputPerMillion ?? null, 2 * EMULATOR_USD_EXCHANGE_RATE);
    });
  });

  it("openrouter: /api/v1/models pricing per token and context_length", async () => {
    await withRelay({ profile: "openrouter" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readPrices(client);
      assert.ok(result.ok, result.ok ? "" : result.reason);
      assert.equal(result.source, "GET /v1/models");
      const price = result.prices.get("echo");
      close(price?.inputPerMillion ?? null, 2);
      close(price?.cachedInputPerMillion ?? null, 1);
      close(price?.outputPerMillion ?? null, 4);
      assert.deepEqual([price?.currency, price?.contextWindow], ["USD", EMULATOR_CONTEXT_WINDOW]);
      const listed = await client.listModels();
      assert.ok(listed.ok);
      assert.deepEqual(pricesFromOpenRouterModels(listed.models), result.prices, "the same prices from a model list already fetched");
    });
  });

  it("openrouter: variable (-1) and missing prices are unknown, not free", () => {
    const prices = pricesFromOpenRouterModels([
      { id: "openrouter/auto", pricing: { prompt: "-1", completion: "-1" } },
      { id: "no-pricing" },
      { id: "free", pricing: { prompt: "0", completion: "0" }, context_length: 8192 },
    ]);
    assert.deepEqual([...prices.keys()], ["free"]);
    assert.deepEqual(prices.get("free"), { inputPerMillion: 0, cachedInputPerMillion: null, outputPerMillion: 0, currency: "USD", contextWindow: 8192 });
  });

  it("litellm: /v1/model/info costs per token and max_input_tokens", async () => {
    await withRelay({ profile: "litellm" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readPrices(client, { kind: "litellm" });
      assert.ok(result.ok, result.ok ? "" : result.reason);
      const price = result.prices.get("echo");
      close(price?.outputPerMillion ?? null, 4);
      assert.equal(price?.contextWindow, EMULATOR_CONTEXT_WINDOW);
    });
  });

  it("a relay that publishes no prices: a reason, never a price of 0", async () => {
    await withRelay({ profile: "openai" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readPrices(client);
      assert.ok(!result.ok);
      assert.match(result.reason, /GET \/api\/pricing: HTTP 404/);
      assert.match(result.reason, /GET \/v1\/models: no model with a per-token price/);
    });
    await withRelay({ profile: "new-api" }, LIMITED_KEY, async (_emulator, client) => {
      const result = await readPrices(client, { kind: "one-api" });
      assert.ok(!result.ok);
    });
  });
});

describe("relay money: billed cost", () => {
  for (const stream of [true, false]) {
    const mode = stream ? "streamed" : "not streamed";

    it(`openrouter: usage.cost of the final event or body (${mode})`, async () => {
      await withRelay({ profile: "openrouter" }, LIMITED_KEY, async (emulator, client) => {
        const result = await spend(client, stream);
        assert.deepEqual(emulator.received.map((request) => `${request.method} ${request.path}`), ["POST /v1/responses"], "the send path asks for no price or balance");
        assert.equal(result.billedCost?.source, "usage.cost");
        close(result.billedCost?.amount ?? null, emulator.usageLog[0].cost / CREDITS_PER_USD);
        assert.equal(result.billedCost?.currency, "USD");
      });
    });

    it(`litellm: ${stream ? "usage.cost in the stream's final event" : "the x-litellm-response-cost header"} (${mode})`, async () => {
      await withRelay({ profile: "litellm" }, LIMITED_KEY, async (emulator, client) => {
        const result = await spend(client, stream);
        assert.equal(result.billedCost?.source, stream ? "usage.cost" : "x-litellm-response-cost");
        close(result.billedCost?.amount ?? null, emulator.usageLog[0].cost / CREDITS_PER_USD);
      });
    });

    it(`new-api reports no billed cost (${mode})`, async () => {
      await withRelay({ profile: "new-api" }, LIMITED_KEY, async (_emulator, client) => {
        assert.equal((await spend(client, stream)).billedCost, null);
      });
    });
  }

  it("the ledger row records the relay, the estimate and the billed cost, and its CSV has the columns", async () => {
    await withRelay({ profile: "openrouter" }, LIMITED_KEY, async (emulator, client) => {
      const prices = await readPrices(client, { kind: "openrouter" });
      assert.ok(prices.ok);
      const result = await spend(client, true);
      const context = { entryId: "e1", conversationId: "c1", turnId: "t1", purpose: "send" as const, model: "echo", relay: "Emulated OpenRouter" };
      const row = ledgerRowFor(result, { ...context, price: prices.prices.get("echo") ?? null });
      const charged = emulator.usageLog[0].cost / CREDITS_PER_USD;
      assert.equal(row.relay, "Emulated OpenRouter");
      assert.equal(row.costCurrency, "USD");
      close(row.billedCost ?? null, charged);
      close(row.estimatedCost ?? null, charged);
      const unpriced = ledgerRowFor(result, context);
      assert.deepEqual([unpriced.estimatedCost, unpriced.billedCost !== null], [null, true], "no price: the estimate is unknown, the billed cost still recorded");
      assert.match(ledgerToCsv([row]).split("\r\n")[0], /,relay,estimatedCost,billedCost,costCurrency$/);
      const total = costTotal([row, unpriced].map(costOfLedgerRow));
      assert.deepEqual([total.currency, total.estimated, total.requestsWithoutCost], ["USD", false, 0]);
      close(total.amount, 2 * charged);
    });
  });
});
