import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TurnResult } from "../../src/chat/chatSession";
import { compactionBoundary, SUMMARIZE_PROMPT, summaryText } from "../../src/chat/compaction";
import type { Turn } from "../../src/chat/conversation";
import { activePath } from "../../src/chat/conversation";
import { parseConversation } from "../../src/chat/conversationSchema";
import { activeHistoryItems } from "../../src/chat/historyItems";
import { estimateSend } from "../../src/chat/spendGuard";
import { compactionOfferFor } from "../../src/panel/turns/compactionOffer";
import { causeOf } from "../../src/panel/turns/turnFixes";
import type { JsonObject } from "../../src/relay/types";
import { SMALL_CONTEXT_WINDOW } from "../emulator/scriptedModels";
import { countInputTokens } from "../emulator/tokenCounting";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";
import { validateResponseRequest } from "../support/openResponsesSchema";

const KEEP = { thresholdPercent: 80, keepTurns: 2, withoutAsking: false };

function inputOf(body: JsonObject): JsonObject[] {
  return body.input as JsonObject[];
}

/** Every function_call in the input has its output after it, and every output its call before it. */
function assertToolRoundsWhole(items: readonly JsonObject[], label: string): void {
  const calls = new Set<string>();
  for (const item of items) {
    if (item.type === "function_call") calls.add(String(item.call_id));
    if (item.type === "function_call_output") assert.ok(calls.delete(String(item.call_id)), `${label}: an output without its call (${String(item.call_id)})`);
  }
  assert.deepEqual([...calls], [], `${label}: calls without their output`);
}

function assertValid(body: JsonObject): void {
  const validation = validateResponseRequest(body);
  assert.ok(validation.valid, validation.valid ? "" : validation.errors);
}

