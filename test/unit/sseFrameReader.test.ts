import assert from "node:assert/strict";
import { outputTextOf, accumulateEvents, emptySnapshot } from "../../src/relay/accumulate";
import { ChatCompletionsStreamDecoder } from "../../src/relay/chatCompletions/streamDecoder";
import { SseFrameReader } from "../../src/relay/sseFrameReader";
import { returnSseParser, takeSseParser } from "../../src/relay/sseParserPool";
import type { RelayEvent } from "../../src/relay/types";

// The one SSE frame reader both wires read their bodies with (src/relay/sseFrameReader.ts): framing by
// eventsource-parser, text by a streaming decoder, the body's end completing a last frame.

interface Frame {
  data: string;
  event: string | undefined;
  atEnd: boolean;
}

function framesOf(bytes: Uint8Array, chunkSize: number): Frame[] {
  const frames: Frame[] = [];
  const reader = new SseFrameReader();
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    for (const message of reader.push(bytes.subarray(offset, offset + chunkSize))) frames.push({ data: message.data, event: message.event, atEnd: false });
  }
  const last = reader.end();
  last.forEach((message, index) => frames.push({ data: message.data, event: message.event, atEnd: index === last.length - 1 && reader.endCompletedLastFrame }));
  return frames;
}

const CHUNK_SIZES = [1, 2, 3, 5, 64, 100_000];

describe("SSE frame reader (both wires)", () => {
  it("reads CRLF, comments, multi-line data and event lines the same at every chunk size", () => {
    const body = Buffer.from(': keep-alive\r\n\r\nevent: response.created\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\n: PING\n\nevent: error\ndata: {"b":2}\n\n', "utf8");
    const expected: Frame[] = [
      { data: '{"a":1}', event: "response.created", atEnd: false },
      { data: "line one\nline two", event: undefined, atEnd: false },
      { data: '{"b":2}', event: "error", atEnd: false },
    ];
    for (const size of CHUNK_SIZES) assert.deepEqual(framesOf(body, size), expected, `chunk size ${size}`);
  });

  it("drops a byte order mark at the start even when it arrives a byte at a time, and keeps one inside the data", () => {
    const body = Buffer.from('\uFEFFdata: {"text":"a\uFEFFb"}\n\n', "utf8");
    for (const size of CHUNK_SIZES) assert.deepEqual(framesOf(body, size), [{ data: '{"text":"a\uFEFFb"}', event: undefined, atEnd: false }], `chunk size ${size}`);
  });

  it("joins characters split across chunks, and reads one cut by the body's end as U+FFFD instead of losing the frame", () => {
    const body = Buffer.from('data: {"text":"héllo 日本語 🎉"}\n\n', "utf8");
    for (const size of CHUNK_SIZES) assert.equal(framesOf(body, size)[0]?.data, '{"text":"héllo 日本語 🎉"}', `chunk size ${size}`);
    const cut = Buffer.concat([Buffer.from('data: {"text":"', "utf8"), Buffer.from("🎉", "utf8").subarray(0, 2)]);
    assert.deepEqual(framesOf(cut, 1), [{ data: '{"text":"\uFFFD', event: undefined, atEnd: true }]);
  });

  it("completes a last frame that lacks its blank line only at the body's end, and says so", () => {
    const body = Buffer.from('data: {"first":1}\n\ndata: {"last":2}\n', "utf8");
    for (const size of CHUNK_SIZES) {
      assert.deepEqual(
        framesOf(body, size),
        [
          { data: '{"first":1}', event: undefined, atEnd: false },
          { data: '{"last":2}', event: undefined, atEnd: true },
        ],
        `chunk size ${size}`,
      );
    }
  });

  it("reads a Chat Completions body with a byte order mark, CRLF and split characters as the Responses wire is read", () => {
    const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
    const body = Buffer.from(`\uFEFFdata: ${chunk({ content: "héllo " })}\r\n\r\n: OPENROUTER PROCESSING\r\n\r\ndata: ${chunk({ content: "日本語 🎉" })}\r\n\r\ndata: ${chunk({}, "stop")}\r\n\r\ndata: [DONE]\r\n\r\n`, "utf8");
    for (const size of CHUNK_SIZES) {
      const decoder = new ChatCompletionsStreamDecoder();
      const events: RelayEvent[] = [];
      for (let offset = 0; offset < body.length; offset += size) events.push(...decoder.push(body.subarray(offset, offset + size)));
      events.push(...decoder.end());
      const snapshot = accumulateEvents(emptySnapshot, events);
      assert.equal(snapshot.terminal, "completed", `chunk size ${size}`);
      assert.equal(snapshot.unreadableEventCount, 0, `chunk size ${size}`);
      assert.equal(outputTextOf(snapshot.output), "héllo 日本語 🎉", `chunk size ${size}`);
    }
  });

  it("reuses the parser of a stream that ended for the next one, which reads nothing of the last", () => {
    const first = takeSseParser();
    returnSseParser(first);
    assert.equal(takeSseParser(), first, "a parser given back is taken again (its compiled code outlives a full GC)");
    returnSseParser(first);
    // The first stream ends right after an `event:` line and a half line of a frame that never completed.
    assert.deepEqual(framesOf(Buffer.from('data: {"a":1}\n\nevent: response.failed\ndata: {"cut', "utf8"), 7), [
      { data: '{"a":1}', event: undefined, atEnd: false },
      { data: '{"cut', event: "response.failed", atEnd: true },
    ]);
    assert.deepEqual(framesOf(Buffer.from('\uFEFFdata: {"b":2}\n\n', "utf8"), 3), [{ data: '{"b":2}', event: undefined, atEnd: false }], "no event line, byte order mark dropped");
  });

  it("gives streams read at the same time a parser each, and refuses a chunk after the body's end", () => {
    const one = new SseFrameReader();
    const two = new SseFrameReader();
    const read = (reader: SseFrameReader, text: string) => reader.push(Buffer.from(text, "utf8")).map((message) => `${message.event ?? ""}:${message.data}`);
    assert.deepEqual(read(one, "event: a\ndata: {"), []);
    assert.deepEqual(read(two, "data: [2"), []);
    assert.deepEqual(read(one, '"x":1}\n\n'), ['a:{"x":1}']);
    assert.deepEqual(read(two, "]\n\n"), [":[2]"]);
    assert.deepEqual(one.end(), []);
    assert.throws(() => one.push(Buffer.from("data: {}\n\n")), /already ended/);
    assert.deepEqual(read(two, "data: 3\n\n"), [":3"], "the other stream reads on");
    assert.deepEqual(two.end(), []);
  });
});
