import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { carriesContent } from "../../src/relay/contentWatch";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";

// Issue 36 §4: keep-alive comments and empty deltas reset the idle limit, so a stalled answer stayed open for ever.
// They still prove the connection lives; a second, longer limit counts only content (text, reasoning, tool calls).
// Both wires had the hole. A small server on loopback writes what a stalled relay writes, on a timer.

type Writer = (response: http.ServerResponse, tick: number) => boolean;

describe("a stream that only keeps alive is given up after the limit on time without content (issue 36 §4)", () => {
  let server: http.Server;
  let baseUrl: string;
  let writer: Writer = () => false;
  const timers = new Set<NodeJS.Timeout>();
  before(async () => {
    server = http.createServer((incoming, response) => {
      incoming.resume();
      response.writeHead(200, { "content-type": "text/event-stream" });
      let tick = 0;
      const timer = setInterval(() => {
        if (writer(response, tick++)) {
          clearInterval(timer);
          response.end();
        }
      }, 40);
      timers.add(timer);
      response.on("close", () => {
        clearInterval(timer);
        timers.delete(timer);
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

  const send = async (protocol: "responses" | "chat", contentTimeoutMs = 500) => {
    const client = new RelayClient({ baseUrl, apiKey: "sk-test-key-0123456789", idleTimeoutMs: 5000, contentTimeoutMs });
    try {
      const started = Date.now();
      const result = await client.send(buildResponseRequest({ model: "m", input: [userMessage("Hi")], stream: true }), { protocol });
      return { result, elapsed: Date.now() - started };
    } finally {
      await client.close();
    }
  };

  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const event = (body: object) => `data: ${JSON.stringify(body)}\n\n`;

  it("Chat Completions: comments and empty deltas after some text end as timed out, the text kept", async () => {
    writer = (response, tick) => {
      response.write(tick === 0 ? chunk({ role: "assistant", content: "Partial" }) : tick % 2 === 0 ? ": OPENROUTER PROCESSING\n\n" : chunk({ content: "" }));
      return false;
    };
    const { result, elapsed } = await send("chat");
    assert.deepEqual(result.outcome, { kind: "timed_out", limitMs: 500, withoutContent: true });
    assert.equal(outputTextOf(result.snapshot.output), "Partial");
    assert.match(result.explanation ?? "", /without sending any text, reasoning or tool call .* relayChat\.contentTimeoutSeconds/);
    assert.ok(elapsed < 3000, `${elapsed} ms`);
  });

  it("the Responses interface: keep-alive comments and repeated status events end the same way", async () => {
    writer = (response, tick) => {
      response.write(tick === 0 ? event({ type: "response.created", response: { id: "resp_k", status: "in_progress" } }) : tick % 2 === 0 ? ": keep-alive\n\n" : event({ type: "response.in_progress", response: { id: "resp_k", status: "in_progress" } }));
      return false;
    };
    const { result } = await send("responses");
    assert.deepEqual(result.outcome, { kind: "timed_out", limitMs: 500, withoutContent: true });
  });

  it("a thinking model's reasoning deltas are content: a long think under keep-alives runs to its answer", async () => {
    writer = (response, tick) => {
      if (tick < 30) response.write(tick % 3 === 2 ? ": keep-alive\n\n" : chunk({ content: null, reasoning_content: "hm " }));
      else response.write(`${chunk({ content: "Done." })}${chunk({}, "stop")}data: [DONE]\n\n`);
      return tick >= 30;
    };
    const { result, elapsed } = await send("chat");
    assert.equal(result.outcome.kind, "completed");
    assert.equal(outputTextOf(result.snapshot.output), "Done.");
    assert.ok(elapsed > 1000, "longer than the limit in all, but never that long without content");
  });

  it("what counts as content", () => {
    assert.equal(carriesContent({ type: "response.output_text.delta", delta: "a" }), true);
    assert.equal(carriesContent({ type: "response.reasoning_summary_text.delta", delta: "a" }), true);
    assert.equal(carriesContent({ type: "response.function_call_arguments.delta", delta: "{" }), true);
    assert.equal(carriesContent({ type: "response.output_item.added", item: { type: "function_call" } }), true);
    assert.equal(carriesContent({ type: "response.output_text.delta", delta: "" }), false);
    assert.equal(carriesContent({ type: "response.in_progress" }), false);
    assert.equal(carriesContent({ type: "keepalive" }), false);
  });
});