describe("compaction: a summary of earlier turns", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("summarizes the turns before the kept ones between whole tool rounds, and resends the summary in their place, valid against the schema", async () => {
    const session = harness.newSession({ settings: { model: "tools", compaction: KEEP }, tools: weatherTools("approve") });
    finishedTurn(await session.send("What is the weather in Paris?"));
    session.settings = { ...session.settings, model: "echo" };
    finishedTurn(await session.send("second question"));
    session.settings = { ...session.settings, model: "tools" };
    finishedTurn(await session.send("And in Rome?"));
    finishedTurn(await session.send("And in Oslo?"));
    const path = activePath(session.conversation);
    assert.ok(path.every((turn) => turn.outcome.kind === "completed"));
    assert.equal(compactionBoundary(session.conversation, session.conversation.activeTurnId, 2)?.through.id, path[1]?.id);

    const summarized = finishedTurn(await session.summarizeEarlierTurns());
    assert.equal(summarized.id, path[1]?.id, "the summary is stored on the last turn it covers");
    const summaryBody = harness.postedBodies().at(-1) as JsonObject;
    assertValid(summaryBody);
    assert.equal(summaryBody.tools, undefined, "the summary request offers no tools");
    const summaryInput = inputOf(summaryBody);
    assert.equal(summaryInput.at(-1)?.content, SUMMARIZE_PROMPT);
    assertToolRoundsWhole(summaryInput, "summary request");
    assert.equal(summaryInput.filter((item) => item.role === "user").length, 3, "the two summarized messages and the request for a summary");
    const summary = summarized.summary;
    assert.ok(summary && summaryText(summary), "the summary has text");
    assert.equal(summary.replacedTurns, 2);
    assert.equal(summary.requests[0]?.purpose, "summarize");
    assert.ok(summary.estimatedTokensAfter !== null && summary.estimatedTokensAfter < summary.estimatedTokensBefore, `${summary.estimatedTokensAfter} < ${summary.estimatedTokensBefore}`);

    finishedTurn(await session.send("And in Lima?"));
    const next = harness.postedBodies().at(-1) as JsonObject;
    assertValid(next);
    const input = inputOf(next);
    assertToolRoundsWhole(input, "request after the summary");
    assert.match(String(input[0]?.content), /^Summary of the earlier part of this conversation/);
    assert.ok(String(input[0]?.content).includes(String(summaryText(summary))));
    assert.deepEqual(
      input.filter((item) => item.role === "user").map((item) => item.content).slice(1),
      ["And in Rome?", "And in Oslo?", "And in Lima?"],
      "the kept turns are sent as they are, the summarized ones are not",
    );
    // The originals stay in the conversation, and the ledger has the summary request.
    assert.equal(activePath(session.conversation).length, 5);
    const rows = await harness.ledger.rows();
    assert.ok(rows.some((row) => row.purpose === "summarize" && row.turnId === summarized.id));
  });

  it("keeps the summary through saving and reopening, and applies it to every branch through the turn it is stored on", async () => {
    const session = harness.newSession({ settings: { model: "echo", compaction: KEEP } });
    for (const text of ["one", "two", "three", "four"]) finishedTurn(await session.send(text));
    finishedTurn(await session.summarizeEarlierTurns());
    const sentBefore = JSON.stringify(activeHistoryItems(session.conversation));

    const opened = await harness.store.open(session.conversation.id);
    assert.ok(opened.ok);
    assert.deepEqual(opened.conversation.turns.map((turn) => turn.summary ?? null), session.conversation.turns.map((turn) => turn.summary ?? null));
    assert.equal(JSON.stringify(activeHistoryItems(opened.conversation)), sentBefore);

    // Editing the last message makes a new branch through the summarized turns: it sends the summary too.
    const reopened = harness.newSession({ settings: { model: "echo", compaction: KEEP }, conversation: opened.conversation });
    const last = activePath(opened.conversation).at(-1) as Turn;
    finishedTurn(await reopened.editAndResend(last.id, "four, edited"));
    const input = inputOf(harness.postedBodies().at(-1) as JsonObject);
    assert.match(String(input[0]?.content), /^Summary of the earlier part/);
    assert.deepEqual(input.filter((item) => item.role === "user").slice(1).map((item) => item.content), ["three", "four, edited"]);
  });

  it("reads a file saved before summaries existed unchanged", () => {
    const text = readFileSync(path.join(__dirname, "../fixtures/chat/conversation-v1.json"), "utf8");
    const parsed = parseConversation(text);
    assert.ok(parsed.ok);
    assert.ok(parsed.conversation.turns.every((turn) => turn.summary === undefined));
    assert.equal(compactionBoundary(parsed.conversation, parsed.conversation.activeTurnId, 100), null);
  });

  it("reads a summary request cut short by a crash as interrupted, replacing nothing", async () => {
    const session = harness.newSession({ settings: { model: "echo", compaction: KEEP } });
    for (const text of ["one", "two", "three"]) finishedTurn(await session.send(text));
    const holder = finishedTurn(await session.summarizeEarlierTurns());
    const saved = JSON.parse(JSON.stringify(session.conversation)) as typeof session.conversation;
    const request = saved.turns.find((turn) => turn.id === holder.id)?.summary?.requests[0];
    assert.ok(request);
    Object.assign(request, { outcome: { kind: "in_progress" }, output: [], received: { bytes: 120, events: 3 } });
    const parsed = parseConversation(JSON.stringify(saved));
    assert.ok(parsed.ok);
    const settled = parsed.conversation.turns.find((turn) => turn.id === holder.id)?.summary;
    assert.deepEqual(settled?.requests[0]?.outcome, { kind: "interrupted", bytes: 120, events: 3, reason: "client_stopped" });
    assert.equal(summaryText(settled), null);
    assert.ok(activeHistoryItems(parsed.conversation).every((item) => !String(item.content).startsWith("Summary of the earlier part")));
  });

  it("asks before an expensive summary like before any billed request, and sends nothing when declined", async () => {
    const session = harness.newSession({ settings: { model: "echo", compaction: KEEP, expensiveSendThresholdTokens: 1 }, confirmExpensiveSend: async (estimate) => (asked.push(estimate.purpose), false) });
    const asked: string[] = [];
    for (const text of ["one", "two", "three"]) await session.send(text, { confirmed: true });
    const posted = harness.postedBodies().length;
    const result = await session.summarizeEarlierTurns();
    assert.equal(result.status, "declined");
    assert.deepEqual(asked, ["summarize"]);
    assert.equal(harness.postedBodies().length, posted);
    assert.ok(session.conversation.turns.every((turn) => turn.summary === undefined));
  });

  it("summarizes before a message only with the person's standing consent (relayChat.compaction.withoutAsking)", async () => {
    for (const withoutAsking of [false, true]) {
      const session = harness.newSession({ settings: { model: "echo", contextWindowTokens: 400, compaction: { ...KEEP, withoutAsking } } });
      for (const text of ["one", "two", "three", "four"]) finishedTurn(await session.send(text));
      assert.ok(session.conversation.turns.every((turn) => turn.summary === undefined), "never before the threshold is passed");
      finishedTurn(await session.send(`five ${"word ".repeat(200)}`));
      const summaries = session.conversation.turns.filter((turn) => turn.summary !== undefined);
      assert.equal(summaries.length, withoutAsking ? 1 : 0);
    }
  });

  it("summarizes in chunks when the turns to summarize would not fit the window themselves (a switch to a smaller model)", async function () {
    this.timeout(120_000);
    // Sixty long turns with a model whose window is not known here, about twice the small model's window.
    const session = harness.newSession({ settings: { model: "echo", compaction: { ...KEEP, keepTurns: 4 } } });
    for (let index = 1; index <= 60; index += 1) finishedTurn(await session.send(`note ${index}: ${"detail ".repeat(120)}`));
    session.settings = { ...session.settings, model: "small-window", contextWindowTokens: SMALL_CONTEXT_WINDOW };
    const refused = finishedTurn(await session.send("and now?"));
    assert.equal(causeOf(refused.outcome), "context_length");

    const offer = compactionOfferFor(session.conversation, { estimatedTokens: 0, windowTokens: SMALL_CONTEXT_WINDOW }, { ...KEEP, keepTurns: 4 }, false);
    const first = finishedTurn(await session.summarizeEarlierTurns());
    const firstBody = harness.postedBodies().at(-1) as JsonObject;
    assert.ok(countInputTokens(firstBody.input) <= SMALL_CONTEXT_WINDOW, `the summary request fits the window (${countInputTokens(firstBody.input)})`);
    assert.ok(summaryText(first.summary), "the first chunk is summarized");
    const firstReplaced = first.summary?.replacedTurns ?? 0;
    assert.ok(firstReplaced > 0 && firstReplaced < 56, `it covers what fits, not all 56 earlier turns (${firstReplaced})`);
    assert.deepEqual(offer, { reason: "too_long", turns: firstReplaced }, "the offer named the turns one click replaces");
    assert.notEqual(compactionBoundary(session.conversation, session.conversation.activeTurnId, 4), null, "the rest can be summarized next");

    let summaries = 1;
    let latest = first;
    while ((latest.summary?.replacedTurns ?? 0) < 56 && summaries < 5) {
      latest = finishedTurn(await session.summarizeEarlierTurns());
      summaries += 1;
      const body = harness.postedBodies().at(-1) as JsonObject;
      assert.ok(countInputTokens(body.input) <= SMALL_CONTEXT_WINDOW, `summary ${summaries} fits the window`);
      assert.match(String(inputOf(body)[0]?.content), /^Summary of the earlier part/, "each chunk carries the summary before it");
      assert.ok(summaryText(latest.summary), `summary ${summaries} is answered`);
    }
    // Of the 60 completed turns the last four stay; the refused one is never sent, so it is not summarized either.
    assert.equal(latest.summary?.replacedTurns, 56);
    const retried = finishedTurn(await session.regenerate(refused.id));
    assert.equal(retried.outcome.kind, "completed", retried.notice ?? "");
    assertValid(harness.postedBodies().at(-1) as JsonObject);
  });

  it("with consent to summarize without asking, makes as many chunks as the window needs before the message, then sends it", async function () {
    this.timeout(120_000);
    // Ninety long turns: about three times the small model's window.
    const session = harness.newSession({ settings: { model: "echo", compaction: { ...KEEP, keepTurns: 4, withoutAsking: true } } });
    for (let index = 1; index <= 90; index += 1) finishedTurn(await session.send(`note ${index}: ${"detail ".repeat(120)}`));
    session.settings = { ...session.settings, model: "small-window", contextWindowTokens: SMALL_CONTEXT_WINDOW };
    const answered = finishedTurn(await session.send("and now?"));
    assert.equal(answered.outcome.kind, "completed", answered.notice ?? "");
    const summaryBodies = harness.postedBodies().filter((body) => inputOf(body).at(-1)?.content === SUMMARIZE_PROMPT);
    assert.ok(summaryBodies.length >= 2 && summaryBodies.length <= 3, `summaries made: ${summaryBodies.length}`);
    for (const body of [...summaryBodies, harness.postedBodies().at(-1) as JsonObject]) assert.ok(countInputTokens(body.input) <= SMALL_CONTEXT_WINDOW);
  });

  it("keeps a 200-turn conversation going after one consented summary against a model with a small context window", async function () {
    this.timeout(120_000);
    const session = harness.newSession({ settings: { model: "small-window", contextWindowTokens: SMALL_CONTEXT_WINDOW, compaction: { ...KEEP, keepTurns: 4 } } });
    for (let index = 1; index <= 200; index += 1) {
      const turn = finishedTurn(await session.send(`question ${index}`));
      assert.equal(turn.outcome.kind, "completed", `turn ${index}: ${turn.notice}`);
    }
    // The next message (with a pasted log) is longer than the window: the relay refuses it for its length.
    const refused = finishedTurn(await session.send(`Why does this log fail?\n${"log line ".repeat(2000)}`));
    assert.equal(refused.outcome.kind, "http_error");
    assert.match(refused.notice ?? "", /context window/);
    assert.equal(causeOf(refused.outcome), "context_length");

    const summarized: TurnResult = await session.summarizeEarlierTurns();
    const summaryTurn = finishedTurn(summarized);
    assert.equal(summaryTurn.summary?.replacedTurns, 196);
    assert.ok(summaryText(summaryTurn.summary), "one summary request, answered");

    const retried = finishedTurn(await session.regenerate(refused.id));
    assert.equal(retried.outcome.kind, "completed", retried.notice ?? "");
    for (let index = 1; index <= 5; index += 1) assert.equal(finishedTurn(await session.send(`more ${index}`)).outcome.kind, "completed");
    const last = harness.postedBodies().at(-1) as JsonObject;
    assertValid(last);
    const tokens = countInputTokens(last.input);
    assert.ok(tokens < SMALL_CONTEXT_WINDOW * 0.8, `the requests after the summary stay under the 80% threshold (${tokens} of ${SMALL_CONTEXT_WINDOW})`);
    assert.ok(estimateSend(session.conversation, session.conversation.activeTurnId, "", 0).inputTokens < SMALL_CONTEXT_WINDOW * 0.8);
    assert.equal(harness.postedBodies().filter((body) => inputOf(body).at(-1)?.content === SUMMARIZE_PROMPT).length, 1);
  });
});
