import assert from "node:assert/strict";
import { answerTextOf } from "../../src/chat/answerText";
import { activeHistoryItems } from "../../src/chat/historyItems";
import type { OutcomeKind } from "../../src/relay/types";
import type { EmulatorProfile } from "../emulator/profiles";
import { EMULATOR_PROFILES } from "../emulator/profiles";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// The chat engine's core scenarios against every kind of relay the emulator plays (issue 10, §7): text,
// multi-turn, a tool round trip, incomplete, an error after HTTP 200 and a cut stream, streamed and not,
// each through a real ChatSession, real files and the ledger.

const finished = finishedTurn;

const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

/** A translating gateway shows neither usage nor a truncation in its stream; a correct client claims neither. */
const STREAMED_INCOMPLETE: Record<EmulatorProfile, OutcomeKind> = { openai: "incomplete", minimal: "incomplete", "new-api": "incomplete", translated: "completed", openrouter: "incomplete", litellm: "incomplete", split: "incomplete", "drops-instructions": "completed" };

for (const profile of EMULATOR_PROFILES) {
  for (const stream of [true, false]) {
    describe(`chat against the ${profile} profile (${stream ? "streamed" : "not streamed"})`, () => {
      let harness: ChatHarness;
      beforeEach(async () => {
        harness = await startChatHarness({ profile });
      });
      afterEach(async () => {
        await harness.close();
      });
      const session = (options: Parameters<ChatHarness["newSession"]>[0] = {}) => harness.newSession({ ...options, settings: { stream, ...options.settings } });

      it("text, with a receipt that matches the relay's usage log", async () => {
        let streamed = "";
        const turn = finished(await session({ listener: { onAnswerDelta: (_id, text) => (streamed += text) } }).send("hello profile"));
        assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
        assert.equal(answerTextOf(turn), "You said: hello profile");
        if (stream) assert.equal(streamed, answerTextOf(turn));
        const [row] = await harness.ledger.rows();
        assert.equal(row.requestId, harness.emulator.usageLog[0].requestId);
        assert.equal(turn.requests[0].requestId, row.requestId);
        if (stream && (profile === "translated" || profile === "drops-instructions")) {
          assert.equal(turn.requests[0].usage, null, "zeros are not reported usage");
          assert.equal(row.inputTokens, null);
          assert.equal((await harness.ledger.totalsFor(row.conversationId)).requestsWithoutUsage, 1);
        } else {
          assert.equal(row.outputTokens, harness.emulator.usageLog[0].outputTokens);
        }
      });

      it("multi-turn: the history is resent and the second turn completes", async () => {
        const chat = session();
        const first = finished(await chat.send("first"));
        const second = finished(await chat.send("second"));
        assert.equal(second.outcome.kind, "completed", second.notice ?? "");
        assert.equal(answerTextOf(second), "You said: second");
        const input = harness.postedBodies()[1].input as Array<{ role?: string; content?: unknown }>;
        assert.deepEqual(input.filter((item) => item.role === "user").map((item) => item.content), ["first", "second"]);
        assert.equal(JSON.stringify(input.slice(1, -1)), JSON.stringify(first.requests[0].output));
      });

      it("tool round trip: the call is approved, run, and answered in a follow-up", async () => {
        const log: ToolLog = { runs: [], approvals: [] };
        let streamed = "";
        const turn = finished(await session({ settings: { model: "tools" }, tools: weatherTools("approve", log), listener: { onAnswerDelta: (_id, text) => (streamed += text) } }).send("weather?"));
        assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
        assert.deepEqual(log.runs, [{ name: "get_weather", args: { city: "Paris" } }]);
        assert.equal(answerTextOf(turn), "Tool result: Sunny in Paris, 21 °C");
        if (stream) assert.equal(streamed, answerTextOf(turn));
        assert.deepEqual(turn.requests.map((request) => request.purpose), ["send", "tool_follow_up"]);
        assert.equal((await harness.ledger.rows()).length, 2);
      });

      it("incomplete: the partial text is kept and never resent", async () => {
        const chat = session({ settings: { maxOutputTokens: 16 } });
        const turn = finished(await chat.send(LONG_TEXT));
        const expected = stream ? STREAMED_INCOMPLETE[profile] : "incomplete";
        assert.equal(turn.outcome.kind, expected);
        assert.ok(answerTextOf(turn).startsWith("You said: word0"));
        if (expected === "incomplete") assert.deepEqual(activeHistoryItems(chat.conversation), []);
      });

      it("an error after HTTP 200: the turn says so and keeps what arrived", async () => {
        harness.emulator.queueFault({ kind: "error_event", code: "server_error", message: "upstream broke" });
        const turn = finished(await session().send(LONG_TEXT));
        assert.equal(turn.outcome.kind, stream ? "error_event" : "http_error");
        assert.match(turn.notice ?? "", /server error/);
        if (stream) assert.equal(answerTextOf(turn), "You said:");
        const [row] = await harness.ledger.rows();
        assert.equal(row.outcome, turn.outcome.kind);
        assert.equal(row.requestId, harness.emulator.usageLog[0].requestId);
      });

      it("a cut stream: interrupted, with the text so far kept", async () => {
        const chat = session();
        const whole = finished(await chat.send(LONG_TEXT));
        const wholeBytes = (await harness.ledger.rows())[0].bytesReceived;
        harness.emulator.queueFault({ kind: "disconnect", afterBytes: Math.floor(wholeBytes * 0.6) });
        const turn = finished(await chat.send(LONG_TEXT));
        assert.equal(turn.outcome.kind, "interrupted");
        if (stream) assert.ok(answerTextOf(whole).startsWith(answerTextOf(turn)) && answerTextOf(turn).length > 10);
        assert.equal(activeHistoryItems(chat.conversation).length, 2, "only the first, completed turn is history");
      });
    });
  }
}
