import assert from "node:assert/strict";
import { accumulate, accumulateEvents, emptySnapshot, functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { SseEventDecoder, UNPARSABLE_FRAME_TYPE } from "../../src/relay/sseDecoder";
import type { RelayEvent, ResponseSnapshot } from "../../src/relay/types";
import { frameEndOffsets, readReferenceStream, streamExpectations } from "../support/referenceStreams";

function decodeInChunks(bytes: Uint8Array, chunkSize: number): RelayEvent[] {
  const decoder = new SseEventDecoder();
  const events: RelayEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) events.push(...decoder.push(bytes.subarray(offset, offset + chunkSize)));
  events.push(...decoder.end());
  return events;
}

function snapshotOf(events: readonly RelayEvent[]): ResponseSnapshot {
  return events.reduce(accumulate, emptySnapshot);
}

const encoder = new TextEncoder();

describe("SSE decoding and accumulation", () => {
  for (const expectation of streamExpectations) {
    it(`reads ${expectation.file} the same at every chunk size`, () => {
      const bytes = readReferenceStream(expectation.file);
      const whole = decodeInChunks(bytes, bytes.length);
      for (const size of [1, 2, 3, 7, 64, 1000]) assert.deepEqual(decodeInChunks(bytes, size), whole, `chunk size ${size}`);
      const snapshot = snapshotOf(whole);
      assert.equal(outputTextOf(snapshot.output), expectation.text);
      assert.deepEqual(snapshot.output.map((item) => item.type), expectation.outputTypes);
      assert.deepEqual(functionCallsOf(snapshot.output).map((call) => call.name), expectation.functionCalls);
      if (expectation.code) assert.equal(snapshot.error?.code, expectation.code);
    });
  }

  it("keeps the output items exactly as the final event sent them, and the deltas build the same items", () => {
    for (const expectation of streamExpectations.filter((entry) => entry.outcome === "completed")) {
      const events = decodeInChunks(readReferenceStream(expectation.file), 17);
      const terminal = events.find((event) => event.type === "response.completed");
      assert.ok(terminal, expectation.file);
      const finalOutput = (terminal.response as { output: unknown[] }).output;
      const beforeTerminal = snapshotOf(events.slice(0, events.indexOf(terminal)));
      assert.deepEqual(snapshotOf(events).output, finalOutput, expectation.file);
      // Deltas build the same text and calls; other fields may differ (the service re-encrypts reasoning
      // content in its final event), which is why the final items are taken from that event.
      assert.equal(outputTextOf(beforeTerminal.output), outputTextOf(snapshotOf(events).output), expectation.file);
      assert.deepEqual(functionCallsOf(beforeTerminal.output), functionCallsOf(snapshotOf(events).output), expectation.file);
    }
  });

  it("never reports a terminal status for a stream cut inside its terminal frame's JSON, and counts one missing only the closing blank line", () => {
    for (const expectation of streamExpectations) {
      const bytes = readReferenceStream(expectation.file);
      const ends = frameEndOffsets(bytes);
      const wholeSnapshot = snapshotOf(decodeInChunks(bytes, bytes.length));
      if (!wholeSnapshot.terminal) continue;
      // The first frame end after which the terminal status is known.
      const terminalEnd = ends.find((end) => snapshotOf(decodeInChunks(bytes.subarray(0, end), end)).terminal !== null);
      assert.ok(terminalEnd, expectation.file);
      // The terminal frame's JSON is complete two bytes before the frame ends ("}\n\n").
      const jsonEnd = terminalEnd - 2;
      const cuts = new Set<number>();
      for (const end of ends.filter((offset) => offset < jsonEnd)) [end - 1, end, end + 1].forEach((cut) => cuts.add(cut));
      let seed = 7;
      for (let sample = 0; sample < 60; sample += 1) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        cuts.add(seed % jsonEnd);
      }
      cuts.add(jsonEnd - 1);
      for (const cut of [...cuts].filter((offset) => offset >= 0 && offset < jsonEnd)) {
        const snapshot = snapshotOf(decodeInChunks(bytes.subarray(0, cut), 5));
        assert.equal(snapshot.terminal, null, `${expectation.file} cut at ${cut}`);
      }
      for (const cut of [jsonEnd, jsonEnd + 1]) {
        const snapshot = snapshotOf(decodeInChunks(bytes.subarray(0, cut), 5));
        assert.equal(snapshot.terminal, wholeSnapshot.terminal, `${expectation.file}: complete JSON without the closing blank line, cut at ${cut}`);
      }
    }
  });

  it("applies a batch of events exactly as applying them one by one", () => {
    for (const expectation of streamExpectations) {
      const bytes = readReferenceStream(expectation.file);
      for (const size of [1, 40, 700, bytes.length]) {
        const decoder = new SseEventDecoder();
        let batched = emptySnapshot;
        let single = emptySnapshot;
        for (let offset = 0; offset < bytes.length; offset += size) {
          const events = decoder.push(bytes.subarray(offset, offset + size));
          batched = accumulateEvents(batched, events);
          single = events.reduce(accumulate, single);
          assert.deepEqual(batched, single, `${expectation.file} at chunk size ${size}, offset ${offset}`);
        }
      }
    }
  });

  it("is pure: accumulating never changes an earlier snapshot", () => {
    const events = decodeInChunks(readReferenceStream("text-basic.sse"), 64);
    const snapshots: ResponseSnapshot[] = [emptySnapshot];
    const frozen: string[] = [JSON.stringify(emptySnapshot)];
    for (const event of events) {
      snapshots.push(accumulate(snapshots[snapshots.length - 1], event));
      frozen.push(JSON.stringify(snapshots[snapshots.length - 1]));
    }
    snapshots.forEach((snapshot, index) => assert.equal(JSON.stringify(snapshot), frozen[index]));
  });

  it("tolerates CRLF, a BOM, comments, missing event lines, missing sequence numbers and split multi-byte characters", () => {
    const text =
      "\uFEFF: keep-alive comment\r\n\r\n" +
      'event: response.created\r\ndata: {"type":"response.created","response":{"id":"r1","status":"in_progress","output":[]}}\r\n\r\n' +
      'data: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m1","role":"assistant","content":[]}}\n\n' +
      'data: {"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","text":""}}\n\n' +
      'event: response.output_text.delta\ndata: {"output_index":0,"content_index":0,"delta":"héllo wörld 日本語 🎉"}\n\n' +
      'data: {"type":"response.completed","response":{"id":"r1","status":"completed","output":[],"usage":{"input_tokens":3,"output_tokens":4}}}\n\n' +
      "data: [DONE]\n\n";
    const bytes = encoder.encode(text);
    for (const size of [1, 2, 3, 5]) {
      const decoder = new SseEventDecoder();
      const events: RelayEvent[] = [];
      for (let offset = 0; offset < bytes.length; offset += size) events.push(...decoder.push(bytes.subarray(offset, offset + size)));
      events.push(...decoder.end());
      const snapshot = snapshotOf(events);
      assert.equal(snapshot.unknownEventCount, 0, "[DONE] is a transport marker, not an event");
      assert.equal(snapshot.terminal, "completed");
      // The completed event's empty output list must not wipe the items built from the deltas.
      assert.equal(outputTextOf(snapshot.output), "héllo wörld 日本語 🎉", `chunk size ${size}`);
      assert.equal(snapshot.usage?.output_tokens, 4);
    }
  });

  it("counts unknown event types and unparsable frames instead of failing or keeping them", () => {
    const events = decodeInChunks(
      encoder.encode('data: {"type":"response.brand_new_event","x":1}\n\ndata: {not json\n\ndata: [1,2]\n\nevent: ping\ndata: {}\n\n'),
      4,
    );
    assert.deepEqual(events.map((event) => event.type), ["response.brand_new_event", UNPARSABLE_FRAME_TYPE, UNPARSABLE_FRAME_TYPE, "ping"]);
    const snapshot = snapshotOf(events);
    assert.equal(snapshot.unknownEventCount, 2);
    assert.equal(snapshot.unreadableEventCount, 2, "frames that are not JSON objects are counted apart: they may have held text");
    assert.equal(snapshot.terminal, null);
    // Counted, not stored: a long stream of unknown events costs no memory in the snapshot.
    const many = snapshotOf(Array.from({ length: 10_000 }, (_, index) => ({ type: "response.brand_new_event", index })));
    assert.equal(many.unknownEventCount, 10_000);
    assert.ok(JSON.stringify(many).length < 500);
  });

  it("reads both shapes of error event", () => {
    const nested = snapshotOf([{ type: "error", error: { type: "server_error", code: "boom", message: "nested" } }]);
    const flat = snapshotOf([{ type: "error", code: "rate_limit_exceeded", message: "flat" }]);
    assert.deepEqual([nested.terminal, nested.error?.code, nested.error?.message], ["error_event", "boom", "nested"]);
    assert.deepEqual([flat.terminal, flat.error?.code, flat.error?.message], ["error_event", "rate_limit_exceeded", "flat"]);
  });

  it("accumulates function-call arguments, refusals and reasoning summaries", () => {
    const snapshot = snapshotOf([
      { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs", summary: [], encrypted_content: "opaque" } },
      { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } },
      { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: "think" },
      { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: "ing" },
      { type: "response.output_item.added", output_index: 1, item: { type: "function_call", id: "fc", name: "f", call_id: "c1", arguments: "" } },
      { type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc", delta: '{"a":' },
      { type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc", delta: "1}" },
      { type: "response.output_item.added", output_index: 2, item: { type: "message", id: "m", role: "assistant", content: [] } },
      { type: "response.content_part.added", output_index: 2, content_index: 0, part: { type: "refusal", refusal: "" } },
      { type: "response.refusal.delta", output_index: 2, content_index: 0, delta: "I can't" },
      { type: "response.refusal.delta", output_index: 2, content_index: 0, delta: " help." },
    ]);
    assert.deepEqual(snapshot.output[0], { type: "reasoning", id: "rs", summary: [{ type: "summary_text", text: "thinking" }], encrypted_content: "opaque" });
    assert.deepEqual(functionCallsOf(snapshot.output), [{ name: "f", arguments: '{"a":1}', call_id: "c1" }]);
    assert.deepEqual(snapshot.output[2].content, [{ type: "refusal", refusal: "I can't help." }]);
    assert.equal(outputTextOf(snapshot.output), "");
  });
});
