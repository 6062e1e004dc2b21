import assert from "node:assert/strict";
import { functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { RequestResult } from "../../src/relay/types";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { frameEndOffsets, gatewayExpectations, readGatewayCapture, readReferenceBody, readReferenceStream, streamExpectations } from "../support/referenceStreams";

// Every recorded stream and body, served by the emulator over loopback HTTP, read by the real client.

const request = buildResponseRequest({ model: "echo", input: [userMessage("replay")], stream: true });

describe("relay client: recorded streams and bodies over HTTP", () => {
  let emulator: RelayEmulator;
  let client: RelayClient;
  before(async () => {
    emulator = await startRelayEmulator();
    client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, idleTimeoutMs: 5000 });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  async function replay(bytes: Buffer, chunkSizes: "random" | number, seed = 1): Promise<RequestResult> {
    const postsBefore = emulator.postCount();
    emulator.queueReplay(bytes, { chunkSizes, seed });
    const result = await client.send(request);
    assert.equal(emulator.postCount() - postsBefore, 1, "exactly one POST per request");
    return result;
  }

  for (const expectation of streamExpectations) {
    it(`replays ${expectation.file} at several chunkings`, async () => {
      const bytes = readReferenceStream(expectation.file);
      for (const [chunkSizes, seed] of [[1, 0], ["random", 1], ["random", 2], ["random", 3], [4096, 0]] as const) {
        const result = await replay(bytes, chunkSizes, seed);
        const label = `${expectation.file} chunks ${chunkSizes}/${seed}`;
        assert.equal(result.outcome.kind, expectation.outcome, label);
        assert.equal(outputTextOf(result.snapshot.output), expectation.text, label);
        assert.deepEqual(result.snapshot.output.map((item) => item.type), expectation.outputTypes, label);
        assert.deepEqual(functionCallsOf(result.snapshot.output).map((call) => call.name), expectation.functionCalls, label);
        if (expectation.code) assert.equal(result.outcome.kind !== "completed" && "code" in result.outcome ? result.outcome.code : null, expectation.code, label);
        assert.ok(result.requestId, `${label}: request id recorded`);
        assert.equal(result.httpStatus, 200);
        assert.equal(result.bytesReceived > 0, true);
      }
    });
  }

  it("never reports completed for a stream cut anywhere before its final JSON is whole; a missing closing blank line alone is fine", async () => {
    for (const expectation of streamExpectations.filter((entry) => entry.outcome === "completed")) {
      const bytes = readReferenceStream(expectation.file);
      const ends = frameEndOffsets(bytes);
      // The end of the frame that carries the final status (a `[DONE]` frame may follow it).
      const lastEnd = ends.find((end) => end > bytes.indexOf('"type":"response.completed"')) ?? bytes.length;
      const jsonEnd = lastEnd - 2;
      const cuts = new Set(ends.filter((end) => end < jsonEnd));
      for (let sample = 1; sample <= 8; sample += 1) cuts.add(Math.floor((jsonEnd * sample) / 9) + sample);
      cuts.add(jsonEnd - 1);
      for (const cut of cuts) {
        if (cut >= jsonEnd) continue;
        const result = await replay(bytes.subarray(0, cut), "random", cut);
        assert.equal(result.outcome.kind, "interrupted", `${expectation.file} cut at ${cut}`);
        assert.equal(result.cause, "stream");
        assert.match(result.explanation ?? "", /without a final status/);
      }
      for (const cut of [jsonEnd, jsonEnd + 1]) {
        const result = await replay(bytes.subarray(0, cut), "random", cut);
        assert.equal(result.outcome.kind, "completed", `${expectation.file}: whole final JSON without its closing blank line (cut at ${cut})`);
        assert.equal(outputTextOf(result.snapshot.output), expectation.text);
      }
    }
  });

  it("reads the recorded non-stream bodies: only status completed is success", async () => {
    const cases: Array<[string, number, string, string | null]> = [
      ["text-completed.json", 200, "completed", null],
      ["function-call-completed.json", 200, "completed", null],
      ["function-call-output-followup.json", 200, "completed", null],
      ["incomplete-max-output-tokens.json", 200, "incomplete", "stream"],
      ["background-queued.json", 200, "failed", "server"],
      ["background-cancelled.json", 200, "failed", "server"],
      ["error-401-invalid-api-key.json", 401, "http_error", "key"],
      ["error-429-insufficient-quota.json", 429, "http_error", "quota"],
      ["error-400-invalid-temperature.json", 400, "http_error", "bad_request"],
      ["error-400-reasoning-item-without-following-item.json", 400, "http_error", "bad_request"],
    ];
    for (const [file, status, outcome, cause] of cases) {
      emulator.queueJsonBody(readReferenceBody(file), status);
      const result = await client.send({ ...request, stream: false });
      assert.equal(result.outcome.kind, outcome, file);
      assert.equal(result.cause, cause, file);
      assert.equal(result.streamed, false);
      if (outcome !== "completed") assert.ok(result.explanation, `${file} explains itself`);
    }
    emulator.queueJsonBody(readReferenceBody("incomplete-max-output-tokens.json"), 200);
    const incomplete = await client.send({ ...request, stream: false });
    assert.deepEqual(incomplete.outcome, { kind: "incomplete", reason: "max_output_tokens" });
  });

  for (const capture of gatewayExpectations) {
    it(`replays the gateway capture ${capture.file} at several chunkings and draws the right conclusions`, async () => {
      const { body, headers } = readGatewayCapture(capture.file);
      for (const [chunkSizes, seed] of [[1, 0], [7, 0], ["random", 1], ["random", 2], ["random", 3], [65_536, 0]] as const) {
        const postsBefore = emulator.postCount();
        emulator.queueReplay(body, { chunkSizes, seed, headers });
        const result = await client.send(request);
        const label = `${capture.file} chunks ${chunkSizes}/${seed}`;
        assert.equal(emulator.postCount() - postsBefore, 1, label);
        assert.equal(result.outcome.kind, capture.outcome, label);
        assert.equal(outputTextOf(result.snapshot.output), capture.text, label);
        assert.deepEqual(functionCallsOf(result.snapshot.output), capture.functionCalls, label);
        for (const call of functionCallsOf(result.snapshot.output)) assert.ok(JSON.parse(call.arguments), `${label}: the call's arguments are whole JSON`);
        assert.equal(result.snapshot.omittedStreamedItems, capture.omittedStreamedItems, `${label}: streamed items the final output left out`);
        assert.deepEqual(result.usage === null ? null : [result.usage.input_tokens, result.usage.output_tokens], capture.usage, `${label}: usage`);
        assert.equal(result.requestId, capture.requestId, label);
      }
    });
  }

  it("reads a typeless error frame with the request id its message carries when no header does", async () => {
    const body = 'data: {"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"Partial ans"}\n\ndata: {"error":{"message":"当前分组上游负载已饱和 (request id: 20261123xyz)","type":"new_api_error","code":"upstream_error"}}\n\n';
    for (const chunkSizes of [1, "random", 4096] as const) {
      emulator.queueReplay(Buffer.from(body, "utf8"), { chunkSizes, headers: {} });
      const result = await client.send(request);
      assert.deepEqual(result.outcome, { kind: "error_event", code: "upstream_error", message: "当前分组上游负载已饱和 (request id: 20261123xyz)" });
      assert.equal(result.requestId, "20261123xyz");
      assert.equal(outputTextOf(result.snapshot.output), "Partial ans", "the partial text is kept");
      assert.equal(result.cause, "server");
    }
  });

  it("never reads a Chat Completions answer as success, streamed or not, and says what happened", async () => {
    emulator.queueReplay(Buffer.from('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n', "utf8"));
    const streamed = await client.send(request);
    emulator.queueJsonBody({ id: "chatcmpl-2", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }] });
    const whole = await client.send({ ...request, stream: false });
    for (const result of [streamed, whole]) {
      assert.equal(result.outcome.kind, "failed");
      assert.equal(result.outcome.kind === "failed" && result.outcome.code, "chat_completions_format");
      assert.match(result.explanation ?? "", /answered in Chat Completions format for this model.*Pick another model/);
    }
  });
});
