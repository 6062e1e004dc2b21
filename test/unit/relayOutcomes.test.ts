import assert from "node:assert/strict";
import net from "node:net";
import fc from "fast-check";
import { englishText, outcomeLabel } from "../../src/chat/outcomeLabel";
import { outputTextOf } from "../../src/relay/accumulate";
import { RelayClient, RelayConfigurationError } from "../../src/relay/client";
import { createDispatcher } from "../../src/relay/proxy";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { ErrorCause, OutcomeKind, RequestResult } from "../../src/relay/types";
import { startRelayEmulator } from "../emulator/server";
import type { Fault, RelayEmulator } from "../emulator/server";
import { startConnectProxy } from "../support/connectProxy";
import { validateResponseRequest } from "../support/openResponsesSchema";
import { readReferenceBody, readReferenceStream } from "../support/referenceStreams";

// Outcomes and causes for every kind of failure the emulator can produce, one POST each, no key leaks.

const SECRET_KEY = "sk-relaychat-test-0123456789abcdefSECRET";

function echoRequest(stream = true, maxOutputTokens?: number) {
  return buildResponseRequest({ model: "echo", input: [userMessage("hello there relay")], stream, maxOutputTokens });
}

describe("relay client: outcomes over HTTP", () => {
  let emulator: RelayEmulator;
  let client: RelayClient;
  before(async () => {
    emulator = await startRelayEmulator({ keys: [{ key: SECRET_KEY, name: "test" }] });
    client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, idleTimeoutMs: 2000 });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  function assertNoKey(result: unknown): void {
    assert.equal(JSON.stringify(result).includes(SECRET_KEY), false, "the key must not appear in a result");
  }

  async function sendOnce(fault: Fault | null, options: { stream?: boolean; signal?: AbortSignal; client?: RelayClient } = {}): Promise<RequestResult> {
    const before = emulator.postCount();
    if (fault) emulator.queueFault(fault);
    const result = await (options.client ?? client).send(echoRequest(options.stream ?? true), { signal: options.signal });
    assert.equal(emulator.postCount() - before, 1, "exactly one POST, never a retry");
    assertNoKey(result);
    return result;
  }

  it("streams a completed answer with usage and the request id", async () => {
    const result = await sendOnce(null);
    assert.equal(result.outcome.kind, "completed");
    assert.match(outputTextOf(result.snapshot.output), /hello there relay/);
    assert.ok(result.snapshot.usage?.input_tokens);
    assert.equal(result.requestId, emulator.received[emulator.received.length - 1].requestId);
    assert.equal(result.cause, null);
    assert.ok(result.timing.firstByteMs !== null && result.timing.firstByteMs <= result.timing.totalMs);
  });

  it("explains an HTTP error without repeating the outcome's label, which readers show beside it", async () => {
    for (const status of [401, 403, 429, 500]) {
      const result = await sendOnce({ kind: "status", status });
      const label = outcomeLabel(result.outcome, englishText);
      assert.match(label, new RegExp(`^HTTP ${status}`));
      assert.equal(result.explanation?.includes(`HTTP ${status}`), false, result.explanation ?? "");
      assert.ok(result.explanation && result.explanation.length > 20);
    }
  });

  it("reads a non-streamed completed answer the same way", async () => {
    const result = await sendOnce(null, { stream: false });
    assert.equal(result.outcome.kind, "completed");
    assert.equal(result.streamed, false);
    assert.match(outputTextOf(result.snapshot.output), /hello there relay/);
  });

  it("sends requests that validate against the Open Responses schema, with history and tools", async () => {
    const prior = (readReferenceBody("function-call-completed.json") as { output: Array<{ call_id: string }> }).output;
    const earlier = (readReferenceBody("text-completed.json") as { output: unknown[] }).output;
    const built = buildResponseRequest({
      model: "echo",
      input: [userMessage("first"), ...(earlier as never[]), userMessage("weather?"), ...(prior as never[]), { type: "function_call_output", call_id: prior[0].call_id, output: "sunny" }],
      tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: false }],
      toolChoice: "auto",
      include: ["reasoning.encrypted_content"],
      maxOutputTokens: 500,
      stream: true,
    });
    assert.deepEqual(validateResponseRequest(built, { requireMessageType: true }), { valid: true });
    assert.equal(built.store, false);
    const result = await client.send(built);
    assert.equal(result.outcome.kind, "completed");
    assert.deepEqual(emulator.received[emulator.received.length - 1].body, built, "the body on the wire is the request as built");
  });

  it("reports max_output_tokens as incomplete, streamed and not", async () => {
    for (const stream of [true, false]) {
      const result = await client.send(buildResponseRequest({ model: "echo", input: [userMessage("please repeat all of these words back to me ".repeat(5))], maxOutputTokens: 3, stream }));
      assert.equal((emulator.received[emulator.received.length - 1].body as { max_output_tokens: number }).max_output_tokens, 16, "raised to the schema minimum");
      assert.deepEqual(result.outcome, { kind: "incomplete", reason: "max_output_tokens" });
      assert.ok(outputTextOf(result.snapshot.output).length > 0, "partial text is kept for display");
    }
  });

  const cases: Array<{ name: string; fault: Fault; outcome: OutcomeKind; cause: ErrorCause; nonStreamOutcome?: OutcomeKind }> = [
    { name: "response.failed after text", fault: { kind: "failed", code: "server_error", message: "upstream broke" }, outcome: "failed", cause: "server" },
    { name: "nested error event after 200", fault: { kind: "error_event", nested: true, code: "insufficient_quota", message: "no money" }, outcome: "error_event", cause: "quota", nonStreamOutcome: "http_error" },
    { name: "flat error event after 200", fault: { kind: "error_event", nested: false, code: "rate_limit_exceeded", message: "slow down" }, outcome: "error_event", cause: "rate_limit", nonStreamOutcome: "http_error" },
    { name: "disconnect mid-stream", fault: { kind: "disconnect", afterBytes: 900 }, outcome: "interrupted", cause: "stream" },
    { name: "HTML 502 from a proxy", fault: { kind: "html", status: 502 }, outcome: "http_error", cause: "server" },
    { name: "401", fault: { kind: "status", status: 401, code: "invalid_api_key" }, outcome: "http_error", cause: "key" },
    { name: "403 model", fault: { kind: "status", status: 403, code: "model_not_allowed" }, outcome: "http_error", cause: "model_permission" },
    { name: "404 model", fault: { kind: "status", status: 404, code: "model_not_found" }, outcome: "http_error", cause: "model_permission" },
    { name: "429 rate limit", fault: { kind: "status", status: 429, code: "rate_limit_exceeded" }, outcome: "http_error", cause: "rate_limit" },
    { name: "429 quota", fault: { kind: "status", status: 429, code: "insufficient_user_quota" }, outcome: "http_error", cause: "quota" },
    { name: "500", fault: { kind: "status", status: 500 }, outcome: "http_error", cause: "server" },
    { name: "non-JSON 503", fault: { kind: "non_json", status: 503, body: "upstream connect error" }, outcome: "http_error", cause: "server" },
    { name: "non-JSON 200", fault: { kind: "non_json", status: 200, body: "hello" }, outcome: "http_error", cause: "address" },
    { name: "flat error body", fault: { kind: "flat_error_body", status: 401, code: "invalid_api_key" }, outcome: "http_error", cause: "key" },
  ];
  for (const testCase of cases) {
    it(`classifies ${testCase.name}`, async () => {
      for (const stream of [true, false]) {
        const result = await sendOnce(testCase.fault, { stream });
        assert.equal(result.outcome.kind, stream ? testCase.outcome : testCase.nonStreamOutcome ?? testCase.outcome, `${testCase.name} stream=${stream}`);
        assert.equal(result.cause, testCase.cause, `${testCase.name} stream=${stream}`);
        assert.ok(result.explanation && result.explanation.length > 20, "an actionable explanation");
        assert.ok(result.requestId, "request id recorded on failure");
      }
    });
  }

  it("gives up after the idle timeout when the stream stalls", async () => {
    const stalling = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, idleTimeoutMs: 300 });
    const result = await sendOnce({ kind: "stall" }, { client: stalling });
    await stalling.close();
    assert.deepEqual(result.outcome, { kind: "timed_out", limitMs: 300 });
    assert.ok(outputTextOf(result.snapshot.output).length > 0, "text before the stall is kept");
  });

  it("cancels through the AbortSignal, mid-stream", async () => {
    const abort = new AbortController();
    emulator.queueFault({ kind: "drip", intervalMs: 50 });
    const before = emulator.postCount();
    let batches = 0;
    const result = await client.send(echoRequest(), {
      signal: abort.signal,
      onEvents: () => {
        batches += 1;
        if (batches === 3) abort.abort();
      },
    });
    assert.equal(emulator.postCount() - before, 1);
    assert.equal(result.outcome.kind, "cancelled");
    assert.equal(result.cause, null);
  });

  it("cancels before the response arrives", async () => {
    const abort = new AbortController();
    abort.abort();
    const result = await client.send(echoRequest(), { signal: abort.signal });
    assert.equal(result.outcome.kind, "cancelled");
  });

  it("classifies the emulator's own refusals: wrong key, model allow-list, balance", async () => {
    const wrongKey = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: "sk-wrong-key-000000000000" });
    const unauthorized = await wrongKey.send(echoRequest());
    await wrongKey.close();
    assert.equal(unauthorized.cause, "key");
    assert.equal(unauthorized.httpStatus, 401);
    emulator.keys[0].models = ["tools"];
    const notAllowed = await client.send(echoRequest());
    emulator.keys[0].models = null;
    assert.equal(notAllowed.cause, "model_permission");
    const balance = emulator.balance;
    emulator.balance = 0;
    const broke = await client.send(echoRequest());
    emulator.balance = balance;
    assert.equal(broke.cause, "quota");
    for (const result of [unauthorized, notAllowed, broke]) assertNoKey(result);
  });

  it("redacts the key when a relay echoes it back in an error", async () => {
    emulator.queueJsonBody({ error: { message: `Incorrect API key provided: ${SECRET_KEY}. Authorization: Bearer ${SECRET_KEY}`, code: "invalid_api_key" } }, 401);
    const result = await client.send(echoRequest());
    assertNoKey(result);
    assert.match(result.explanation ?? "", /\[REDACTED\]/);
  });

  it("redacts the key from failed and error events in the stream", async () => {
    for (const fault of [{ kind: "failed", code: "server_error", message: `bad key ${SECRET_KEY}` }, { kind: "error_event", nested: true, code: "x", message: `bad key ${SECRET_KEY}` }] as Fault[]) {
      const result = await sendOnce(fault);
      assert.match(JSON.stringify(result), /\[REDACTED\]/);
    }
  });

  it("reads the request id from the configured headers, else from the error message", async () => {
    const otherHeader = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, requestIdHeaders: ["x-not-sent"] });
    const success = await otherHeader.send(echoRequest());
    assert.equal(success.requestId, null, "no header match and no message to read");
    emulator.queueFault({ kind: "status", status: 500, message: "boom" });
    const failure = await otherHeader.send(echoRequest());
    await otherHeader.close();
    assert.equal(failure.requestId, emulator.received[emulator.received.length - 1].requestId, "taken from '(request id: ...)'");
  });

  it("accepts the base URL with or without a trailing slash or /v1, never doubling it", async () => {
    for (const base of [emulator.baseUrl, `${emulator.baseUrl}/`, `${emulator.baseUrl}/v1`, `${emulator.baseUrl}/v1/`, `${emulator.baseUrl}/v1/v1`, `${emulator.baseUrl}/v1/responses`]) {
      const variant = new RelayClient({ baseUrl: base, apiKey: SECRET_KEY });
      const result = await variant.send(echoRequest());
      const models = await variant.listModels();
      await variant.close();
      assert.equal(result.outcome.kind, "completed", base);
      assert.equal(models.ok, true, base);
      assert.deepEqual(emulator.received.slice(-2).map((entry) => entry.path), ["/v1/responses", "/v1/models"], base);
    }
  });

  it("refuses to start without a base URL or key, naming what to fix", () => {
    assert.throws(() => new RelayClient({ baseUrl: "", apiKey: "k" }), (error: unknown) => error instanceof RelayConfigurationError && error.problem === "address" && /No base URL/.test(error.message));
    assert.throws(() => new RelayClient({ baseUrl: "ftp://x", apiKey: "k" }), /http:\/\/ or https:\/\//);
    assert.throws(() => new RelayClient({ baseUrl: "http://x", apiKey: " " }), (error: unknown) => error instanceof RelayConfigurationError && error.problem === "key");
  });

  it("lists models, and explains a rejected key", async () => {
    const models = await client.listModels();
    assert.equal(models.ok, true);
    assert.ok(models.ok && models.models.some((model) => model.id === "echo"));
    const wrongKey = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: "sk-wrong-key-000000000000" });
    const rejected = await wrongKey.listModels();
    await wrongKey.close();
    assert.equal(rejected.ok, false);
    assert.equal(!rejected.ok && rejected.cause, "key");
  });

  it("classifies a refused connection and a failed DNS lookup as network errors naming the address", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    const refused = new RelayClient({ baseUrl: `http://127.0.0.1:${closedPort}`, apiKey: SECRET_KEY });
    const refusedResult = await refused.send(echoRequest());
    assert.deepEqual([refusedResult.outcome.kind, refusedResult.cause], ["network_error", "address"]);
    assert.match(refusedResult.explanation ?? "", /refused/);
    const unresolvable = new RelayClient({ baseUrl: "http://relay-chat-test.invalid", apiKey: SECRET_KEY });
    const dnsResult = await unresolvable.send(echoRequest());
    assert.equal(dnsResult.outcome.kind, "network_error");
    assert.ok(dnsResult.cause === "address" || dnsResult.cause === "network");
    for (const result of [refusedResult, dnsResult]) assertNoKey(result);
  });

  it("goes through an explicit proxy, and through HTTP_PROXY unless NO_PROXY matches", async () => {
    const proxy = await startConnectProxy();
    try {
      const viaProxy = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, proxyUrl: proxy.url });
      assert.equal((await viaProxy.send(echoRequest())).outcome.kind, "completed");
      await viaProxy.close();
      assert.equal(proxy.tunnels.length, 1);
      const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
      try {
        process.env.HTTP_PROXY = proxy.url;
        delete process.env.NO_PROXY;
        const fromEnvironment = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, dispatcher: createDispatcher() });
        assert.equal((await fromEnvironment.send(echoRequest())).outcome.kind, "completed");
        await fromEnvironment.close();
        assert.equal(proxy.tunnels.length, 2, "HTTP_PROXY used");
        process.env.NO_PROXY = "127.0.0.1";
        const bypassing = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, dispatcher: createDispatcher() });
        assert.equal((await bypassing.send(echoRequest())).outcome.kind, "completed");
        await bypassing.close();
        assert.equal(proxy.tunnels.length, 2, "NO_PROXY bypasses the proxy");
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    } finally {
      await proxy.close();
    }
  });

  it("classifies generated malformed streams without crashing or hanging (property-based)", async () => {
    const validFrames = readReferenceStream("text-basic.sse").toString("utf8").split("\n\n").filter(Boolean).map((frame) => `${frame}\n\n`);
    const fragment = fc.oneof(
      fc.constantFrom(...validFrames.slice(0, -1)),
      fc.string({ maxLength: 80 }),
      fc.constantFrom("data: {\n\n", "data: [DONE]\n\n", ": comment\n", "\r\n\r\n", "event: error\ndata: {\"type\":\"error\"}\n\n", "data: {\"type\":42}\n\n", "\uFEFF", "data: null\n\n"),
      fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
    );
    const quick = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: SECRET_KEY, idleTimeoutMs: 2000 });
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), async (fragments, chunkSize) => {
        emulator.queueReplay(Buffer.from(fragments.join(""), "utf8"), { chunkSizes: chunkSize });
        const result = await quick.send(echoRequest());
        // Without a completed frame, nothing may read as success.
        assert.notEqual(result.outcome.kind, "completed");
        assert.ok(["interrupted", "error_event", "failed", "incomplete"].includes(result.outcome.kind), result.outcome.kind);
      }),
      { numRuns: 80, seed: 20261122 },
    );
    await quick.close();
  });
});
