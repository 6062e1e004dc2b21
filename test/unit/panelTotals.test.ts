import assert from "node:assert/strict";
import type { Conversation, RequestRecord, Turn } from "../../src/chat/conversation";
import { createConversation } from "../../src/chat/conversation";
import { conversationTotals } from "../../src/chat/conversationTotals";
import type { PanelState } from "../../src/panel/protocol";
import { totalsViewOf } from "../../src/panel/panelPresenter";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Issue 27: the title line's totals went stale (one request shown after five), vanished after the 4th
// request, and after a cancelled request and an edit counted tokens with no "unknown" mark. One rule now:
// the totals are computed from the conversation (every request of every branch and summary) each time.

type Outcome = RequestRecord["outcome"];

function request(outcome: Outcome, usage: { input: number; output: number } | null, cost: number | null = null, purpose: RequestRecord["purpose"] = "send"): RequestRecord {
  return {
    purpose,
    startedAt: 0,
    model: "echo",
    streamed: true,
    maxOutputTokens: null,
    outcome,
    explanation: null,
    httpStatus: 200,
    requestId: null,
    responseId: null,
    usage: usage === null ? null : ({ input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output } as RequestRecord["usage"]),
    ...(cost === null ? {} : { cost: { estimated: cost, billed: null, currency: "USD" } }),
    input: [],
    output: [],
  };
}

const completed: Outcome = { kind: "completed" };
const cancelled = { kind: "cancelled" } as unknown as Outcome;
const inProgress: Outcome = { kind: "in_progress" };

function withTurns(...turns: Array<Partial<Turn> & Pick<Turn, "id" | "requests">>): Conversation {
  const conversation = createConversation("c1", "echo", 0);
  let parentId: string | null = null;
  for (const turn of turns) {
    conversation.turns.push({ parentId, userText: turn.id, createdAt: 0, toolCalls: [], outcome: completed, notice: null, ...turn });
    parentId = turn.id;
  }
  conversation.activeTurnId = parentId;
  return conversation;
}

describe("the title line's totals: one rule, from the conversation", () => {
  it("counts five requests of three turns (a tool follow-up and a fourth and fifth request included)", () => {
    const conversation = withTurns(
      { id: "t1", requests: [request(completed, { input: 10, output: 2 })] },
      { id: "t2", requests: [request(completed, { input: 20, output: 3 }), request(completed, { input: 30, output: 4 }, null, "tool_follow_up")] },
      { id: "t3", requests: [request(completed, { input: 40, output: 5 }), request(completed, { input: 50, output: 6 }, null, "tool_follow_up")] },
    );
    const totals = totalsViewOf(conversationTotals(conversation, false));
    assert.equal(totals?.requests, 5);
    assert.equal(totals?.inputTokens, 150);
    assert.equal(totals?.outputTokens, 20);
    assert.equal(totals?.requestsWithoutUsage, 0);
  });

  it("a request refused with HTTP 401 reported no usage: none with usage, none without (it cost nothing), so the line says unknown", () => {
    const refused = { kind: "http_error", status: 401, body: "" } as unknown as Outcome;
    const totals = totalsViewOf(conversationTotals(withTurns({ id: "t1", requests: [request(refused, null)], outcome: refused }), false));
    assert.equal(totals?.requests, 1);
    assert.equal(totals?.requestsWithUsage, 0, "the title line then says tokens unknown, as the receipt does");
    assert.equal(totals?.requestsWithoutUsage, 0, "the sums are not marked as lower bounds: it cost nothing");
  });

  it("with no prices: the cost is unknown (null, never 0) and every request is counted as without a cost", () => {
    const conversation = withTurns({ id: "t1", requests: [request(completed, { input: 10, output: 2 })] }, { id: "t2", requests: [request(completed, { input: 20, output: 3 })] });
    const totals = totalsViewOf(conversationTotals(conversation, false));
    assert.equal(totals?.cost, null);
    assert.equal(totals?.requestsWithoutCost, 2);
    assert.equal(totals?.requests, 2, "the requests and tokens are still there to show");
  });

  it("a cancelled request and its edited version: both count, and the cancelled one's tokens are unknown", () => {
    const conversation = withTurns({ id: "t1", requests: [request(cancelled, null, null)], outcome: cancelled });
    // The edit is a sibling of the cancelled turn (same parent), on the branch now shown.
    conversation.turns.push({ id: "t1b", parentId: null, userText: "edited", createdAt: 1, toolCalls: [], outcome: completed, notice: null, requests: [request(completed, { input: 12, output: 7 }, 0.001)] });
    conversation.activeTurnId = "t1b";
    const totals = totalsViewOf(conversationTotals(conversation, false));
    assert.equal(totals?.requests, 2, "the cancelled branch's request still happened");
    assert.equal(totals?.requestsWithoutUsage, 1, "its tokens are unknown: the total is marked");
    assert.equal(totals?.inputTokens, 12);
    assert.equal(totals?.requestsWithoutCost, 1, "and so is its cost");
    assert.equal(totals?.cost?.amount, 0.001);
  });

  it("a regenerated answer: the request of every version counts", () => {
    const conversation = withTurns({ id: "t1", requests: [request(completed, { input: 10, output: 2 })] });
    conversation.turns.push({ id: "t1r", parentId: null, userText: "t1", createdAt: 1, toolCalls: [], outcome: completed, notice: null, requests: [request(completed, { input: 10, output: 9 }, null, "send")] });
    const totals = conversationTotals(conversation, false);
    assert.equal(totals?.requests, 2);
    assert.equal(totals?.outputTokens, 11);
  });

  it("counts a summary's request, and a request under way only once it ends (a crashed one as unknown)", () => {
    const conversation = withTurns(
      {
        id: "t1",
        requests: [request(completed, { input: 10, output: 2 })],
        summary: { requests: [request(completed, { input: 100, output: 20 }, null, "summarize")], replacedTurns: 1, estimatedTokensBefore: 110, estimatedTokensAfter: 20 },
      },
      { id: "t2", requests: [request(inProgress, null)], outcome: inProgress },
    );
    assert.equal(conversationTotals(conversation, true)?.requests, 2, "the running request is not counted yet");
    assert.equal(conversationTotals(conversation, true)?.requestsWithoutUsage, 0);
    const crashed = conversationTotals(conversation, false);
    assert.equal(crashed?.requests, 3, "a request that never ended may have been billed");
    assert.equal(crashed?.requestsWithoutUsage, 1);
    assert.equal(conversationTotals(null, false), null, "no conversation, no totals");
  });
});

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1]!;
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

