import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { accumulateEvents, emptySnapshot, functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { ChatCompletionsStreamDecoder } from "../../src/relay/chatCompletions/streamDecoder";
import { responseObjectOfChatCompletion } from "../../src/relay/chatCompletions/wholeBody";
import type { RelayEvent, ResponseSnapshot } from "../../src/relay/types";
import { countedUsage } from "../../src/relay/usage";
import { replayChunks } from "../emulator/replay";
import { chatCompletionsDirectory } from "../support/fixturePaths";

// Recorded Chat Completions streams (test/fixtures/chat-completions, provenance in its SOURCES.md) read into the
// same snapshot a Responses stream gives, whole and split at random byte boundaries.

function fixture(name: string): Buffer {
  return readFileSync(path.join(chatCompletionsDirectory, name));
}

function decode(chunks: readonly Uint8Array[], clean = true): RelayEvent[] {
  const decoder = new ChatCompletionsStreamDecoder();
  const events: RelayEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push(chunk));
  if (clean) events.push(...decoder.end());
  return events;
}

function snapshotAtChunkings(bytes: Buffer): ResponseSnapshot {
  const whole = accumulateEvents(emptySnapshot, decode([bytes]));
  for (const seed of [1, 2, 3, 4, 5]) {
    const split = decode(replayChunks(bytes, { chunkSizes: "random", seed }));
    assert.deepEqual(accumulateEvents(emptySnapshot, split), whole, `random chunks, seed ${seed}`);
  }
  assert.deepEqual(accumulateEvents(emptySnapshot, decode(replayChunks(bytes, { chunkSizes: 1 }))), whole, "byte by byte");
  return whole;
}

const sse = (...frames: string[]): Buffer => Buffer.from(frames.map((frame) => `data: ${frame}\n\n`).join(""), "utf8");
const chunk = (delta: object, finish: string | null = null, extra: object = {}): string =>
  JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

describe("Chat Completions: reading recorded streams", () => {
  it("reads OpenAI text with usage in a final chunk with empty choices", () => {
    const snapshot = snapshotAtChunkings(fixture("openai-text-usage.sse"));
    assert.equal(snapshot.terminal, "completed");
    assert.equal(snapshot.status, "completed");
    assert.equal(outputTextOf(snapshot.output), "The capital of Mexico is Mexico City.");
    assert.equal(snapshot.responseId, "chatcmpl-C2P1wP1damHwC6sXvGAIh5PMvH6wM");
    assert.equal(snapshot.model, "gpt-4o-2024-08-06");
    assert.deepEqual(snapshot.output.map((item) => [item.type, item.status]), [["message", "completed"]]);
    assert.equal(snapshot.usage?.input_tokens, 14);
    assert.equal(snapshot.usage?.output_tokens, 8);
    assert.equal(snapshot.usage?.total_tokens, 22);
    assert.equal(snapshot.usage?.input_tokens_details?.cached_tokens, 0);
  });

  it("reads two parallel tool calls, their arguments in pieces, ids kept", () => {
    const snapshot = snapshotAtChunkings(fixture("openai-parallel-tool-calls.sse"));
    assert.equal(snapshot.terminal, "completed");
    assert.deepEqual(functionCallsOf(snapshot.output), [
      { call_id: "call_NS4iQj14cDFwc0BnrKqDHavt", name: "get_weather", arguments: '{"city": "Mexico City"}' },
      { call_id: "call_SkGkkGDvHQEEk0CGbnAh2AQw", name: "get_product_name", arguments: "{}" },
    ]);
    // No text came, so no message item: a tool-only answer is only its calls.
    assert.deepEqual(snapshot.output.map((item) => item.type), ["function_call", "function_call"]);
    assert.equal(snapshot.usage?.output_tokens, 44);
  });

  it("reads DeepSeek's reasoning_content apart from the answer, and usage on the finish chunk itself", () => {
    const snapshot = snapshotAtChunkings(fixture("deepseek-reasoning-content.sse"));
    assert.equal(snapshot.terminal, "completed");
    assert.deepEqual(snapshot.output.map((item) => item.type), ["reasoning", "message"]);
    const reasoning = snapshot.output[0].summary as Array<{ text: string }>;
    assert.match(reasoning[0].text, /^Hmm,/);
    assert.ok(!outputTextOf(snapshot.output).includes("Hmm,"), "reasoning is not answer text");
    assert.match(outputTextOf(snapshot.output), /you today\?$/);
    assert.equal(snapshot.usage?.input_tokens, 6);
    assert.equal(snapshot.usage?.output_tokens, 212);
    assert.equal(snapshot.usage?.output_tokens_details?.reasoning_tokens, 198);
  });

  it("reads OpenRouter: comment lines skipped, `reasoning` deltas, then an error chunk after `length` is the outcome, usage and billed cost kept", () => {
    const snapshot = snapshotAtChunkings(fixture("openrouter-length-reasoning-error.sse"));
    assert.equal(snapshot.terminal, "error_event");
    assert.equal(snapshot.error?.code, "400");
    assert.equal(snapshot.error?.message, "Token limit reached");
    assert.equal(snapshot.unknownEventCount, 0, "the 17 comments are not events");
    assert.equal(snapshot.usage?.input_tokens, 43);
    assert.equal(snapshot.usage?.cost, 0);
    assert.deepEqual(snapshot.output.map((item) => item.type), ["reasoning"]);
  });

  it("reads Groq's `event: error` after HTTP 200 as an error, with the reasoning so far kept", () => {
    const snapshot = snapshotAtChunkings(fixture("groq-error-event-midstream.sse"));
    assert.equal(snapshot.terminal, "error_event");
    assert.equal(snapshot.error?.code, "tool_use_failed");
    assert.match(snapshot.error?.message ?? "", /^Tool call validation failed/);
    const reasoning = snapshot.output[0].summary as Array<{ text: string }>;
    assert.match(reasoning[0].text, /^We need to call/);
  });

  it("reads a refusal sent as ordinary content as the answer it is", () => {
    const snapshot = snapshotAtChunkings(fixture("openai-refused-in-content-with-usage.sse"));
    assert.equal(snapshot.terminal, "completed");
    assert.match(outputTextOf(snapshot.output), /^I'm sorry, I can't assist with that request\.$/);
    assert.equal(snapshot.usage?.total_tokens, 36);
  });
});

