import assert from "node:assert/strict";
import type { SendEstimate } from "../../src/chat/spendGuard";
import type { ToolCallEvent } from "../../src/chat/toolRound";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// Every billed request the user starts is estimated first (issue 10, §5): a new message, Continue, Retry
// with a larger budget, and the follow-up request after approving tool calls. Above the threshold the
// user confirms; declining sends nothing.

const LONG_MESSAGE = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

const finished = finishedTurn;

describe("spend estimates for every billed request", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  for (const action of ["continue", "retry_larger"] as const) {
    it(`${action}: estimated from the last usage, asked above the threshold, nothing sent when declined`, async () => {
      const asked: SendEstimate[] = [];
      let answer = false;
      const session = harness.newSession({
        settings: { maxOutputTokens: 16, expensiveSendThresholdTokens: 10 },
        confirmExpensiveSend: async (estimate) => {
          asked.push(estimate);
          return answer;
        },
      });
      const turn = finished(await session.send(LONG_MESSAGE, { confirmed: true }));
      assert.equal(turn.outcome.kind, "incomplete");
      assert.equal(asked.length, 0, "the first send was confirmed by its caller");
      const run = () => (action === "continue" ? session.continueTurn(turn.id) : session.retryWithLargerBudget(turn.id));
      const declined = await run();
      assert.equal(declined.status, "declined");
      assert.equal(harness.emulator.postCount(), 1, "nothing sent");
      assert.equal(asked[0].purpose, action);
      const usage = turn.requests[0].usage!;
      // Continue resends the input and adds the partial answer; Retry resends the same input.
      if (action === "retry_larger") assert.deepEqual([asked[0].inputTokens, asked[0].basis], [usage.input_tokens, "last_usage"]);
      else assert.ok(asked[0].inputTokens > Number(usage.input_tokens), "the carried partial answer counts too");
      answer = true;
      const sent = finished(await run());
      assert.equal(sent.outcome.kind, "completed");
      assert.equal(harness.emulator.postCount(), 2);

      // Without a callback the caller is told to confirm, and sends again with { confirmed: true }.
      const unguarded = harness.newSession({ settings: { maxOutputTokens: 16, expensiveSendThresholdTokens: 10 }, conversation: session.conversation });
      const other = finished(await unguarded.send(`${LONG_MESSAGE} again`, { confirmed: true }));
      const waiting = action === "continue" ? await unguarded.continueTurn(other.id) : await unguarded.retryWithLargerBudget(other.id);
      assert.equal(waiting.status, "needs_confirmation");
      assert.equal(waiting.status === "needs_confirmation" && waiting.estimate.purpose, action);
      assert.equal(harness.emulator.postCount(), 3);
      finished(action === "continue" ? await unguarded.continueTurn(other.id, { confirmed: true }) : await unguarded.retryWithLargerBudget(other.id, undefined, { confirmed: true }));
      assert.equal(harness.emulator.postCount(), 4);
    });
  }

  it("the follow-up after tool calls: the approval card gets its estimate, and above the threshold it is asked for before it is sent", async () => {
    const log: ToolLog = { runs: [], approvals: [] };
    const asked: SendEstimate[] = [];
    const proposed: ToolCallEvent[] = [];
    let answer = false;
    const session = harness.newSession({
      settings: { model: "tools", expensiveSendThresholdTokens: 10 },
      tools: weatherTools("approve", log),
      listener: { onToolCall: (_turnId, event) => proposed.push(event) },
      confirmExpensiveSend: async (estimate) => {
        asked.push(estimate);
        return answer;
      },
    });
    const declined = finished(await session.send("weather?", { confirmed: true }));
    assert.deepEqual(log.runs.map((run) => run.name), ["get_weather"], "the approved call ran");
    const card = proposed.find((event) => event.phase === "proposed");
    assert.equal(card?.phase === "proposed" && card.followUpEstimate?.purpose, "tool_follow_up");
    const firstUsage = declined.requests[0].usage!;
    assert.equal(card?.phase === "proposed" && card.followUpEstimate?.inputTokens, Number(firstUsage.input_tokens) + Number(firstUsage.output_tokens));
    assert.deepEqual(asked.map((estimate) => estimate.purpose), ["tool_follow_up"]);
    assert.ok(asked[0].inputTokens > Number(firstUsage.input_tokens) + Number(firstUsage.output_tokens), "the tool result is counted");
    assert.equal(harness.emulator.postCount(), 1, "the follow-up was not sent");
    assert.equal(declined.outcome.kind, "cancelled");
    assert.match(String(declined.notice), /follow-up request with the tool results \(about \d+ input tokens.*\) was not sent/);
    assert.equal(session.followUpEstimate(declined.id)?.purpose, "tool_follow_up");

    answer = true;
    const accepted = finished(await session.send("weather again?", { confirmed: true }));
    assert.equal(accepted.outcome.kind, "completed");
    assert.equal(harness.emulator.postCount(), 3);
  });
});
