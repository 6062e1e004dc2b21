// A turn whose answer ended `incomplete` is not sent with later messages as if it were complete; the person
// sees that on the turn and may include it (their message and the partial text, as plain messages). The
// context meter counts what will really be sent. Against the emulator: five answers cut at a small budget.
import assert from "node:assert/strict";
import { answerTextOf } from "../../src/chat/answerText";
import { compactionOfferFor } from "../../src/panel/turns/compactionOffer";
import { contextMeterFor } from "../../src/panel/context/contextMeter";
import type { JsonObject } from "../../src/relay/types";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";

const PASTE = Array.from({ length: 300 }, (_, index) => `line${index}`).join(" ");

function rolesAndTexts(body: JsonObject): string[] {
  return (body.input as JsonObject[]).map((item) => `${String(item.role)}:${String(item.content).slice(0, 20)}`);
}

describe("chat: incomplete turns in what is sent", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  async function fiveCutOffTurns() {
    const session = harness.newSession({ settings: { model: "echo", maxOutputTokens: 40, compaction: { thresholdPercent: 80, keepTurns: 4, withoutAsking: false } } });
    const turns = [];
    for (let index = 0; index < 5; index += 1) {
      const turn = finishedTurn(await session.send(`${index} ${PASTE}`));
      assert.equal(turn.outcome.kind, "incomplete");
      turns.push(turn);
    }
    return { session, turns };
  }

  it("leaves them out unless included, and the meter counts what is sent", async () => {
    const { session } = await fiveCutOffTurns();
    const meter = contextMeterFor(session.conversation, "", 16_000);
    assert.ok(meter.estimatedTokens < 10, `nothing of the five turns is sent, and the meter says so (${meter.estimatedTokens})`);
    session.settings = { ...session.settings, maxOutputTokens: null };
    finishedTurn(await session.send("next"));
    assert.deepEqual(rolesAndTexts(harness.postedBodies().at(-1) as JsonObject), ["user:next"]);
  });

  it("sends an included turn's message and partial answer as plain messages, persisted, and the meter counts them", async () => {
    const { session, turns } = await fiveCutOffTurns();
    const before = contextMeterFor(session.conversation, "", 16_000).estimatedTokens;
    for (const turn of turns) await session.changes.includeIncompleteTurn(turn.id);
    const reopened = await harness.store.open(session.conversation.id);
    assert.ok(reopened.ok && reopened.conversation.turns.every((turn) => turn.includeIncomplete === true), "stored in the conversation");

    const meter = contextMeterFor(session.conversation, "", 16_000);
    const partials = turns.map((turn) => answerTextOf(turn));
    const expected = turns.reduce((sum, turn, index) => sum + Math.ceil(turn.userText.length / 4) + Math.ceil((partials[index] ?? "").length / 4), 0);
    assert.ok(meter.estimatedTokens > before + 1000, `the meter grew (${before} → ${meter.estimatedTokens})`);
    assert.equal(meter.estimatedTokens, expected);
    assert.deepEqual(compactionOfferFor(session.conversation, { estimatedTokens: meter.estimatedTokens, windowTokens: Math.floor(meter.estimatedTokens * 1.1) }, { thresholdPercent: 80, keepTurns: 4, withoutAsking: false }, false), { reason: "near_limit", turns: 1 }, "Summarize earlier turns is reached");

    session.settings = { ...session.settings, maxOutputTokens: null };
    finishedTurn(await session.send("next"));
    const input = (harness.postedBodies().at(-1) as JsonObject).input as JsonObject[];
    assert.equal(input.length, 11);
    turns.forEach((turn, index) => {
      assert.deepEqual(input[2 * index], { type: "message", role: "user", content: turn.userText });
      assert.deepEqual(input[2 * index + 1], { type: "message", role: "assistant", content: partials[index] });
    });
    assert.deepEqual(input[10], { type: "message", role: "user", content: "next" });
  });
});