describe("Chat Completions: how a stream ends", () => {
  it("a stream without a finish_reason settles nothing, even with [DONE]: the client reads it as interrupted", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode([sse(chunk({ role: "assistant", content: "Hal" }), chunk({ content: "f an answer" }), "[DONE]")]));
    assert.equal(snapshot.terminal, null);
    assert.equal(outputTextOf(snapshot.output), "Half an answer");
  });

  it("a body cut after the finish chunk but before its end settles nothing; the same body ended cleanly completes", () => {
    const bytes = sse(chunk({ content: "Done." }), chunk({}, "stop"));
    assert.equal(accumulateEvents(emptySnapshot, decode([bytes], false)).terminal, null);
    assert.equal(accumulateEvents(emptySnapshot, decode([bytes], true)).terminal, "completed");
  });

  it("finish_reason length is incomplete at the output budget; content_filter is incomplete as such", () => {
    const length = accumulateEvents(emptySnapshot, decode([sse(chunk({ content: "Cut" }), chunk({}, "length"), "[DONE]")]));
    assert.equal(length.terminal, "incomplete");
    assert.equal(length.incompleteReason, "max_output_tokens");
    assert.equal(outputTextOf(length.output), "Cut");
    const filtered = accumulateEvents(emptySnapshot, decode([sse(chunk({ content: "Some" }), chunk({}, "content_filter"), "[DONE]")]));
    assert.equal(filtered.terminal, "incomplete");
    assert.equal(filtered.incompleteReason, "content_filter");
  });

  it("a plain {\"error\":{...}} frame after text (new-api, one-api) is an error with the text kept", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode([sse(chunk({ content: "Partial" }), JSON.stringify({ error: { message: "upstream error: do request failed", type: "new_api_error", code: "do_request_failed" } }))]));
    assert.equal(snapshot.terminal, "error_event");
    assert.equal(snapshot.error?.code, "do_request_failed");
    assert.equal(outputTextOf(snapshot.output), "Partial");
  });

  it("usage the relay did not send stays unknown, never 0", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode([sse(chunk({ content: "Hi" }), chunk({}, "stop"), "[DONE]")]));
    assert.equal(snapshot.terminal, "completed");
    assert.equal(snapshot.usage, null);
    assert.equal(countedUsage(snapshot.usage, snapshot.output), null);
    const partial = accumulateEvents(emptySnapshot, decode([sse(chunk({ content: "Hi" }, "stop", { usage: { completion_tokens: 3 } }), "[DONE]")]));
    assert.equal(partial.usage?.output_tokens, 3);
    assert.equal(partial.usage?.input_tokens, undefined);
  });

  it("several calls streamed at once under their own index keep their arguments apart", () => {
    const snapshot = accumulateEvents(
      emptySnapshot,
      decode([
        sse(
          chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: "" } }, { index: 1, id: "call_b", type: "function", function: { name: "list_files", arguments: '{"pa' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }, { index: 1, function: { arguments: 'th":"."}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
          chunk({}, "tool_calls"),
          "[DONE]",
        ),
      ]),
    );
    assert.deepEqual(functionCallsOf(snapshot.output), [
      { call_id: "call_a", name: "read_file", arguments: '{"path":"a.txt"}' },
      { call_id: "call_b", name: "list_files", arguments: '{"path":"."}' },
    ]);
  });

  it("a refusal delta becomes a refusal part beside the text", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode([sse(chunk({ refusal: "I can't " }), chunk({ refusal: "help with that." }), chunk({}, "stop"), "[DONE]")]));
    const content = snapshot.output[0].content as Array<{ type: string; refusal?: string }>;
    assert.equal(content.find((part) => part.type === "refusal")?.refusal, "I can't help with that.");
  });

  it("a broken frame is counted as unreadable, not fatal", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode([Buffer.from(`data: {"oops\n\n${sse(chunk({ content: "ok" }), chunk({}, "stop"), "[DONE]").toString()}`)]));
    assert.equal(snapshot.unreadableEventCount, 1);
    assert.equal(snapshot.terminal, "completed");
  });
});

describe("Chat Completions: a whole (non-streamed) answer", () => {
  it("reads text, tool calls, finish_reason and usage into a Responses response object", () => {
    const response = responseObjectOfChatCompletion({
      id: "chatcmpl-9",
      object: "chat.completion",
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "Let me look.", tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }] }, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    assert.equal(response?.status, "completed");
    assert.deepEqual((response?.output as Array<{ type: string }>).map((item) => item.type), ["message", "function_call"]);
    assert.deepEqual((response?.usage as { input_tokens: number }).input_tokens, 10);
    const length = responseObjectOfChatCompletion({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Cu" }, finish_reason: "length" }] });
    assert.equal(length?.status, "incomplete");
  });
});
