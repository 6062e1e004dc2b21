import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { FunctionToolDefinition, RequestResult } from "../../src/relay/types";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { chatCompletionsDirectory } from "../support/fixturePaths";

// The real client over loopback HTTP with protocol "chat": one POST to /v1/chat/completions, read into the same
// RequestResult a Responses request gives (outcome, usage, request id, billed cost).

const WEATHER: FunctionToolDefinition = { type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: false };

describe("relay client over Chat Completions", () => {
  let emulator: RelayEmulator;
  let client: RelayClient;
  before(async () => {
    emulator = await startRelayEmulator();
    client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, idleTimeoutMs: 5000, errorGraceMs: 300 });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  async function send(model: string, text: string, options: { stream?: boolean; maxOutputTokens?: number; tools?: FunctionToolDefinition[] } = {}): Promise<RequestResult> {
    const postsBefore = emulator.postCount();
    const result = await client.send(buildResponseRequest({ model, instructions: "Be brief.", input: [userMessage(text)], tools: options.tools, maxOutputTokens: options.maxOutputTokens, stream: options.stream ?? true }), { protocol: "chat" });
    assert.equal(emulator.postCount() - postsBefore, 1, "exactly one POST");
    assert.equal(emulator.received[emulator.received.length - 1].path, "/v1/chat/completions");
    return result;
  }

  it("streams an answer: completed, usage counted from the include_usage chunk, the relay's request id recorded", async () => {
    const result = await send("echo", "Hello there");
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "You said: Hello there");
    assert.ok(result.usage && typeof result.usage.input_tokens === "number" && result.usage.output_tokens! > 0, JSON.stringify(result.usage));
    assert.equal(result.requestId, emulator.received[emulator.received.length - 1].requestId);
    const body = emulator.received[emulator.received.length - 1].body as Record<string, unknown>;
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual((body.messages as unknown[])[0], { role: "system", content: "Be brief." });
  });

  it("reads a tool call as a function call, the same proposal a Responses answer gives", async () => {
    const result = await send("tools", "Weather in Paris?", { tools: [WEATHER] });
    assert.equal(result.outcome.kind, "completed");
    const [call] = functionCallsOf(result.snapshot.output);
    assert.equal(call.name, "get_weather");
    assert.ok(call.call_id.startsWith("call_"));
    assert.doesNotThrow(() => JSON.parse(call.arguments));
  });

  it("ends at the output budget with finish_reason length: incomplete, as a Responses answer cut there", async () => {
    const result = await send("echo", Array.from({ length: 40 }, (_, index) => `word${index}`).join(" "), { maxOutputTokens: 16 });
    assert.equal((emulator.received[emulator.received.length - 1].body as { max_tokens?: number }).max_tokens, 16);
    assert.deepEqual(result.outcome, { kind: "incomplete", reason: "max_output_tokens" });
    assert.match(result.explanation ?? "", /output budget/);
    assert.ok(outputTextOf(result.snapshot.output).length > 0);
  });

  it("a stream cut before its finish is interrupted, with the text so far kept", async () => {
    emulator.queueFault({ kind: "disconnect", afterBytes: 600 });
    const result = await send("long", "Write a lot", { maxOutputTokens: 200 });
    assert.equal(result.outcome.kind, "interrupted");
    assert.ok(outputTextOf(result.snapshot.output).length > 0);
  });

  for (const shape of ["plain", "event", "chunk"] as const) {
    it(`an error inside the 200 stream (${shape} shape) is an error, the partial text kept`, async () => {
      emulator.queueFault({ kind: "error_event", shape, code: "do_request_failed", message: "upstream reset" });
      const result = await send("echo", "one two three four");
      assert.equal(result.outcome.kind, "error_event");
      assert.equal(result.httpStatus, 200);
      assert.match(outputTextOf(result.snapshot.output), /^You said:/);
    });
  }

  it("reads a non-streamed answer the same way", async () => {
    const result = await send("echo", "Quiet", { stream: false });
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "You said: Quiet");
    assert.equal(result.streamed, false);
    assert.ok(result.usage);
  });

  it("replays the recorded streams over HTTP: outcome, usage, billed cost", async () => {
    const replay = async (file: string) => {
      emulator.queueReplay(readFileSync(path.join(chatCompletionsDirectory, file)), { chunkSizes: "random", seed: 7 });
      return send("echo", "replay");
    };
    const text = await replay("openai-text-usage.sse");
    assert.equal(text.outcome.kind, "completed");
    assert.equal(text.usage?.total_tokens, 22);
    const groq = await replay("groq-error-event-midstream.sse");
    assert.equal(groq.outcome.kind, "error_event");
    assert.equal(groq.outcome.kind === "error_event" ? groq.outcome.code : null, "tool_use_failed");
    const openRouter = await replay("openrouter-length-reasoning-error.sse");
    assert.equal(openRouter.outcome.kind, "error_event");
    assert.deepEqual(openRouter.billedCost, { amount: 0, currency: "USD", source: "usage.cost" });
  });
});
