import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Conversation } from "../../src/chat/conversation";
import { HistoryStore } from "../../src/chat/historyStore";
import { requestSentFor } from "../../src/chat/requestSent";
import { estimateTokensOfItems } from "../../src/chat/spendGuard";
import { accumulateEvents, emptySnapshot, functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { CHAT_REASONING_FIELD } from "../../src/relay/chatCompletions/chatReasoning";
import { chatCompletionsRequest } from "../../src/relay/chatCompletions/requestMapping";
import { ChatCompletionsStreamDecoder } from "../../src/relay/chatCompletions/streamDecoder";
import { responseObjectOfChatCompletion } from "../../src/relay/chatCompletions/wholeBody";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { InputItem, JsonObject, OutputItem, RelayEvent } from "../../src/relay/types";
import { turnViewOf } from "../../src/panel/turns/turnView";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";
import { chatCompletionsDirectory } from "../support/fixturePaths";

// Issue 36 §2: thinking models over Chat Completions need their reasoning back. DeepSeek (V3.2/V4 thinking) and Kimi
// K2 answer HTTP 400 when an assistant message with tool calls comes back without the `reasoning_content` they
// streamed, so every tool loop with them failed on its second request. The reasoning is kept with the turn (on
// disk), sent back verbatim in the field it came in on the assistant message it belongs to, shown as reasoning,
// counted in the estimates; a move to the Responses interface says what cannot travel.

function decode(body: string | Buffer): RelayEvent[] {
  const decoder = new ChatCompletionsStreamDecoder();
  return [...decoder.push(typeof body === "string" ? Buffer.from(body, "utf8") : body), ...decoder.end()];
}

const sse = (...chunks: object[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";
const chunk = (delta: object, finish: string | null = null): object => ({ id: "chatcmpl-t", object: "chat.completion.chunk", model: "deepseek-reasoner", choices: [{ index: 0, delta, finish_reason: finish }] });

/** DeepSeek's shape: `reasoning_content` pieces with `content: null`, then a tool call, finish `tool_calls`. */
const deepSeekToolCall = sse(
  chunk({ role: "assistant", content: null, reasoning_content: "" }),
  chunk({ content: null, reasoning_content: "The user wants the weather" }),
  chunk({ content: null, reasoning_content: " in Paris; I will ask the tool." }),
  chunk({ content: null, reasoning_content: null, tool_calls: [{ index: 0, id: "call_00_ds1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({}, "tool_calls"),
);

function reasoningItemOf(output: readonly OutputItem[]): OutputItem {
  const item = output.find((candidate) => candidate.type === "reasoning");
  assert.ok(item, "a reasoning item");
  return item;
}

describe("thinking models over Chat Completions: reasoning kept and sent back (issue 36 §2)", () => {
  it("the recorded DeepSeek stream keeps its reasoning_content verbatim, the empty first piece included", () => {
    const bytes = readFileSync(path.join(chatCompletionsDirectory, "deepseek-reasoning-content.sse"));
    const snapshot = accumulateEvents(emptySnapshot, decode(bytes));
    const pieces: string[] = [];
    for (const line of bytes.toString("utf8").split("\n")) {
      if (!line.startsWith("data: {")) continue;
      const piece = (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { reasoning_content?: unknown } }> }).choices[0]?.delta.reasoning_content;
      if (typeof piece === "string") pieces.push(piece);
    }
    const item = reasoningItemOf(snapshot.output);
    assert.deepEqual(item[CHAT_REASONING_FIELD], { reasoning_content: pieces.join("") });
    assert.equal((item.summary as Array<{ text: string }>)[0].text, pieces.join(""), "shown as the reasoning");
  });

  it("a DeepSeek-style stream with reasoning_content then a tool call goes back on the assistant tool-call message", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode(deepSeekToolCall));
    assert.equal(snapshot.terminal, "completed");
    assert.deepEqual(functionCallsOf(snapshot.output), [{ call_id: "call_00_ds1", name: "get_weather", arguments: '{"city":"Paris"}' }]);
    const history: InputItem[] = [userMessage("Weather in Paris?"), ...snapshot.output, { type: "function_call_output", call_id: "call_00_ds1", output: "Sunny" }];
    const { body, reasoningLeftOut } = chatCompletionsRequest(buildResponseRequest({ model: "deepseek-reasoner", input: history, stream: true }));
    assert.equal(reasoningLeftOut, 0);
    assert.deepEqual(body.messages, [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_00_ds1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        reasoning_content: "The user wants the weather in Paris; I will ask the tool.",
      },
      { role: "tool", tool_call_id: "call_00_ds1", content: "Sunny" },
    ]);
  });

  it("a plain answer carries its reasoning too; a thinking model that did not think sends back its empty field", () => {
    const answer = accumulateEvents(emptySnapshot, decode(sse(chunk({ role: "assistant", content: null, reasoning_content: "Hm." }), chunk({ content: "Hello!", reasoning_content: null }), chunk({}, "stop"))));
    const silent = accumulateEvents(emptySnapshot, decode(sse(chunk({ role: "assistant", content: null, reasoning_content: "" }), chunk({ tool_calls: [{ index: 0, id: "call_s", type: "function", function: { name: "get_time", arguments: "{}" } }] }), chunk({}, "tool_calls"))));
    const input: InputItem[] = [userMessage("Hi"), ...answer.output, userMessage("Time?"), ...silent.output, { type: "function_call_output", call_id: "call_s", output: "noon" }];
    const { body } = chatCompletionsRequest(buildResponseRequest({ model: "deepseek-reasoner", input, stream: true }));
    assert.deepEqual(body.messages[1], { role: "assistant", content: "Hello!", reasoning_content: "Hm." });
    assert.deepEqual(body.messages[3], { role: "assistant", content: null, tool_calls: [{ id: "call_s", type: "function", function: { name: "get_time", arguments: "{}" } }], reasoning_content: "" });
  });

  it("OpenRouter's reasoning and reasoning_details go back in their own fields, the streamed blocks joined by index", () => {
    const openRouter = (delta: object, finish: string | null = null) => ({ id: "gen-1", object: "chat.completion.chunk", model: "anthropic/claude", choices: [{ index: 0, delta, finish_reason: finish }] });
    const snapshot = accumulateEvents(
      emptySnapshot,
      decode(
        sse(
          openRouter({ role: "assistant", content: "", reasoning: "Let me", reasoning_details: [{ type: "reasoning.text", text: "Let me", index: 0, format: "anthropic-claude-v1" }] }),
          openRouter({ content: "", reasoning: " check.", reasoning_details: [{ type: "reasoning.text", text: " check.", index: 0, format: "anthropic-claude-v1" }] }),
          openRouter({ content: "", reasoning: null, reasoning_details: [{ type: "reasoning.text", signature: "sig-abc", index: 0, format: "anthropic-claude-v1" }] }),
          openRouter({ content: "", reasoning_details: [] }),
          openRouter({ tool_calls: [{ index: 0, id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] }),
          openRouter({}, "tool_calls"),
        ),
      ),
    );
    const item = reasoningItemOf(snapshot.output);
    assert.equal((item.summary as Array<{ text: string }>)[0].text, "Let me check.", "shown once, not twice");
    const { body } = chatCompletionsRequest(buildResponseRequest({ model: "anthropic/claude", input: [userMessage("Oslo?"), ...snapshot.output, { type: "function_call_output", call_id: "toolu_1", output: "Rain" }], stream: true }));
    assert.deepEqual(body.messages[1], {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }],
      reasoning: "Let me check.",
      reasoning_details: [{ type: "reasoning.text", text: "Let me check.", index: 0, format: "anthropic-claude-v1", signature: "sig-abc" }],
    });
  });

  it("a non-streamed answer keeps its message's reasoning_content the same way", () => {
    const response = responseObjectOfChatCompletion({
      id: "chatcmpl-w",
      object: "chat.completion",
      model: "deepseek-reasoner",
      choices: [{ index: 0, message: { role: "assistant", content: null, reasoning_content: "Thinking it over.", tool_calls: [{ id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }] }, finish_reason: "tool_calls" }],
    });
    const output = response?.output as OutputItem[];
    assert.deepEqual(reasoningItemOf(output)[CHAT_REASONING_FIELD], { reasoning_content: "Thinking it over." });
  });

  it("the estimate counts what goes back of the reasoning once, not also the copy shown", () => {
    const snapshot = accumulateEvents(emptySnapshot, decode(deepSeekToolCall));
    const item = reasoningItemOf(snapshot.output);
    assert.equal(estimateTokensOfItems([item]), Math.ceil("The user wants the weather in Paris; I will ask the tool.".length / 4));
  });

  describe("a tool loop against thinking models that refuse a history without their reasoning", () => {
    let harness: ChatHarness;
    beforeEach(async () => {
      harness = await startChatHarness({ profile: "split" });
    });
    afterEach(async () => {
      await harness.close();
    });

    for (const [model, refusal] of [
      ["deepseek-reasoner", /The `reasoning_content` in the thinking mode must be passed back to the API\./],
      ["kimi-k2-thinking", /thinking is enabled but reasoning_content is missing in assistant tool call message at index 2/],
    ] as const) {
      it(`${model}: the relay refuses a follow-up whose tool-call message lost its reasoning (HTTP 400)`, async () => {
        const history: InputItem[] = [
          userMessage("Weather in Paris?"),
          { type: "function_call", call_id: "call_lost", name: "get_weather", arguments: '{"city":"Paris"}' },
          { type: "function_call_output", call_id: "call_lost", output: "Sunny" },
        ];
        const result = await harness.client.send(buildResponseRequest({ model, instructions: "Be brief.", input: history, stream: true }), { protocol: "chat" });
        assert.equal(result.outcome.kind, "http_error");
        assert.equal(result.httpStatus, 400);
        assert.match(result.outcome.kind === "http_error" ? result.outcome.message : "", refusal);
      });

      it(`${model}: a tool loop runs to its answer, the streamed reasoning sent back verbatim with the call`, async () => {
        const log: ToolLog = { runs: [], approvals: [] };
        const session = harness.newSession({ settings: { model, protocol: "chat" }, tools: weatherTools("approve", log) });
        const turn = finishedTurn(await session.send("Weather in Paris?"));
        assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
        assert.deepEqual(log.runs.map((run) => run.name), ["get_weather"]);
        assert.match(outputTextOf(turn.requests[1].output), /^Tool result: Sunny in Paris/);
        const [first, followUp] = harness.postedBodies();
        assert.equal(harness.emulator.received[harness.emulator.received.length - 1].path, "/v1/chat/completions");
        const streamed = reasoningItemOf(turn.requests[0].output)[CHAT_REASONING_FIELD] as { reasoning_content: string };
        assert.match(streamed.reasoning_content, /^The user wrote "Weather in Paris\?"/);
        const sentBack = (followUp.messages as JsonObject[]).find((message) => message.role === "assistant");
        assert.equal(sentBack?.reasoning_content, streamed.reasoning_content, "verbatim");
        assert.ok(Array.isArray(sentBack?.tool_calls), "on the message with the tool call");
        assert.ok(!(first.messages as JsonObject[]).some((message) => "reasoning_content" in message));
        // Shown as the turn's reasoning, both requests' of it.
        const view = turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null });
        assert.equal(view.hasReasoning, true);
        assert.equal(view.reasoningSummaries.length, 2);
      });
    }

    it("the reasoning survives a reload from disk: the next message after a reload sends it back", async () => {
      const session = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat" }, tools: weatherTools("approve") });
      finishedTurn(await session.send("Weather in Paris?"));
      const opened = await new HistoryStore(harness.storage).open(session.conversation.id);
      assert.ok(opened.ok, "the conversation is on disk");
      const reloaded: Conversation = opened.conversation;
      const next = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat" }, tools: weatherTools("approve"), conversation: reloaded });
      const turn = finishedTurn(await next.send("And in Rome?"));
      assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
      const bodies = harness.postedBodies();
      const assistants = (bodies[bodies.length - 1].messages as JsonObject[]).filter((message) => message.role === "assistant");
      assert.ok(assistants.length >= 3);
      assert.ok(assistants.every((message) => typeof message.reasoning_content === "string"), JSON.stringify(assistants));
    });

    it("moving to the Responses interface leaves the reasoning out and says so; Copy as curl repeats what was sent", async () => {
      const chat = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat" }, tools: weatherTools("approve") });
      finishedTurn(await chat.send("Weather in Paris?"));
      const responses = harness.newSession({ settings: { model: "echo" }, conversation: chat.conversation });
      const turn = finishedTurn(await responses.send("Thanks"));
      const record = turn.requests[0];
      assert.equal(record.responsesReasoningLeftOut, 2);
      const body = harness.postedBodies().pop() as { input: JsonObject[] };
      assert.ok(!body.input.some((item) => item.type === "reasoning"), "no reasoning item without encrypted content goes to /v1/responses");
      const view = turnViewOf(responses.conversation, turn, { streamingTurnId: null, liveText: null });
      assert.match(view.receipts[0].note ?? "", /2 reasoning items from Chat Completions answers were left out of what was sent: the Responses interface cannot carry them\./);
      assert.deepEqual(requestSentFor(responses.conversation, turn.id, 0)?.body.input, body.input);
      // And back over Chat Completions: it goes again.
      const back = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat" }, conversation: responses.conversation });
      const again = finishedTurn(await back.send("Bye"));
      assert.equal(again.requests[0].responsesReasoningLeftOut, undefined);
      const messages = (harness.postedBodies().pop() as { messages: JsonObject[] }).messages;
      assert.equal(messages.filter((message) => typeof message.reasoning_content === "string").length, 2);
    });
  });

  it("to another relay the plain-text reasoning travels; reasoning_details (a provider's signed blocks) stay, said", async () => {
    const harness = await startChatHarness({ profile: "split" });
    try {
      const chat = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat", relay: "first" }, tools: weatherTools("approve") });
      finishedTurn(await chat.send("Weather in Paris?"));
      // An answer from OpenRouter on the first relay, with signed blocks.
      const signed: OutputItem = { type: "reasoning", summary: [{ type: "summary_text", text: "x" }], [CHAT_REASONING_FIELD]: { reasoning: "x", reasoning_details: [{ type: "reasoning.encrypted", data: "opaque" }] } };
      chat.conversation.turns[0].requests[1].output.unshift(signed);
      const other = harness.newSession({ settings: { model: "deepseek-reasoner", protocol: "chat", relay: "second" }, conversation: chat.conversation });
      const turn = finishedTurn(await other.send("Thanks"));
      assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
      assert.equal(turn.requests[0].otherRelayReasoningLeftOut, 1);
      const messages = (harness.postedBodies().pop() as { messages: JsonObject[] }).messages;
      assert.ok(!messages.some((message) => "reasoning_details" in message));
      assert.equal(messages.filter((message) => typeof message.reasoning_content === "string").length, 2);
    } finally {
      await harness.close();
    }
  });
});
