import { outputTextOf } from "../../src/relay/accumulate";
import assert from "node:assert/strict";
import { userMessage } from "../../src/relay/requestBuilder";
import type { JsonObject } from "../../src/relay/types";
import type { Turn } from "../../src/chat/conversation";
import type { TurnResult } from "../../src/chat/chatSession";
import type { ToolCallEvent } from "../../src/chat/toolRound";
import { answerTextOf } from "../../src/chat/answerText";
import { activeHistoryItems } from "../../src/chat/historyItems";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { completedResponseBody, functionCallItem, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

function finished(result: TurnResult): Turn {
  assert.equal(result.status, "finished");
  return (result as Extract<TurnResult, { status: "finished" }>).turn;
}

function inputOf(body: JsonObject): JsonObject[] {
  return body.input as JsonObject[];
}

describe("chat function calling", () => {
  let harness: ChatHarness;
  let log: ToolLog;
  beforeEach(async () => {
    harness = await startChatHarness();
    log = { runs: [], approvals: [] };
  });
  afterEach(async () => {
    await harness.close();
  });

  it("runs an approved call and sends the history, the call and its output in a follow-up", async () => {
    const events: ToolCallEvent[] = [];
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log), listener: { onToolCall: (_turnId, event) => events.push(event) } });
    const turn = finished(await session.send("weather in Paris?"));
    assert.equal(turn.outcome.kind, "completed");
    assert.deepEqual(log.approvals, ["get_weather"]);
    assert.deepEqual(log.runs, [{ name: "get_weather", args: { city: "Paris" } }]);
    assert.deepEqual(events.map((event) => event.phase), ["proposed", "finished"]);

    const bodies = harness.postedBodies();
    assert.equal(bodies.length, 2);
    const firstOutput = turn.requests[0].output;
    const call = firstOutput[0];
    assert.equal(call.type, "function_call");
    assert.equal(
      JSON.stringify(inputOf(bodies[1])),
      JSON.stringify([userMessage("weather in Paris?"), ...firstOutput, { type: "function_call_output", call_id: call.call_id, output: "Sunny in Paris, 21 °C" }]),
    );
    assert.ok(Array.isArray(bodies[1].tools) && bodies[1].tools.length === 2);
    assert.deepEqual(turn.requests.map((request) => request.purpose), ["send", "tool_follow_up"]);

    // The whole exchange is history for the next message.
    finished(await session.send("thanks"));
    const third = inputOf(harness.postedBodies()[2]);
    assert.deepEqual(third.map((item) => `${String(item.type)}:${String(item.role ?? "")}`), ["message:user", "function_call:", "function_call_output:", "message:assistant", "message:user"]);
  });

  it("streams the answer text of every request of a tool turn as deltas that add up to what the turn shows", async () => {
    let streamed = "";
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log), listener: { onAnswerDelta: (_turnId, text) => (streamed += text) } });
    const turn = finished(await session.send("weather in Paris?"));
    const shown = turn.requests.map((request) => outputTextOf(request.output)).filter((text) => text.length > 0).join("\n\n");
    assert.ok(shown.length > 0, "the follow-up answered in text");
    assert.equal(streamed, shown);
    assert.equal(answerTextOf(turn), shown, "the one answer text function agrees");
  });

  it("streams reasoning summary text to onReasoningDelta, never as answer text", async () => {
    let answer = "";
    let reasoning = "";
    const session = harness.newSession({
      settings: { model: "reasoning" },
      listener: { onAnswerDelta: (_turnId, text) => (answer += text), onReasoningDelta: (_turnId, text) => (reasoning += text) },
    });
    const turn = finished(await session.send("why?"));
    const summary = (turn.requests[0].output[0].summary as Array<{ text: string }>)[0].text;
    assert.equal(reasoning, summary);
    assert.match(reasoning, /^\*\*Considering the request\*\*/);
    assert.equal(answer, "After thinking it over: why?");
    assert.equal(answer.includes("Considering"), false);
  });

  it("the deltas of a Continue join the partial answer without a blank line, as the shown text does", async () => {
    let streamed = "";
    const session = harness.newSession({ settings: { model: "echo", maxOutputTokens: 16 }, listener: { onAnswerDelta: (_turnId, text) => (streamed += text) } });
    const turn = finished(await session.send(Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ")));
    const continued = finished(await session.continueTurn(turn.id));
    assert.equal(streamed, answerTextOf(continued));
    assert.ok(!streamed.includes("\n\n"));
  });

  it("answers a denied call with a declined output and never runs it", async () => {
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("deny", log) });
    const turn = finished(await session.send("weather?"));
    assert.equal(turn.outcome.kind, "completed");
    assert.deepEqual(log.runs, []);
    const followUp = inputOf(harness.postedBodies()[1]);
    const output = followUp[followUp.length - 1];
    assert.equal(output.type, "function_call_output");
    assert.match(String(output.output), /user declined/);
  });

  it("answers parallel calls with one output per call_id, in order", async () => {
    const session = harness.newSession({ settings: { model: "tools-parallel" }, tools: weatherTools("approve", log) });
    const turn = finished(await session.send("both please"));
    assert.equal(turn.outcome.kind, "completed");
    const calls = turn.requests[0].output.filter((item) => item.type === "function_call");
    assert.equal(calls.length, 2);
    assert.deepEqual(log.runs.map((run) => run.name), ["get_weather", "get_time"]);
    const outputs = inputOf(harness.postedBodies()[1]).filter((item) => item.type === "function_call_output");
    assert.deepEqual(outputs.map((item) => item.call_id), calls.map((item) => item.call_id));
    assert.equal(harness.emulator.postCount(), 2);
  });

  const malformed: { name: string; call: JsonObject; problem: RegExp }[] = [
    { name: "invalid JSON arguments", call: functionCallItem("get_weather", '{"city": "Par', "call_bad_json"), problem: /not valid JSON/ },
    { name: "an unknown tool", call: functionCallItem("delete_everything", "{}", "call_unknown"), problem: /no tool named "delete_everything"/ },
    { name: "a schema violation", call: functionCallItem("get_weather", '{"town": 3}', "call_schema"), problem: /invalid arguments for "get_weather"/ },
    { name: "arguments that are not an object", call: functionCallItem("get_weather", "[1,2]", "call_array"), problem: /must be a JSON object/ },
  ];
  for (const testCase of malformed) {
    it(`answers ${testCase.name} with a function_call_output describing it, without asking or running`, async () => {
      harness.emulator.queueJsonBody(completedResponseBody([testCase.call]));
      const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log) });
      const turn = finished(await session.send("go"));
      assert.equal(turn.outcome.kind, "completed");
      assert.deepEqual(log.approvals, []);
      assert.deepEqual(log.runs, []);
      assert.equal(turn.toolCalls[0].status, "rejected");
      const followUp = inputOf(harness.postedBodies()[1]);
      const output = followUp[followUp.length - 1];
      assert.equal(output.type, "function_call_output");
      assert.equal(output.call_id, testCase.call.call_id);
      assert.match(String(output.output), testCase.problem);
    });
  }

  it("answers calls even in a session without tools", async () => {
    harness.emulator.queueJsonBody(completedResponseBody([functionCallItem("get_weather", '{"city":"Oslo"}', "call_1")]));
    const session = harness.newSession({ settings: { model: "tools" } });
    const turn = finished(await session.send("go"));
    assert.equal(turn.outcome.kind, "completed");
    assert.match(String(turn.toolCalls[0].output.output), /no tool named/);
  });

  it("stops a model that keeps calling tools at the per-turn cap and tells the user", async () => {
    for (let index = 0; index < 5; index += 1) {
      harness.emulator.queueJsonBody(completedResponseBody([functionCallItem("get_weather", '{"city":"Rome"}', `call_loop_${index}`)]));
    }
    const session = harness.newSession({ settings: { model: "tools", toolRoundCap: 2 }, tools: weatherTools("approve", log) });
    const turn = finished(await session.send("loop"));
    assert.deepEqual(turn.outcome, { kind: "tool_round_limit", rounds: 2 });
    assert.match(String(turn.notice), /limit/);
    assert.equal(harness.emulator.postCount(), 3, "the first request and two follow-ups");
    assert.equal(log.runs.length, 2);
    assert.deepEqual(activeHistoryItems(session.conversation), [], "a stopped turn is not sent later");
  });

  it("cancel while waiting for approval records cancelled and sends no follow-up", async () => {
    const session = harness.newSession({
      settings: { model: "tools" },
      tools: weatherTools(() => {
        setTimeout(() => session.cancel(), 10);
        return new Promise(() => undefined);
      }, log),
    });
    const turn = finished(await session.send("weather?"));
    assert.equal(turn.outcome.kind, "cancelled");
    assert.equal(harness.emulator.postCount(), 1);
    assert.deepEqual(log.runs, []);
    assert.match(turn.toolCalls[0].output.output, /cancelled/);
  });

  it("a failed follow-up keeps the whole turn out of later requests", async () => {
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log) });
    harness.emulator.queueJsonBody(completedResponseBody([functionCallItem("get_weather", '{"city":"Rome"}', "call_x")]));
    harness.emulator.queueFault({ kind: "failed" });
    const turn = finished(await session.send("weather?"));
    assert.equal(turn.outcome.kind, "failed");
    assert.deepEqual(activeHistoryItems(session.conversation), []);
  });
});