describe("the title line's totals in the panel (Node, relay emulator)", function () {
  this.timeout(60_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  it("counts all five requests when the conversation is read again between them (another window, a snapshot of the history)", async () => {
    harness = await startPanelHostHarness();
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    for (let sent = 1; sent <= 5; sent++) {
      controller.handle({ type: "send", text: `message ${sent}` });
      const state = await harness.waitFor((candidate) => settled(candidate) && candidate.turns.length === sent, `answer ${sent}`);
      // What the history watcher does when the conversation's files change (a fold into the snapshot, another window).
      await controller.conversations.onHistoryChanged({ conversationIds: new Set([state.conversationId!]) });
      const totals = controller.state().totals;
      assert.equal(totals?.requests, sent, `after request ${sent}`);
      const inputs = controller.state().turns.reduce((sum, turn) => sum + (turn.receipts[0]?.usage?.inputTokens ?? 0), 0);
      assert.equal(totals?.inputTokens, inputs, "the tokens of every receipt");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(view.mirror.state?.totals?.requests, 5, "the page shows five");
  });

  it("after a cancelled request and an edit, the tokens are marked unknown for the cancelled one", async () => {
    harness = await startPanelHostHarness({ settings: { model: "demo" } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "Hello! What can you do?" });
    await harness.waitFor((state) => state.busy && state.turns.length > 0 && lastTurn(state).answerText.length > 0, "the answer to start");
    controller.handle({ type: "stop" });
    let state = await harness.waitFor(settled, "the stopped turn");
    assert.equal(lastTurn(state).outcome, "cancelled");
    await controller.setModel("echo");
    controller.handle({ type: "editAndResend", turnId: lastTurn(state).id, text: "Hello again" });
    state = await harness.waitFor((candidate) => settled(candidate) && lastTurn(candidate).outcome === "completed", "the edited message's answer");
    await controller.conversations.onHistoryChanged({ conversationIds: new Set([state.conversationId!]) });
    const totals = controller.state().totals;
    assert.equal(totals?.requests, 2);
    assert.equal(totals?.requestsWithoutUsage, 1, "the cancelled request's tokens are unknown");
    assert.ok((totals?.inputTokens ?? 0) > 0);
  });
});
