import assert from "node:assert/strict";
import type { RequestRecord } from "../../src/chat/conversation";
import { leftOutOfWire } from "../../src/chat/wireLeftOut";
import { accumulateEvents, emptySnapshot, functionCallsOf } from "../../src/relay/accumulate";
import { MAX_TOOL_CALLS_PER_ANSWER, UNFINISHED_TOOL_CALL_REASON } from "../../src/relay/chatCompletions/chunkTranslator";
import { chatCompletionsRequest } from "../../src/relay/chatCompletions/requestMapping";
import { ChatCompletionsStreamDecoder } from "../../src/relay/chatCompletions/streamDecoder";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { InputItem, ResponseSnapshot } from "../../src/relay/types";
import { actionsFor } from "../../src/panel/turns/turnFixes";
import { receiptOf } from "../../src/panel/turns/turnView";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// Issue 36 §4: the Chat Completions reader, as strict as the Responses one. A `stop` while a tool call was
// half-sent was read as a completed answer (and a billed follow-up sent); two calls on one index were merged into
// one; made-up ids repeated across answers; an answer of 10,000 calls had them all ready to run; files were dropped
// from the request without a word.

const sse = (...chunks: object[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";
const chunk = (delta: object, finish: string | null = null, id: string | null = "chatcmpl-s"): object => ({ ...(id === null ? {} : { id }), object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
const piece = (index: number, fields: object) => ({ tool_calls: [{ index, ...fields }] });

function read(body: string): ResponseSnapshot {
  const decoder = new ChatCompletionsStreamDecoder();
  return accumulateEvents(emptySnapshot, [...decoder.push(Buffer.from(body, "utf8")), ...decoder.end()]);
}

describe("Chat Completions reader: strict about tool calls (issue 36 §4)", () => {
  it("finish_reason stop while a call is half-sent is an incomplete answer, not a completed one", () => {
    const snapshot = read(sse(chunk(piece(0, { id: "call_h", type: "function", function: { name: "get_weather", arguments: '{"city":' } })), chunk({}, "stop")));
    assert.equal(snapshot.terminal, "incomplete");
    assert.equal(snapshot.incompleteReason, UNFINISHED_TOOL_CALL_REASON);
    // A call streamed whole and a `stop` (Gemini's compatible endpoint says `stop` after tool calls) is an answer.
    const whole = read(sse(chunk(piece(0, { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } })), chunk({}, "stop")));
    assert.equal(whole.terminal, "completed");
    // A call without arguments is whole too (models send "" for tools without parameters); one without a name is not.
    assert.equal(read(sse(chunk(piece(0, { id: "call_e", type: "function", function: { name: "get_time", arguments: "" } })), chunk({}, "stop"))).terminal, "completed");
    assert.equal(read(sse(chunk(piece(0, { id: "call_n", type: "function", function: { arguments: "{}" } })), chunk({}, "stop"))).terminal, "incomplete");
    assert.deepEqual(actionsFor({ kind: "incomplete", reason: UNFINISHED_TOOL_CALL_REASON }), ["retry"], "nothing to continue");
  });

  it("two calls on index 0, the first without arguments yet, stay two calls with their own ids", () => {
    const snapshot = read(
      sse(
        chunk(piece(0, { id: "call_a", type: "function", function: { name: "get_time", arguments: "" } })),
        chunk(piece(0, { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } })),
        chunk({}, "tool_calls"),
      ),
    );
    assert.deepEqual(functionCallsOf(snapshot.output), [
      { call_id: "call_a", name: "get_time", arguments: "" },
      { call_id: "call_b", name: "get_weather", arguments: '{"city":"Oslo"}' },
    ]);
  });

  it("the same id on two indices is two calls, each answerable on its own; pieces without an id continue their index", () => {
    const snapshot = read(
      sse(
        chunk(piece(0, { id: "call_same", type: "function", function: { name: "get_time", arguments: '{"zone":' } })),
        chunk(piece(1, { id: "call_same", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } })),
        chunk(piece(0, { function: { arguments: '"UTC"}' } })),
        chunk({}, "tool_calls"),
      ),
    );
    const calls = functionCallsOf(snapshot.output);
    assert.deepEqual(calls.map((call) => [call.name, call.arguments]), [["get_time", '{"zone":"UTC"}'], ["get_weather", '{"city":"Oslo"}']]);
    assert.equal(calls[0].call_id, "call_same");
    assert.notEqual(calls[1].call_id, "call_same");
  });

  it("ids made up for calls without one never repeat across answers", () => {
    const answer = () => read(sse(chunk(piece(0, { type: "function", function: { name: "get_time", arguments: "{}" } }), null, null), chunk({}, "tool_calls", null)));
    const ids = [answer(), answer(), answer()].map((snapshot) => functionCallsOf(snapshot.output)[0].call_id);
    assert.equal(new Set(ids).size, 3, ids.join(", "));
  });

  it(`an answer keeps at most ${MAX_TOOL_CALLS_PER_ANSWER} calls; the rest are refused, counted and said`, () => {
    const calls = Array.from({ length: 10_000 }, (_, index) => chunk(piece(index, { id: `call_${index}`, type: "function", function: { name: "get_time", arguments: '{"zone":"UTC"}' } })));
    const snapshot = read(sse(...calls, chunk({}, "tool_calls")));
    assert.equal(functionCallsOf(snapshot.output).length, MAX_TOOL_CALLS_PER_ANSWER);
    assert.equal(snapshot.refusedToolCalls, 10_000 - MAX_TOOL_CALLS_PER_ANSWER);
    const record = { purpose: "send", startedAt: 0, model: "m", streamed: true, maxOutputTokens: null, outcome: { kind: "completed" }, explanation: null, httpStatus: 200, requestId: null, responseId: null, usage: null, input: [], output: [], refusedToolCalls: snapshot.refusedToolCalls } satisfies RequestRecord;
    assert.match(receiptOf(record).note ?? "", /The answer proposed 9936 more tool calls than the 64 Relay Chat takes from one answer: they were refused and not run\./);
  });

  it("files dropped from a Chat Completions request are counted and said", () => {
    const input: InputItem[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Summarize" }, { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,AAAA" }] }];
    const request = buildResponseRequest({ model: "m", input, stream: true });
    assert.equal(chatCompletionsRequest(request).partsLeftOut, 1);
    const leftOut = leftOutOfWire(input, request, "chat");
    assert.deepEqual(leftOut, { chatPartsLeftOut: 1 });
    const record = { purpose: "send", startedAt: 0, model: "m", streamed: true, maxOutputTokens: null, outcome: { kind: "completed" }, explanation: null, httpStatus: 200, requestId: null, responseId: null, usage: null, input, output: [], protocol: "chat", ...leftOut } satisfies RequestRecord;
    assert.match(receiptOf(record).note ?? "", /1 attached part \(a file\) was left out of what was sent: Chat Completions cannot carry it\./);
    assert.deepEqual(leftOutOfWire([userMessage("Hi")], buildResponseRequest({ model: "m", input: [userMessage("Hi")], stream: true }), "chat"), {});
  });

  describe("over a real relay", () => {
    let harness: ChatHarness;
    beforeEach(async () => {
      harness = await startChatHarness();
    });
    afterEach(async () => {
      await harness.close();
    });

    it("a stop inside a tool call runs nothing and sends no follow-up", async () => {
      const log: ToolLog = { runs: [], approvals: [] };
      const session = harness.newSession({ settings: { model: "tools", protocol: "chat" }, tools: weatherTools("approve", log) });
      harness.emulator.queueReplay(sse(chunk(piece(0, { id: "call_h", type: "function", function: { name: "get_weather", arguments: '{"city":"Par' } })), chunk({}, "stop")));
      const turn = finishedTurn(await session.send("Weather?"));
      assert.deepEqual(turn.outcome, { kind: "incomplete", reason: UNFINISHED_TOOL_CALL_REASON });
      assert.match(turn.notice ?? "", /tool call was still half-written/);
      assert.deepEqual([log.approvals, log.runs], [[], []]);
      assert.equal(harness.emulator.postCount(), 1, "no billed follow-up");
    });

    it("the refused calls of a runaway answer reach the request's record", async () => {
      const session = harness.newSession({ settings: { model: "tools", protocol: "chat" }, tools: weatherTools("deny") });
      const calls = Array.from({ length: 70 }, (_, index) => chunk(piece(index, { id: `call_${index}`, type: "function", function: { name: "get_time", arguments: '{"zone":"UTC"}' } })));
      harness.emulator.queueReplay(sse(...calls, chunk({}, "tool_calls")));
      const turn = finishedTurn(await session.send("Time?"));
      assert.equal(turn.requests[0].refusedToolCalls, 70 - MAX_TOOL_CALLS_PER_ANSWER);
      assert.equal(turn.toolCalls.length, MAX_TOOL_CALLS_PER_ANSWER);
    });
  });
});
