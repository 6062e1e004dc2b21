import assert from "node:assert/strict";
import { userMessage } from "../../src/relay/requestBuilder";
import type { JsonObject } from "../../src/relay/types";
import { activePath, siblingsOf } from "../../src/chat/conversation";
import type { Turn } from "../../src/chat/conversation";
import type { TurnResult } from "../../src/chat/chatSession";
import { answerTextOf } from "../../src/chat/answerText";
import { CONTINUE_PROMPT, activeHistoryItems } from "../../src/chat/historyItems";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { validateResponseRequest } from "../support/openResponsesSchema";
import { startChatHarness } from "../fixtures/chat/chatHarness";

function finished(result: TurnResult): Turn {
  assert.equal(result.status, "finished");
  return (result as Extract<TurnResult, { status: "finished" }>).turn;
}

/** Longer than 16 output tokens (the smallest budget the relay accepts) when echoed word by word. */
const LONG_MESSAGE = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

function inputOf(body: JsonObject): JsonObject[] {
  return body.input as JsonObject[];
}

describe("chat turn loop", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  for (const stream of [true, false]) {
    it(`resends the whole history byte-identical, reasoning included once it can be resent (${stream ? "streamed" : "not streamed"})`, async () => {
      const session = harness.newSession({ settings: { model: "reasoning", stream } });
      const first = finished(await session.send("first question"));
      assert.equal(first.outcome.kind, "completed");
      const firstOutput = first.requests[0].output;
      assert.deepEqual(firstOutput.map((item) => item.type), ["reasoning", "message"]);
      // Nothing was known about the model yet, so nothing was asked for: this reasoning cannot be resent.
      assert.equal(firstOutput[0].encrypted_content, undefined);

      const second = finished(await session.send("second question"));
      assert.equal(second.outcome.kind, "completed", second.notice ?? "");
      const third = finished(await session.send("third question"));
      assert.equal(third.outcome.kind, "completed", third.notice ?? "");
      const bodies = harness.postedBodies();
      assert.equal(bodies.length, 3);
      assert.equal(bodies[0].include, undefined, "no include before the model is known to reason");
      // The strict relay (store:false) would reject the reasoning item without encrypted_content: it is left out.
      assert.equal(JSON.stringify(inputOf(bodies[1])), JSON.stringify([userMessage("first question"), firstOutput[1], userMessage("second question")]));
      assert.deepEqual(bodies[1].include, ["reasoning.encrypted_content"]);
      const secondOutput = second.requests[0].output;
      assert.match(String(secondOutput[0].encrypted_content), /^gAAAAA/);
      const expected = [userMessage("first question"), firstOutput[1], userMessage("second question"), ...secondOutput, userMessage("third question")];
      assert.equal(JSON.stringify(inputOf(bodies[2])), JSON.stringify(expected));
      // Byte-for-byte in the raw body too: the items are the service's own, ids and all.
      const rawThird = harness.emulator.received.filter((request) => request.method === "POST")[2].rawBody;
      for (const item of secondOutput) assert.ok(rawThird.includes(JSON.stringify(item)), `item ${String(item.id)} resent unchanged`);
      for (const body of bodies) {
        assert.equal(body.store, false);
        assert.deepEqual(validateResponseRequest(body, { requireMessageType: true }), { valid: true });
      }
      // The reasoning that was not resent stays in the conversation for display.
      assert.equal(session.conversation.turns[0].requests[0].output[0].type, "reasoning");
    });
  }

  it("keeps unknown item kinds and fields in the history unchanged", async () => {
    const odd = { type: "web_search_call", id: "ws_1", status: "completed", action: { query: "x" }, phase: "final" };
    const message = { id: "msg_1", type: "message", role: "assistant", status: "completed", phase: "final_answer", content: [{ type: "output_text", text: "Hi", annotations: [], logprobs: [] }] };
    harness.emulator.queueJsonBody({ id: "resp_1", object: "response", status: "completed", model: "echo", output: [odd, message], usage: { input_tokens: 3, output_tokens: 1 } });
    const session = harness.newSession();
    finished(await session.send("hello"));
    finished(await session.send("again"));
    const input = inputOf(harness.postedBodies()[1]);
    assert.equal(JSON.stringify(input.slice(1, 3)), JSON.stringify([odd, message]));
  });

  const failures: { name: string; arrange: (harness: ChatHarness) => void; settings?: { maxOutputTokens?: number }; expected: string }[] = [
    { name: "incomplete", arrange: () => undefined, settings: { maxOutputTokens: 16 }, expected: "incomplete" },
    { name: "failed", arrange: (h) => h.emulator.queueFault({ kind: "failed" }), expected: "failed" },
    { name: "error_event", arrange: (h) => h.emulator.queueFault({ kind: "error_event" }), expected: "error_event" },
    { name: "interrupted", arrange: (h) => h.emulator.queueFault({ kind: "disconnect", afterBytes: 900 }), expected: "interrupted" },
    { name: "http_error", arrange: (h) => h.emulator.queueFault({ kind: "status", status: 503 }), expected: "http_error" },
  ];
  for (const failure of failures) {
    it(`keeps a ${failure.name} turn for display and out of the next request`, async () => {
      const session = harness.newSession();
      finished(await session.send("one"));
      failure.arrange(harness);
      if (failure.settings) session.settings = { ...session.settings, ...failure.settings };
      const broken = finished(await session.send(`two ${LONG_MESSAGE}`));
      assert.equal(broken.outcome.kind, failure.expected);
      assert.ok(broken.notice, "the user is told why");
      session.settings = { ...session.settings, maxOutputTokens: null };
      const third = finished(await session.send("three"));
      assert.equal(third.outcome.kind, "completed");
      assert.equal(third.parentId, broken.id, "the failed turn stays on the branch for display");

      const bodies = harness.postedBodies();
      const lastInput = inputOf(bodies[bodies.length - 1]);
      const userTexts = lastInput.filter((item) => item.role === "user").map((item) => item.content);
      assert.deepEqual(userTexts, ["one", "three"]);
      assert.ok(!JSON.stringify(lastInput).includes("two"));
      // The failed turn is still in the saved conversation with its outcome.
      const reopened = await harness.store.open(session.conversation.id);
      assert.ok(reopened.ok);
      const saved = reopened.conversation.turns.find((turn) => turn.id === broken.id);
      assert.equal(saved?.outcome.kind, failure.expected);
    });
  }

  it("keeps the partial text of an incomplete answer, marked", async () => {
    const session = harness.newSession({ settings: { maxOutputTokens: 16 } });
    const turn = finished(await session.send(LONG_MESSAGE));
    assert.equal(turn.outcome.kind, "incomplete");
    const partial = answerTextOf(turn);
    assert.ok(partial.startsWith("You said: word0 "));
    assert.ok(partial.length < `You said: ${LONG_MESSAGE}`.length);
    assert.deepEqual(activeHistoryItems(session.conversation), []);
  });

  it("cancel aborts the request in flight and records cancelled", async () => {
    harness.emulator.queueFault({ kind: "stall" });
    const session = harness.newSession({ listener: { onAnswerDelta: () => session.cancel() } });
    const turn = finished(await session.send("wait forever"));
    assert.equal(turn.outcome.kind, "cancelled");
    assert.equal(answerTextOf(turn), "You", "what arrived before the cancel is kept");
    assert.equal(session.busy, false);
    finished(await session.send("next"));
    const input = inputOf(harness.postedBodies()[1]);
    assert.deepEqual(input, [userMessage("next")]);
  });

  it("Continue and Retry-larger each send exactly one request, and only when called", async () => {
    const session = harness.newSession({ settings: { maxOutputTokens: 16 } });
    const turn = finished(await session.send(LONG_MESSAGE));
    const partial = answerTextOf(turn);
    assert.equal(turn.outcome.kind, "incomplete");
    const actions = session.incompleteActions(turn.id);
    assert.deepEqual(actions.map((action) => action.action), ["continue", "retry_larger"]);
    assert.ok(actions.every((action) => /bill/.test(action.billingNote)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(harness.emulator.postCount(), 1, "nothing is sent without the user");

    const continued = finished(await session.continueTurn(turn.id));
    assert.equal(harness.emulator.postCount(), 2);
    const continueInput = inputOf(harness.postedBodies()[1]);
    assert.deepEqual(continueInput.slice(-3), [
      userMessage(LONG_MESSAGE),
      { type: "message", role: "assistant", content: partial },
      userMessage(CONTINUE_PROMPT),
    ]);
    assert.equal(continued.requests[1].purpose, "continue");

    assert.equal(continued.outcome.kind, "completed");
    assert.equal(answerTextOf(continued), `${partial}You said: ${CONTINUE_PROMPT}`);
    assert.deepEqual(session.incompleteActions(turn.id), []);
    await assert.rejects(session.continueTurn(turn.id), /Only an incomplete answer/);
    assert.equal(harness.emulator.postCount(), 2);

    const other = finished(await session.send(LONG_MESSAGE));
    assert.equal(other.outcome.kind, "incomplete");
    assert.equal(harness.emulator.postCount(), 3);
    const retried = finished(await session.retryWithLargerBudget(other.id, 500));
    assert.equal(harness.emulator.postCount(), 4);
    const retryBody = harness.postedBodies()[3];
    assert.equal(retryBody.max_output_tokens, 500);
    assert.deepEqual(inputOf(retryBody), inputOf(harness.postedBodies()[2]), "the same request, only the budget differs");
    assert.equal(retried.outcome.kind, "completed");
    assert.equal(retried.requests[1].purpose, "retry_larger");
    assert.equal(answerTextOf(retried), `You said: ${LONG_MESSAGE}`);
  });

  it("edit-and-resend and regenerate create branches; the originals stay reachable", async () => {
    const session = harness.newSession();
    const first = finished(await session.send("a"));
    const second = finished(await session.send("b"));
    const edited = finished(await session.editAndResend(second.id, "b edited"));
    assert.equal(edited.parentId, first.id);
    assert.deepEqual(siblingsOf(session.conversation, second.id).map((turn) => turn.userText), ["b", "b edited"]);
    assert.deepEqual(activePath(session.conversation).map((turn) => turn.userText), ["a", "b edited"]);
    assert.deepEqual(inputOf(harness.postedBodies()[2]).filter((item) => item.role === "user").map((item) => item.content), ["a", "b edited"]);

    const regenerated = finished(await session.regenerate(first.id));
    assert.equal(regenerated.parentId, null);
    assert.deepEqual(inputOf(harness.postedBodies()[3]), [userMessage("a")]);
    assert.deepEqual(activePath(session.conversation).map((turn) => turn.id), [regenerated.id]);

    await session.changes.showBranch(second.id);
    assert.deepEqual(activePath(session.conversation).map((turn) => turn.id), [first.id, second.id]);
    await session.changes.showBranch(first.id);
    assert.deepEqual(activePath(session.conversation).map((turn) => turn.id), [first.id, edited.id], "the newest continuation opens");
    const reopened = await harness.store.open(session.conversation.id);
    assert.ok(reopened.ok);
    assert.equal(reopened.conversation.turns.length, 4);
  });

  it("warns before an expensive send: returns needs_confirmation, or asks the injected callback", async () => {
    const session = harness.newSession({ settings: { expensiveSendThresholdTokens: 5 } });
    const big = "x".repeat(100);
    const waiting = await session.send(big);
    assert.equal(waiting.status, "needs_confirmation");
    assert.equal(harness.emulator.postCount(), 0);
    assert.ok(waiting.status === "needs_confirmation" && waiting.estimate.inputTokens >= 25);
    finished(await session.send(big, { confirmed: true }));
    assert.equal(harness.emulator.postCount(), 1);

    const asked: number[] = [];
    const guarded = harness.newSession({
      settings: { expensiveSendThresholdTokens: 5 },
      confirmExpensiveSend: async (estimate) => {
        asked.push(estimate.inputTokens);
        return false;
      },
    });
    assert.equal((await guarded.send(big)).status, "declined");
    assert.equal(harness.emulator.postCount(), 1);
    assert.equal(asked.length, 1);
  });

  it("estimates from the last usage once there is one", async () => {
    const asked: { inputTokens: number; basis: string }[] = [];
    const session = harness.newSession({
      settings: { expensiveSendThresholdTokens: 1 },
      confirmExpensiveSend: async (estimate) => {
        asked.push({ inputTokens: estimate.inputTokens, basis: estimate.basis });
        return true;
      },
    });
    const first = finished(await session.send("hello there"));
    finished(await session.send("abcdefgh"));
    const usage = first.requests[0].usage;
    assert.equal(asked[1].basis, "last_usage");
    assert.equal(asked[1].inputTokens, Number(usage?.input_tokens) + Number(usage?.output_tokens) + 2);
  });

  it("refuses a second send while one is running", async () => {
    harness.emulator.queueFault({ kind: "drip", intervalMs: 20 });
    const session = harness.newSession();
    const running = session.send("slow");
    await assert.rejects(session.send("too soon"), /still being answered/);
    finished(await running);
  });
});
