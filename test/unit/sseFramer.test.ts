// SseFramer frames server-sent events by the WHATWG rules, at any chunking: each case and random streams are
// compared with eventsource-parser (the framing the client used before, kept here as the reference).
import assert from "node:assert/strict";
import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { SseFramer } from "../../src/relay/sseFramer";

interface Frame {
  data: string;
  event: string | undefined;
}

function framed(chunks: readonly string[]): Frame[] {
  const frames: Frame[] = [];
  const framer = new SseFramer((data, eventType) => frames.push({ data, event: eventType() }));
  for (const chunk of chunks) framer.feed(chunk);
  framer.end();
  return frames;
}

function reference(chunks: readonly string[]): Frame[] {
  const frames: Frame[] = [];
  const parser = createParser({ onEvent: (message) => frames.push({ data: message.data, event: message.event }) });
  for (const chunk of chunks) parser.feed(chunk);
  parser.feed("\n\n");
  return frames;
}

/** Every way of cutting `text` in two, and in pieces of 1 to 3 characters. */
function chunkings(text: string): string[][] {
  const all: string[][] = [[text]];
  for (let cut = 1; cut < text.length; cut += 1) all.push([text.slice(0, cut), text.slice(cut)]);
  for (const size of [1, 2, 3]) {
    const pieces: string[] = [];
    for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size));
    all.push(pieces);
  }
  return all;
}

const cases: Record<string, string> = {
  "LF frames with event lines": 'event: a\ndata: {"x":1}\n\ndata: {"y":2}\n\n',
  "CRLF and lone CR line ends": "event: a\r\ndata: one\r\n\r\ndata: two\r\rdata: three\r\n\r\n",
  "multi-line data, joined with LF": "data: line one\ndata:line two\ndata\n\n",
  "comments, id, retry and unknown fields": ": ping\nid: 7\nretry: 100\nfoo: bar\ndata: kept\n\n: ping\n\n",
  "an event line without a value or colon": "event:\ndata: a\n\nevent\ndata: b\n\nevent: c\nevent\ndata: d\n\n",
  "no space after the colon, two spaces kept": "data:tight\n\ndata:  spaced\n\n",
  "a last frame without its blank line": "data: first\n\ndata: last",
  "a last frame ending in a lone CR": "data: first\r\rdata: last\r",
  "blank lines between frames and none with data": "\n\n\nevent: x\n\ndata: y\n\n\n",
  "an empty data line counts as a frame": "data:\n\n",
};

describe("SSE framing", () => {
  for (const [name, text] of Object.entries(cases)) {
    it(`frames ${name} like the reference, however it is cut`, () => {
      const expected = reference([text]);
      assert.ok(expected.length > 0);
      for (const chunks of chunkings(text)) assert.deepEqual(framed(chunks), expected, JSON.stringify(chunks));
    });
  }

  it("frames random streams of fields, comments and line ends like the reference, however they are cut", () => {
    const line = fc.oneof(
      fc.constantFrom("data: {\"a\":1}", "data:x", "data", "event: e", "event:", "event", "id: 1", "retry: 5", ": c", "", "field: v", "data: ", "data:  two"),
      fc.string({ maxLength: 6 }).map((value) => `data: ${value.replace(/[\r\n]/g, "")}`),
    );
    const ending = fc.constantFrom("\n", "\r\n", "\r");
    const stream = fc.array(fc.tuple(line, ending).map(([text, end]) => text + end), { maxLength: 14 }).map((lines) => lines.join(""));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(40), { maxLength: 6 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
        const chunks: string[] = [];
        let from = 0;
        for (const point of points) {
          chunks.push(text.slice(from, point));
          from = point;
        }
        chunks.push(text.slice(from));
        assert.deepEqual(framed(chunks), reference([text]));
      }),
      { numRuns: 2000 },
    );
  });
});
