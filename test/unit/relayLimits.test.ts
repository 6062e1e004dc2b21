import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { outputTextOf } from "../../src/relay/accumulate";
import { RelayClient, RelayConfigurationError } from "../../src/relay/client";
import { checkExtraHeaders } from "../../src/relay/extraHeaders";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import { requestIdsFromHeaders } from "../../src/relay/requestId";
import { curlCommandFor } from "../../src/panel/editor/curlCommand";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";

// Request ids, time limits, size limits and gateway headers, over loopback HTTP (issue 10, §1 and §3).

function echo(stream: boolean, model = "echo") {
  return buildResponseRequest({ model, input: [userMessage("hello limits")], stream });
}

describe("relay client: request ids, limits and extra headers", () => {
  let emulator: RelayEmulator;
  const clients: RelayClient[] = [];
  const clientFor = (options: Partial<ConstructorParameters<typeof RelayClient>[0]> = {}) => {
    const client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, ...options });
    clients.push(client);
    return client;
  };
  beforeEach(async () => {
    emulator = await startRelayEmulator({ profile: "new-api", proxyRequestId: true });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await emulator.close();
  });

  it("prefers the relay's own request-id header over a proxy's x-request-id, and keeps every id seen", async () => {
    // Even when the user's list names the generic header first.
    for (const requestIdHeaders of [undefined, ["x-request-id", "x-oneapi-request-id"]]) {
      for (const stream of [true, false]) {
        const result = await clientFor({ requestIdHeaders }).send(echo(stream));
        const received = emulator.received[emulator.received.length - 1];
        assert.equal(result.outcome.kind, "completed");
        assert.equal(result.requestId, received.requestId, "the id of the relay's usage log");
        assert.equal(result.requestIds.length, 2);
        assert.match(result.requestIds[1], /^proxy_/);
      }
    }
    // The generic header comes last, however the setting lists it.
    assert.deepEqual(requestIdsFromHeaders({ "x-request-id": "proxy", "x-service-request-id": "relay" }, ["X-Request-Id", "x-service-request-id"]), ["relay", "proxy"]);
  });

  it("keeps the id an error message carries as well", async () => {
    emulator.keys[0].models = ["tools"];
    const result = await clientFor().send(echo(true));
    assert.equal(result.httpStatus, 403);
    assert.equal(result.cause, "model_permission");
    assert.equal(result.requestId, emulator.received[emulator.received.length - 1].requestId);
    assert.match(result.explanation ?? "", /该令牌无权使用模型：echo/);
  });

  it("gives a non-streamed request its own, longer time limit (default 600 s); the idle limit is for streams", async () => {
    // undici checks header timeouts about once a second, so the silences here are a few seconds long.
    emulator.queueFault({ kind: "drip", intervalMs: 2500 });
    const patient = await clientFor({ idleTimeoutMs: 300, nonStreamTimeoutMs: 20_000 }).send(echo(false));
    assert.equal(patient.outcome.kind, "completed", "2.5 s before a non-streamed answer is fine under a 0.3 s idle limit");
    emulator.queueFault({ kind: "drip", intervalMs: 2500 });
    const impatient = await clientFor({ idleTimeoutMs: 20_000, nonStreamTimeoutMs: 300 }).send(echo(false));
    assert.deepEqual(impatient.outcome, { kind: "timed_out", limitMs: 300, nonStreamed: true });
    assert.match(impatient.explanation ?? "", /did not answer within 0.3 s .*relayChat\.nonStreamTimeoutSeconds/);
    emulator.queueFault({ kind: "drip", intervalMs: 2500 });
    const stalledStream = await clientFor({ idleTimeoutMs: 300, nonStreamTimeoutMs: 20_000 }).send(echo(true));
    assert.deepEqual(stalledStream.outcome, { kind: "timed_out", limitMs: 300 });
  });

  it("stops a stream larger than the size limit with a classified error, keeping the text so far", async () => {
    const result = await clientFor({ maxStreamBytes: 20_000 }).send(buildResponseRequest({ model: "long", input: [userMessage("essay")], stream: true }));
    assert.equal(result.outcome.kind, "interrupted");
    assert.equal(result.outcome.kind === "interrupted" && result.outcome.reason, "size_limit");
    assert.equal(result.cause, "stream");
    assert.match(result.explanation ?? "", /stream size limit .*relayChat\.maxStreamMegabytes/);
    const kept = outputTextOf(result.snapshot.output);
    assert.ok(kept.length > 100, `the text so far is kept (${kept.length} characters)`);
    assert.match(kept, /^## Part 1: streaming/);
    assert.ok(result.bytesReceived < 40_000);
    const whole = await clientFor({ maxStreamBytes: 5_000 }).send(buildResponseRequest({ model: "long", input: [userMessage("essay")], stream: false }));
    assert.equal(whole.outcome.kind === "interrupted" && whole.outcome.reason, "size_limit", "a whole body obeys the limit too");
  });

  it("sends extra non-secret headers on every request and shows them in Copy as curl", async () => {
    const client = clientFor({ extraHeaders: { "X-Portkey-Provider": "openai", "x-portkey-config": "pc-relay-01" } });
    await client.send(echo(true));
    await client.listModels();
    for (const received of emulator.received.slice(-2)) {
      assert.equal(received.headers["x-portkey-provider"], "openai");
      assert.equal(received.headers["x-portkey-config"], "pc-relay-01");
      assert.equal(received.headers.authorization, `Bearer ${emulator.defaultKey}`, "the key is still the client's own");
    }
    const result = await client.send(echo(true));
    assert.deepEqual(result.extraHeaders, { "x-portkey-provider": "openai", "x-portkey-config": "pc-relay-01" });
    const command = curlCommandFor(`${emulator.baseUrl}/v1/responses`, echo(true), result.extraHeaders);
    assert.match(command, /-H 'x-portkey-provider: openai'/);
    const folder = mkdtempSync(path.join(os.tmpdir(), "curl-headers-"));
    try {
      // A stand-in curl prints its arguments: the headers reach curl as separate, intact arguments.
      writeFileSync(path.join(folder, "curl"), '#!/bin/sh\nfor argument in "$@"; do echo "$argument"; done\ncat >/dev/null\n', { mode: 0o755 });
      const run = spawnSync("sh", ["-c", command], { env: { PATH: `${folder}:${process.env.PATH}`, RELAY_CHAT_API_KEY: "k" }, encoding: "utf8" });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(run.stdout.split("\n").includes("x-portkey-config: pc-relay-01"), run.stdout);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses authorization and key-looking extra headers with a message saying where keys go", () => {
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ Authorization: "Bearer abc" }, /"authorization" is refused: Relay Chat sends the API key itself/],
      [{ "x-portkey-api-key": "abc" }, /its name says it carries a secret/],
      [{ "x-portkey-virtual-key": "vk" }, /its name says it carries a secret/],
      [{ "x-route": "sk-proj-0123456789abcdefghij" }, /its value looks like a key or token/],
      [{ "x-route": "Zq8Kp2Lm9Xv4Tr7Yw1Bn5Cd3Fg6Hj0Aa" }, /its value looks like a key or token/],
      [{ "x-route": "a\r\nb" }, /line break/],
      [{ "bad name": "x" }, /not a valid HTTP header name/],
      [{ "content-type": "text/plain" }, /sets it itself/],
    ];
    for (const [headers, problem] of refused) {
      const check = checkExtraHeaders(headers);
      assert.equal(check.ok, false, JSON.stringify(headers));
      assert.match(!check.ok ? check.problem : "", problem);
    }
    for (const [headers] of refused.slice(0, 4)) {
      assert.throws(
        () => new RelayClient({ baseUrl: "http://127.0.0.1:1", apiKey: "k-123456", extraHeaders: headers }),
        (error: unknown) => error instanceof RelayConfigurationError && error.problem === "headers" && /Set API Key/.test(error.message),
      );
    }
    assert.deepEqual(checkExtraHeaders({ "x-portkey-provider": "together-ai", "x-portkey-config": '{"retry":{"attempts":0}}' }), {
      ok: true,
      headers: { "x-portkey-provider": "together-ai", "x-portkey-config": '{"retry":{"attempts":0}}' },
    });
  });
});
