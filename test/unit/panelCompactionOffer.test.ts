import assert from "node:assert/strict";
import type { Conversation } from "../../src/chat/conversation";
import { activePath } from "../../src/chat/conversation";
import { conversationToJson } from "../../src/chat/exportJson";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import { compactionOfferFor } from "../../src/panel/turns/compactionOffer";
import { contextMeterFor } from "../../src/panel/context/contextMeter";
import { turnViewsOf } from "../../src/panel/turns/turnView";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";

const SETTINGS = { thresholdPercent: 80, keepTurns: 2, withoutAsking: false };

describe("panel: the offer to summarize earlier turns, and the summary's views", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  async function conversationOf(model: string, messages: readonly string[]): Promise<Conversation> {
    const session = harness.newSession({ settings: { model, compaction: SETTINGS } });
    for (const text of messages) await session.send(text);
    return session.conversation;
  }

  it("offers a summary only past the threshold of a known window, or after a too-long refusal, and only with turns to summarize", async () => {
    const conversation = await conversationOf("echo", ["one", "two", "three"]);
    const used = contextMeterFor(conversation, "", null).estimatedTokens;
    assert.equal(compactionOfferFor(conversation, { estimatedTokens: used, windowTokens: null }, SETTINGS, false), null, "no window known: nothing to compare with");
    assert.equal(compactionOfferFor(conversation, { estimatedTokens: used, windowTokens: used * 2 }, SETTINGS, false), null, "under the threshold");
    assert.deepEqual(compactionOfferFor(conversation, { estimatedTokens: used, windowTokens: Math.floor(used * 1.1) }, SETTINGS, false), { reason: "near_limit", turns: 1 });
    assert.equal(compactionOfferFor(conversation, { estimatedTokens: used, windowTokens: Math.floor(used * 1.1) }, SETTINGS, true), null, "not while a turn runs");
    assert.equal(compactionOfferFor(conversation, { estimatedTokens: used, windowTokens: Math.floor(used * 1.1) }, { ...SETTINGS, keepTurns: 3 }, false), null, "every turn is kept");

    const longInput = "log ".repeat(17_000);
    const refused = await conversationOf("small-window", ["one", "two", "three", longInput]);
    assert.deepEqual(compactionOfferFor(refused, { estimatedTokens: 10, windowTokens: null }, SETTINGS, false), { reason: "too_long", turns: 1 });
  });

  it("shows the summary on the turn it is stored on with what it replaced, and both exports keep the originals and the summary", async () => {
    const session = harness.newSession({ settings: { model: "echo", compaction: SETTINGS } });
    for (const text of ["one", "two", "three", "four"]) await session.send(text);
    const holder = finishedTurn(await session.summarizeEarlierTurns());
    const views = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null });
    assert.equal(views.length, 4);
    const view = views.find((each) => each.id === holder.id);
    assert.ok(view?.summary?.text);
    assert.equal(view.summary.replacedTurns, 2);
    assert.equal(view.summary.receipt?.purpose, "summarize");
    assert.match(view.summary.receipt?.note ?? "", /^Replaced 2 turns: the next request is about \d+ input tokens instead of \d+ \(estimates\)\.$/);

    const markdown = conversationToMarkdown(session.conversation);
    for (const text of ["one", "two", "three", "four"]) assert.ok(markdown.includes(`\n${text}\n`), `the turn "${text}" is exported`);
    assert.ok(markdown.includes("## Summary of the 2 turns above"));
    assert.ok(markdown.includes(view.summary.text));

    const exported = JSON.parse(conversationToJson(session.conversation)) as { input: Array<{ content?: unknown }>; turns: Conversation["turns"] };
    assert.equal(exported.turns.length, activePath(session.conversation).length, "every original turn");
    assert.ok(exported.turns.some((turn) => turn.summary?.requests[0]?.purpose === "summarize"), "the summary and its request");
    assert.match(String(exported.input[0]?.content), /^Summary of the earlier part/, "input is what is sent: the summary first");
  });
});
