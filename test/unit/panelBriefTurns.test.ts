import assert from "node:assert/strict";
import type { Conversation } from "../../src/chat/conversation";
import { WHOLE_TURNS_AT_OPEN } from "../../src/panel/turns/briefTurn";
import type { PanelChange, TurnView } from "../../src/panel/protocol";
import { answeredConversation } from "../fixtures/chat/sampleConversations";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// The host's side of brief turns: a long conversation opens with its older turns brief, and `loadTurns`
// sends them whole, for the conversation on screen only. The real controller over a real history folder.

const TURNS = WHOLE_TURNS_AT_OPEN + 6;

function savedConversation(id: string): Conversation {
  const conversation = answeredConversation(id, TURNS, (index) => ({
    id: `${id}_turn_${index}`,
    userText: `Question ${index}`,
    answer: `Answer ${index} of ${id}. `.repeat(100),
    model: "m",
    idSuffix: String(index),
  }));
  conversation.title = id;
  return conversation;
}

function turnsPosted(harness: PanelHostHarness, from: number): TurnView[] {
  return harness.view
    .ofType("patch")
    .slice(from)
    .flatMap((patch) => patch.changes)
    .flatMap((change: PanelChange) => (change.kind === "turn" ? [change.turn] : []));
}

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("panel brief turns: the host (Node, real history folder)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  afterEach(async () => {
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  async function openLong(): Promise<void> {
    harness = await startPanelHostHarness();
    await harness.store.save(savedConversation("conv_a"));
    await harness.store.save(savedConversation("conv_b"));
    harness.controller.handle({ type: "ready" });
    await waitUntil(() => harness.view.ofType("snapshot").length === 1, "the snapshot");
    harness.controller.handle({ type: "switchConversation", conversationId: "conv_a" });
    await waitUntil(() => turnsPosted(harness, 0).length === TURNS, "the open");
  }

  it("opens a long conversation with its older turns brief and the newest whole, and sends brief turns whole when asked", async () => {
    await openLong();
    const opened = turnsPosted(harness, 0);
    const brief = opened.filter((turn) => turn.brief !== undefined);
    assert.deepEqual(brief.map((turn) => turn.id), Array.from({ length: TURNS - WHOLE_TURNS_AT_OPEN }, (_, index) => `conv_a_turn_${index}`));
    assert.equal(brief[0].userText, "Question 0", "a brief turn has the person's message");
    assert.equal(brief[0].outcome, "completed");
    assert.equal(brief[0].answerText, "");
    assert.deepEqual(brief[0].receipts, []);
    assert.deepEqual(brief[0].brief, { answerChars: "Answer 0 of conv_a. ".repeat(100).length, answerLines: 1, toolCalls: 0, receipts: 1 });
    assert.ok(opened.slice(-WHOLE_TURNS_AT_OPEN).every((turn) => turn.brief === undefined && turn.answerText.startsWith("Answer")));

    const before = harness.view.ofType("patch").length;
    harness.controller.handle({ type: "loadTurns", conversationId: "conv_a", turnIds: ["conv_a_turn_0", "conv_a_turn_1", "conv_a_turn_15", "no_such_turn"] });
    await waitUntil(() => turnsPosted(harness, before).length > 0, "the whole turns");
    const whole = turnsPosted(harness, before);
    assert.deepEqual(whole.map((turn) => turn.id), ["conv_a_turn_0", "conv_a_turn_1"], "only brief turns, and only once");
    assert.equal(whole[0].brief, undefined);
    assert.equal(whole[0].answerText, "Answer 0 of conv_a. ".repeat(100));
    assert.equal(whole[0].receipts[0]?.requestId, "req_0");

    // Once every brief turn came whole, the page holds exactly the host's state.
    harness.controller.handle({ type: "loadTurns", conversationId: "conv_a", turnIds: brief.map((turn) => turn.id) });
    await harness.waitForMirror();
    assert.deepEqual(harness.view.mirror.state, harness.controller.state());
  });

  it("ignores a request for turns of a conversation no longer on screen", async () => {
    await openLong();
    harness.controller.handle({ type: "switchConversation", conversationId: "conv_b" });
    await waitUntil(() => harness.view.mirror.state.conversationId === "conv_b" && harness.view.mirror.state.turns.length === TURNS, "the second conversation");
    const before = harness.view.posted.length;
    harness.controller.handle({ type: "loadTurns", conversationId: "conv_a", turnIds: ["conv_a_turn_0", "conv_b_turn_0"] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(harness.view.posted.slice(before), [], "nothing is sent for the other conversation, not even a turn of this one it names");
    harness.controller.handle({ type: "loadTurns", conversationId: "conv_b", turnIds: ["conv_b_turn_0"] });
    await waitUntil(() => harness.view.posted.length > before, "the whole turn");
    assert.deepEqual(turnsPosted(harness, 0).slice(-1).map((turn) => [turn.id, turn.brief]), [["conv_b_turn_0", undefined]]);
  });
});
