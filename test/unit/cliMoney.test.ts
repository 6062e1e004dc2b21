import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CREDITS_PER_USD } from "../emulator/responseCost";
import { startRelayEmulator } from "../emulator/server";
import type { EmulatorOptions, RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";

// Issue 20 on the command line: `relay-chat balance` and the cost `ask --json` reports, per relay kind.

const KEY = "sk-cli-money-0123456789abcdef";

async function withRelay(options: EmulatorOptions, run: (emulator: RelayEmulator, environment: Record<string, string>) => Promise<void>): Promise<void> {
  const emulator = await startRelayEmulator({ keys: [{ key: KEY, name: "cli", quota: 1_000_000 }], ...options });
  try {
    await run(emulator, { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: `${emulator.baseUrl}/v1` });
  } finally {
    await emulator.close();
  }
}

interface Cost {
  estimated: number | null;
  billed: number | null;
  currency: string | null;
}

describe("CLI: balance and cost", function () {
  this.timeout(60_000);

  it("balance --json prints the balance and exits 0 (new-api), exactly the documented fields", async () => {
    await withRelay({ profile: "new-api" }, async (emulator, environment) => {
      const run = await runCli(["balance", "--json"], environment);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { remaining: 1_000_000 / CREDITS_PER_USD, used: 0, unit: "USD", unlimited: false, source: "GET /api/usage/token/" });
      assert.equal(emulator.postCount(), 0, "never billed");
      const text = await runCli(["balance", "--kind", "one-api"], environment);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /remaining 2 USD, used 0 USD \(from GET \/v1\/dashboard\/billing\/subscription\)/);
    });
  });

  it("balance on a relay without balance endpoints exits 1 with the reason; --kind is checked", async () => {
    await withRelay({ profile: "openai" }, async (_emulator, environment) => {
      const run = await runCli(["balance", "--json"], environment);
      assert.equal(run.code, 1);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /The relay showed no balance for this key\. GET \/api\/usage\/token\/: HTTP 404/);
      assert.ok(!run.stderr.includes(KEY));
      const badKind = await runCli(["balance", "--kind", "azure"], environment);
      assert.equal(badKind.code, 2);
      assert.match(badKind.stderr, /--kind takes one of new-api, one-api, openrouter, litellm/);
    });
  });

  it("--help describes balance, --kind and --prices", async () => {
    const run = await runCli(["--help"], {});
    assert.equal(run.code, 0);
    assert.match(run.stdout, /relay-chat balance --base-url URL \[--json\]/);
    assert.match(run.stdout, /--kind KIND/);
    assert.match(run.stdout, /--prices FILE/);
  });

  it("ask --json: billed and estimated cost on OpenRouter (the billed figure is what the relay charged)", async () => {
    await withRelay({ profile: "openrouter" }, async (emulator, environment) => {
      const run = await runCli(["ask", "--model", "echo", "--json", "what", "does", "this", "cost"], environment);
      assert.equal(run.code, 0, run.stderr);
      const cost = (JSON.parse(run.stdout) as { cost: Cost }).cost;
      const charged = emulator.usageLog[0].cost / CREDITS_PER_USD;
      assert.equal(cost.currency, "USD");
      assert.ok(Math.abs((cost.billed ?? -1) - charged) < 1e-12);
      assert.ok(Math.abs((cost.estimated ?? -1) - charged) < 1e-12, "OpenRouter's published prices estimate what it bills");
    });
  });

  it("ask --json: an estimate from new-api's prices; a relay without prices gives null, or the --prices file's price", async () => {
    await withRelay({ profile: "new-api" }, async (emulator, environment) => {
      const run = await runCli(["ask", "--model", "echo", "--no-stream", "--json", "hello"], environment);
      assert.equal(run.code, 0, run.stderr);
      const cost = (JSON.parse(run.stdout) as { cost: Cost }).cost;
      assert.deepEqual([cost.billed, cost.currency], [null, "USD"]);
      assert.ok(Math.abs((cost.estimated ?? -1) - emulator.usageLog[0].cost / CREDITS_PER_USD) < 1e-12);
    });
    const folder = await mkdtemp(path.join(tmpdir(), "relay-chat-prices-"));
    try {
      await withRelay({ profile: "openai" }, async (emulator, environment) => {
        const unknown = await runCli(["ask", "--model", "echo", "--json", "hello"], environment);
        assert.deepEqual((JSON.parse(unknown.stdout) as { cost: Cost }).cost, { estimated: null, billed: null, currency: null });
        const file = path.join(folder, "prices.json");
        await writeFile(file, JSON.stringify([{ model: "echo", input: 1_000_000, output: 2_000_000, currency: "EUR" }]));
        const priced = await runCli(["ask", "--model", "echo", "--json", "--prices", file, "hello"], environment);
        const usage = emulator.usageLog[1];
        assert.deepEqual((JSON.parse(priced.stdout) as { cost: Cost }).cost, { estimated: usage.inputTokens + 2 * usage.outputTokens, billed: null, currency: "EUR" });
        await writeFile(file, JSON.stringify([{ model: "echo", input: "cheap", output: 1 }]));
        const bad = await runCli(["ask", "--model", "echo", "--json", "--prices", file, "hello"], environment);
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /--prices .*prices\.json: relayChat\.prices entry 1 \(echo\): "input" and "output"/);
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("ask prints the cost on its receipt line (LiteLLM's cost header, not streamed)", async () => {
    await withRelay({ profile: "litellm" }, async (_emulator, environment) => {
      const run = await runCli(["ask", "--model", "echo", "--no-stream", "hello"], environment);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /billed [0-9.e-]+ USD \(estimated [0-9.e-]+\)/);
    });
  });
});
