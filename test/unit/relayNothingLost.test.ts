import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { functionCallsOf, outputTextOf, refusalTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { JsonObject, RequestResult } from "../../src/relay/types";
import type { ReplayOptions } from "../emulator/server";
import { emulatorWithClient } from "../support/emulatorClient";

// Issue 19 §1: streams read without loss or invention. Each case is a stream a relay really can send,
// served over loopback HTTP (the emulator's replay, or a small server where the timing matters) and read
// by the real client.

const request = buildResponseRequest({ model: "echo", input: [userMessage("nothing lost")], stream: true });

function sse(events: readonly JsonObject[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

const message = (id: string, text: string): JsonObject => ({ id, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
const call = (id: string): JsonObject => ({ id, type: "function_call", status: "completed", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' });
const completed = (output: JsonObject[]): JsonObject => ({ type: "response.completed", response: { id: "resp_1", status: "completed", output, usage: { input_tokens: 3, output_tokens: 5 } } });

/** A streamed message "Hello world" (item msg_1) and a function call (fc_1), as the real service streams them. */
const streamedAnswer: JsonObject[] = [
  { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
  { type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
  { type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hello" },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: " world" },
  { type: "response.output_item.done", output_index: 0, item: message("msg_1", "Hello world") },
  { type: "response.output_item.added", output_index: 1, item: { id: "fc_1", type: "function_call", status: "in_progress", call_id: "call_1", name: "get_weather", arguments: "" } },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: '{"city":' },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: '"Paris"}' },
  { type: "response.output_item.done", output_index: 1, item: call("fc_1") },
];

describe("relay client: nothing lost, nothing invented (issue 19)", () => {
  const relay = emulatorWithClient();

  async function replay(body: string, options: ReplayOptions = {}): Promise<RequestResult> {
    relay.emulator().queueReplay(body, { chunkSizes: "random", seed: 7, ...options });
    return relay.client().send(request);
  }

  it("a final output whose items carry new ids settles the streamed items instead of adding them again", async () => {
    const result = await replay(sse([...streamedAnswer, completed([message("msg_final", "Hello world"), call("fc_final")])]));
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "Hello world", "the text once, not twice");
    assert.deepEqual(functionCallsOf(result.snapshot.output), [{ call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }], "one call, not two");
    assert.deepEqual(result.snapshot.output.map((item) => item.id), ["msg_final", "fc_final"], "the relay's final items are what is resent later");
    assert.equal(result.snapshot.omittedStreamedItems, 0);
  });

  it("a final output with new ids and less text still keeps the streamed text, once", async () => {
    const result = await replay(sse([...streamedAnswer, completed([message("msg_final", ""), { ...call("fc_final"), arguments: "" }])]));
    assert.equal(outputTextOf(result.snapshot.output), "Hello world");
    assert.deepEqual(functionCallsOf(result.snapshot.output).map((found) => found.arguments), ['{"city":"Paris"}']);
    assert.equal(result.snapshot.output.length, 2);
  });

  it("output_text.done and function_call_arguments.done without their text keep what was streamed", async () => {
    const result = await replay(
      sse([
        ...streamedAnswer.slice(0, 5),
        { type: "response.output_text.done", item_id: "msg_1", output_index: 0, content_index: 0 },
        ...streamedAnswer.slice(6, 9),
        { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 1 },
        { type: "response.completed", response: { id: "resp_1", status: "completed", usage: { input_tokens: 3, output_tokens: 5 } } },
      ]),
    );
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "Hello world");
    assert.equal(functionCallsOf(result.snapshot.output)[0]?.arguments, '{"city":"Paris"}');
  });

  it("a refusal-only answer is read as a refusal, not as an empty answer", async () => {
    const refusal = "I can't help with that.";
    const result = await replay(
      sse([
        { type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
        { type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "refusal", refusal: "" } },
        { type: "response.refusal.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "I can't help" },
        { type: "response.refusal.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: " with that." },
        { type: "response.refusal.done", item_id: "msg_1", output_index: 0, content_index: 0 },
        completed([{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "refusal", refusal }] }]),
      ]),
    );
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "");
    assert.equal(refusalTextOf(result.snapshot.output), refusal);
  });

  it("events whose data is not JSON are counted as unreadable, apart from unknown events", async () => {
    const body = sse(streamedAnswer.slice(0, 4)) + 'data: {"type":"response.output_text.delta","delta":" lost\n\n' + "data: [1,2]\n\n" + sse([{ type: "response.brand_new_event" }, completed([message("msg_1", "Hello")])]);
    const result = await replay(body);
    assert.equal(result.outcome.kind, "completed");
    assert.equal(result.snapshot.unreadableEventCount, 2);
    assert.equal(result.snapshot.unknownEventCount, 1);
  });

  it("response.failed with its error beside the response keeps the relay's message and cause", async () => {
    const result = await replay(
      sse([
        ...streamedAnswer.slice(0, 4),
        { type: "response.failed", response: { id: "resp_1", status: "failed", output: [] }, error: { code: "insufficient_quota", message: "Your balance is too low (request id: req_beside)" } },
      ]),
    );
    assert.deepEqual(result.outcome, { kind: "failed", code: "insufficient_quota", message: "Your balance is too low (request id: req_beside)" });
    assert.equal(result.cause, "quota");
    assert.match(result.explanation ?? "", /Your balance is too low/);
    assert.ok(result.requestIds.includes("req_beside"));
    assert.equal(outputTextOf(result.snapshot.output), "Hello", "the partial text is kept");
  });

  it("an event stream labelled text/plain (or unlabelled) is read as a stream by its content", async () => {
    const body = sse([...streamedAnswer.slice(0, 5), completed([message("msg_1", "Hello world")])]);
    for (const [contentType, chunkSizes] of [["text/plain; charset=utf-8", 1], ["text/plain", "random"], ["application/octet-stream", 4096]] as const) {
      const result = await replay(body, { headers: { "content-type": contentType }, chunkSizes });
      assert.equal(result.outcome.kind, "completed", contentType);
      assert.equal(outputTextOf(result.snapshot.output), "Hello world", contentType);
    }
    const comment = await replay(`: keep-alive\n\n${body}`, { headers: { "content-type": "text/plain" }, chunkSizes: 1 });
    assert.equal(comment.outcome.kind, "completed", "a body opening with a comment line is a stream too");
    // A text/plain body that is not a stream stays what it was: an answer that is not the Responses API.
    const page = await replay("Welcome to the relay console", { headers: { "content-type": "text/plain" } });
    assert.equal(page.outcome.kind, "http_error");
  });

  it("a delta repeated under the same sequence_number is read once", async () => {
    const numbered = streamedAnswer.map((event, index) => ({ ...event, sequence_number: index }));
    const body = sse([...numbered.slice(0, 5), numbered[4], numbered[3], ...numbered.slice(5), { ...completed([]), sequence_number: numbered.length }]);
    const result = await replay(body);
    assert.equal(outputTextOf(result.snapshot.output), "Hello world");
    // A relay that gives every event the same number still has all its deltas read.
    const careless = await replay(sse([...streamedAnswer.slice(0, 5).map((event) => ({ ...event, sequence_number: 0 })), completed([])]));
    assert.equal(outputTextOf(careless.snapshot.output), "Hello world");
  });

  it("a delta resent hundreds of events later, or numbered out of order, is read once", async () => {
    const deltas = Array.from({ length: 900 }, (_, index) => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: `${index % 10}` }));
    const numbered = [...streamedAnswer.slice(0, 3), ...deltas].map((event, index) => ({ ...event, sequence_number: index + 1 }));
    const expected = deltas.map((delta) => delta.delta).join("");
    // The relay resends the first delta after 900 others, and two deltas arrive swapped.
    const swapped = [...numbered.slice(0, 10), numbered[11], numbered[10], ...numbered.slice(12)];
    const body = sse([...swapped, numbered[3], { ...completed([]), sequence_number: numbered.length + 1 }]);
    const result = await replay(body);
    assert.equal(outputTextOf(result.snapshot.output).length, expected.length);
    assert.equal(result.outcome.kind, "completed");
  });

  it("a 429 with Retry-After says how long to wait, and nothing is retried", async () => {
    const emulator = relay.emulator();
    const client = relay.client();
    const before = emulator.postCount();
    emulator.queueFault({ kind: "status", status: 429, retryAfterSeconds: 30 });
    const result = await client.send(request);
    assert.equal(emulator.postCount() - before, 1, "exactly one POST");
    assert.equal(result.outcome.kind, "http_error");
    assert.equal(result.retryAfterSeconds, 30);
    assert.match(result.explanation ?? "", /wait 30 s before sending again \(Retry-After\)/);
    emulator.queueFault({ kind: "status", status: 429 });
    const without = await client.send(request);
    assert.equal(without.retryAfterSeconds, null);
    assert.doesNotMatch(without.explanation ?? "", /Retry-After/);
  });
});

describe("relay client: an error event followed by keep-alive comments (issue 19)", () => {
  let server: http.Server;
  let baseUrl: string;
  const timers = new Set<NodeJS.Timeout>();
  let thenFailed = false;
  before(async () => {
    // The relay sends an `error` event (and, when asked, `response.failed`), then only `: PING` comments,
    // and never closes the stream.
    server = http.createServer((incoming, response) => {
      incoming.resume();
      response.writeHead(200, { "content-type": "text/event-stream" });
      const failed = thenFailed ? [{ type: "response.failed", response: { id: "resp_1", status: "failed", output: [], error: { code: "server_error", message: "upstream died" } } }] : [];
      response.write(sse([...streamedAnswer.slice(0, 4), { type: "error", error: { code: "server_error", message: "upstream died" } }, ...failed]));
      const ping = setInterval(() => response.write(": PING\n\n"), 50);
      timers.add(ping);
      response.on("close", () => {
        clearInterval(ping);
        timers.delete(ping);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("ends after a short grace period with the error, although the pings keep the idle limit from running out", async () => {
    const client = new RelayClient({ baseUrl, apiKey: "sk-test-key-0123456789", idleTimeoutMs: 5000, errorGraceMs: 300 });
    try {
      const started = Date.now();
      const result = await client.send(request);
      assert.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`);
      assert.deepEqual(result.outcome, { kind: "error_event", code: "server_error", message: "upstream died" });
      assert.equal(result.cause, "server");
      assert.equal(outputTextOf(result.snapshot.output), "Hello", "the partial text is kept");
    } finally {
      await client.close();
    }
  });

  it("ends at once when response.failed follows the error event", async () => {
    thenFailed = true;
    const client = new RelayClient({ baseUrl, apiKey: "sk-test-key-0123456789", idleTimeoutMs: 5000, errorGraceMs: 4000 });
    try {
      const started = Date.now();
      const result = await client.send(request);
      assert.ok(Date.now() - started < 2000, `ended after ${Date.now() - started} ms, before the grace period`);
      assert.deepEqual(result.outcome, { kind: "error_event", code: "server_error", message: "upstream died" });
    } finally {
      await client.close();
    }
  });
});
