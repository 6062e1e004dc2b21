import assert from "node:assert/strict";
import { accumulate, emptySnapshot, functionCallsOf, outputTextOf, snapshotFromResponseBody } from "../../src/relay/accumulate";
import { SseEventDecoder } from "../../src/relay/sseDecoder";
import type { JsonObject, RelayEvent, ResponseSnapshot } from "../../src/relay/types";
import { countedUsage } from "../../src/relay/usage";

// What real relays and gateways send, and what a client that loses nothing makes of it (issue 10, §1).
// Pure: events in, snapshot out. The same behaviours over HTTP are in relayReplay, relayProfiles and relayLimits.

function snapshotOf(events: readonly RelayEvent[]): ResponseSnapshot {
  return events.reduce(accumulate, emptySnapshot);
}

function decode(text: string): RelayEvent[] {
  const decoder = new SseEventDecoder();
  return [...decoder.push(new TextEncoder().encode(text)), ...decoder.end()];
}

const completedWith = (output: JsonObject[]): RelayEvent => ({ type: "response.completed", response: { id: "r1", status: "completed", output, usage: { input_tokens: 3, output_tokens: 4 } } });

describe("tolerant stream reading", () => {
  it("deltas that arrive without their item or part create them: text is shown while streaming and kept when the final output is empty", () => {
    const deltas: RelayEvent[] = [
      { type: "response.created", response: { id: "r1", status: "in_progress", output: [] } },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hello" },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: " world" },
    ];
    const streaming = snapshotOf(deltas);
    assert.equal(outputTextOf(streaming.output), "Hello world", "shown while streaming, not 'Working…' until the end");
    const done = accumulate(streaming, completedWith([]));
    assert.equal(done.terminal, "completed");
    assert.equal(outputTextOf(done.output), "Hello world", "an empty final output never loses the answer");
    assert.deepEqual(done.output[0], { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [{ type: "output_text", text: "Hello world", annotations: [] }] });
    assert.equal(done.omittedStreamedItems, 1);
  });

  it("deltas without any ids or indexes, refusals, arguments and reasoning summaries also create what they need", () => {
    const snapshot = snapshotOf([
      { type: "response.output_text.delta", delta: "plain " },
      { type: "response.output_text.delta", delta: "text" },
      { type: "response.refusal.delta", item_id: "msg_r", output_index: 1, content_index: 0, delta: "I can't" },
      { type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 2, summary_index: 0, delta: "thinking" },
      { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 3, delta: '{"a":' },
      { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 3, delta: "1}" },
      // The announcement after the deltas completes the item (name, call_id) without wiping the arguments.
      { type: "response.output_item.added", output_index: 3, item: { id: "fc_1", type: "function_call", name: "f", call_id: "call_1", arguments: "", status: "in_progress" } },
    ]);
    assert.deepEqual(snapshot.output.map((item) => item.type), ["message", "message", "reasoning", "function_call"]);
    assert.equal(outputTextOf(snapshot.output), "plain text");
    assert.deepEqual(snapshot.output[1].content, [{ type: "refusal", refusal: "I can't" }]);
    assert.deepEqual(snapshot.output[2].summary, [{ type: "summary_text", text: "thinking" }]);
    assert.deepEqual(functionCallsOf(snapshot.output), [{ name: "f", arguments: '{"a":1}', call_id: "call_1" }]);
  });

  it("a part announced after its deltas keeps their text", () => {
    const snapshot = snapshotOf([
      { type: "response.output_item.added", output_index: 0, item: { id: "m", type: "message", role: "assistant", content: [] } },
      { type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0, delta: "early" },
      { type: "response.content_part.added", item_id: "m", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
    ]);
    assert.equal(outputTextOf(snapshot.output), "early");
  });

  it("finds items by item_id before output_index", () => {
    const snapshot = snapshotOf([
      { type: "response.output_item.added", output_index: 0, item: { id: "m0", type: "message", role: "assistant", content: [{ type: "output_text", text: "" }] } },
      { type: "response.output_item.added", output_index: 1, item: { id: "m1", type: "message", role: "assistant", content: [{ type: "output_text", text: "" }] } },
      // The index says 0, the id says m1: the id wins.
      { type: "response.output_text.delta", item_id: "m1", output_index: 0, content_index: 0, delta: "second" },
      { type: "response.output_text.delta", item_id: "m0", output_index: 0, content_index: 0, delta: "first " },
    ]);
    assert.deepEqual(snapshot.output.map((item) => outputTextOf([item])), ["first ", "second"]);
  });

  it("an output_item.added with another id at a taken index is a new item, never an overwrite", () => {
    const snapshot = snapshotOf([
      { type: "response.output_item.added", output_index: 0, item: { id: "msg", type: "message", role: "assistant", content: [] } },
      { type: "response.output_text.delta", item_id: "msg", output_index: 0, content_index: 0, delta: "kept" },
      { type: "response.output_item.added", output_index: 0, item: { id: "fc", type: "function_call", call_id: "c1", name: "get_weather", arguments: "" } },
      // Argument deltas naming the message's id (as a translating gateway sends them) still reach the call.
      { type: "response.function_call_arguments.delta", item_id: "msg", output_index: 0, delta: '{"city":' },
      { type: "response.function_call_arguments.delta", item_id: "msg", output_index: 0, delta: '"Paris"}' },
    ]);
    assert.deepEqual(snapshot.output.map((item) => item.id), ["msg", "fc"]);
    assert.equal(outputTextOf(snapshot.output), "kept");
    assert.deepEqual(functionCallsOf(snapshot.output), [{ name: "get_weather", arguments: '{"city":"Paris"}', call_id: "c1" }]);
  });

  it("merges the final output with what was streamed: an omitted item is kept and counted, a final item with less text keeps the streamed text", () => {
    const streamed = snapshotOf([
      { type: "response.output_item.added", output_index: 0, item: { id: "msg", type: "message", role: "assistant", content: [] } },
      { type: "response.output_text.delta", item_id: "msg", output_index: 0, content_index: 0, delta: "streamed text" },
      { type: "response.output_item.added", output_index: 1, item: { id: "fc", type: "function_call", call_id: "c1", name: "f", arguments: "{}" } },
    ]);
    const finalMessage = { id: "msg", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "" }] };
    const done = accumulate(streamed, completedWith([finalMessage]));
    assert.deepEqual(done.output.map((item) => item.id), ["msg", "fc"]);
    assert.equal(outputTextOf(done.output), "streamed text");
    assert.equal(done.output[0].status, "completed", "the relay's own fields are taken");
    assert.equal(done.omittedStreamedItems, 1);
    // A final output that holds everything replaces the streamed items exactly, and omits nothing.
    const whole = accumulate(streamed, completedWith([{ ...finalMessage, content: [{ type: "output_text", text: "streamed text" }] }, { id: "fc", type: "function_call", call_id: "c1", name: "f", arguments: "{}", status: "completed" }]));
    assert.equal(whole.omittedStreamedItems, 0);
    assert.equal(whole.output[1].status, "completed");
  });

  it("a final output with new ids settles each streamed item once, matching by call_id and content before position", () => {
    const streamed = snapshotOf([
      { type: "response.output_text.delta", item_id: "msg_s", output_index: 0, content_index: 0, delta: "Hi" },
      { type: "response.output_item.added", output_index: 1, item: { id: "fc_s", type: "function_call", call_id: "c1", name: "f", arguments: "{}" } },
    ]);
    const done = accumulate(
      streamed,
      completedWith([
        { id: "msg_new_1", type: "message", role: "assistant", content: [{ type: "output_text", text: "Intro. " }] },
        { id: "msg_new_2", type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] },
        { id: "fc_new", type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      ]),
    );
    assert.deepEqual(done.output.map((item) => item.id), ["msg_new_1", "msg_new_2", "fc_new"]);
    assert.equal(outputTextOf(done.output), "Intro. Hi");
    assert.equal(done.omittedStreamedItems, 0);
  });

  it("keeps the partial text before an error event and before response.failed", () => {
    const partial: RelayEvent[] = [{ type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0, delta: "Partial ans" }];
    const errored = snapshotOf([...partial, { type: "error", code: "server_error", message: "boom" }]);
    assert.deepEqual([errored.terminal, outputTextOf(errored.output)], ["error_event", "Partial ans"]);
    const failed = snapshotOf([...partial, { type: "response.failed", response: { id: "r", status: "failed", output: [], error: { code: "server_error", message: "x" } } }]);
    assert.deepEqual([failed.terminal, outputTextOf(failed.output)], ["failed", "Partial ans"]);
  });

  it("reads a typeless {\"error\":{...}} frame as an error event with its code and message", () => {
    const snapshot = snapshotOf(decode('data: {"type":"response.output_text.delta","delta":"Hi"}\n\ndata: {"error":{"message":"额度不足 (request id: 20261122abc)","type":"new_api_error","code":"insufficient_user_quota"}}\n\n'));
    assert.equal(snapshot.terminal, "error_event");
    assert.equal(snapshot.error?.code, "insufficient_user_quota");
    assert.equal(snapshot.error?.message, "额度不足 (request id: 20261122abc)");
    assert.equal(outputTextOf(snapshot.output), "Hi");
    // An empty code says nothing: the type names it instead.
    assert.equal(snapshotOf(decode('data: {"error":{"message":"无效的令牌","type":"new_api_error","code":""}}\n\n')).error?.code, "new_api_error");
  });

  it("says that a relay answered in Chat Completions format, streamed or not, and never calls it success", () => {
    const streamed = snapshotOf(decode('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n'));
    assert.equal(streamed.terminal, "failed");
    assert.equal(streamed.error?.code, "chat_completions_format");
    assert.match(streamed.error?.message ?? "", /answered in Chat Completions format for this model/);
    const whole = snapshotFromResponseBody({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Hi" } }] });
    assert.equal(whole.terminal, "failed");
    assert.match(whole.error?.message ?? "", /Chat Completions format/);
  });

  it("counts usage only when it is reported: missing, empty, or all zeros for a non-empty answer is not reported", () => {
    const answer = snapshotOf([{ type: "response.output_text.delta", delta: "text" }]).output;
    const zeros = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    assert.equal(countedUsage(null, answer), null);
    assert.equal(countedUsage({}, answer), null);
    assert.equal(countedUsage(zeros, answer), null);
    assert.deepEqual(countedUsage(zeros, []), zeros, "zero for an empty answer can be true");
    assert.deepEqual(countedUsage({ input_tokens: 5, output_tokens: 0 }, answer), { input_tokens: 5, output_tokens: 0 });
  });
});
