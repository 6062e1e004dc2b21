import assert from "node:assert/strict";
import type { SendEstimate } from "../../src/chat/spendGuard";
import { totalsOf, totalsRowOf } from "../../src/chat/requestLedger";
import type { ModelPrice } from "../../src/relay/modelPrice";
import { receiptLine } from "../../src/cli/receipt";
import { MAX_TOKENS_PER_REQUEST, countedUsage, tokenCount } from "../../src/relay/usage";
import type { JsonObject } from "../../src/relay/types";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";

// Issue 36 §5: usage the relay reports cannot switch off the guards. A relay that reported `input_tokens: -1e9`
// made a ~75,000-token follow-up go without the spend warning (which showed -14,996 USD), two reports of 1e308
// tokens made the totals Infinity, and `cached_tokens: "0x10"` was printed as sent. A token figure that is
// negative, not a whole number, not a number, or above MAX_TOKENS_PER_REQUEST is unknown: not shown, not
// estimated from, not summed; on both wires, through the real client and a real relay (the emulator's replay).

const responsesStream = (usage: JsonObject): string =>
  [
    { type: "response.created", response: { id: "resp_u", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { id: "msg_u", type: "message", role: "assistant", status: "in_progress", content: [] } },
    { type: "response.output_text.delta", item_id: "msg_u", output_index: 0, content_index: 0, delta: "Noted." },
    { type: "response.completed", response: { id: "resp_u", status: "completed", usage } },
  ]
    .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");

const chatStream = (usage: JsonObject): string =>
  [
    { id: "chatcmpl-u", object: "chat.completion.chunk", model: "echo", choices: [{ index: 0, delta: { role: "assistant", content: "Noted." }, finish_reason: null }] },
    { id: "chatcmpl-u", object: "chat.completion.chunk", model: "echo", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    { id: "chatcmpl-u", object: "chat.completion.chunk", model: "echo", choices: [], usage },
  ]
    .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
    .concat("data: [DONE]\n\n")
    .join("");

const PRICE: ModelPrice = { inputPerMillion: 200, outputPerMillion: 400, cachedInputPerMillion: null, currency: "USD" };

describe("usage a relay reports that cannot be believed is unknown (issue 36 §5)", () => {
  it("a token count is a whole number from 0 to the ceiling", () => {
    const table: [unknown, number | null][] = [
      [0, 0],
      [12, 12],
      [MAX_TOKENS_PER_REQUEST, MAX_TOKENS_PER_REQUEST],
      [MAX_TOKENS_PER_REQUEST + 1, null],
      [-1, null],
      [-1e9, null],
      [1e308, null],
      [1.5, null],
      [Number.NaN, null],
      [Number.POSITIVE_INFINITY, null],
      ["12", null],
      ["0x10", null],
      [null, null],
    ];
    for (const [value, expected] of table) assert.equal(tokenCount(value), expected, String(value));
  });

  it("counted usage leaves out the figures it cannot believe and keeps the others; none left is not reported", () => {
    const answer = [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] }];
    assert.deepEqual(countedUsage({ input_tokens: -1e9, output_tokens: 5, total_tokens: 1e308, input_tokens_details: { cached_tokens: "0x10" as unknown as number } }, answer), { output_tokens: 5, input_tokens_details: {} });
    assert.equal(countedUsage({ input_tokens: -1e9, output_tokens: 1e308 }, answer), null);
    const fine = { input_tokens: 3, output_tokens: 5, total_tokens: 8 };
    assert.equal(countedUsage(fine, answer), fine, "believable usage is the relay's own object");
  });

  for (const wire of ["responses", "chat"] as const) {
    describe(`over ${wire === "chat" ? "Chat Completions" : "the Responses interface"}`, () => {
      let harness: ChatHarness;
      beforeEach(async () => {
        harness = await startChatHarness();
      });
      afterEach(async () => {
        await harness.close();
      });

      const replay = (usage: JsonObject, chatUsage: JsonObject) => harness.emulator.queueReplay(wire === "chat" ? chatStream(chatUsage) : responsesStream(usage));

      it("input_tokens -1e9 does not switch off the spend warning, and the warning's cost is not negative", async () => {
        const asked: SendEstimate[] = [];
        const session = harness.newSession({
          settings: { expensiveSendThresholdTokens: 50_000, spendWarningAmount: 100, priceOf: () => PRICE, ...(wire === "chat" ? { protocol: "chat" as const } : {}) },
          confirmExpensiveSend: async (estimate) => {
            asked.push(estimate);
            return false;
          },
        });
        // About 75,000 tokens of history (four characters a token), then a short follow-up message.
        replay({ input_tokens: -1e9, output_tokens: 5, total_tokens: -999_999_995 }, { prompt_tokens: -1e9, completion_tokens: 5, total_tokens: -999_999_995 });
        const first = finishedTurn(await session.send("x".repeat(300_000), { confirmed: true }));
        assert.equal(first.outcome.kind, "completed");
        assert.equal(first.requests[0].usage?.input_tokens, undefined, "the figure is unknown, not -1e9");
        const declined = await session.send("And now?");
        assert.equal(declined.status, "declined", "the warning was shown");
        assert.equal(asked.length, 1);
        assert.equal(asked[0].basis, "characters");
        assert.ok(asked[0].inputTokens >= 75_000, String(asked[0].inputTokens));
        assert.ok((asked[0].inputCost?.amount ?? -1) > 0, JSON.stringify(asked[0].inputCost));
      });

      it("two reports of 1e308 tokens leave the totals finite, the requests counted as without usage", async () => {
        const session = harness.newSession({ settings: wire === "chat" ? { protocol: "chat" } : {} });
        for (const text of ["one", "two"]) {
          replay({ input_tokens: 1e308, output_tokens: 1e308, total_tokens: 1e308 }, { prompt_tokens: 1e308, completion_tokens: 1e308, total_tokens: 1e308 });
          finishedTurn(await session.send(text));
        }
        const records = session.conversation.turns.flatMap((turn) => turn.requests);
        const fromRecords = totalsOf(records.map((record) => totalsRowOf(record)));
        const fromLedger = await harness.ledger.totalsFor(session.conversation.id);
        for (const totals of [fromRecords, fromLedger]) {
          assert.deepEqual([totals.inputTokens, totals.outputTokens, totals.requestsWithoutUsage], [0, 0, 2]);
        }
        // The record keeps what the relay sent, apart from what is counted.
        assert.equal(records[0].usage, null);
        assert.ok(records[0].reportedUsage);
      });

      it("usage details are read as numbers: cached_tokens \"0x10\" is not printed as sent", async () => {
        replay({ input_tokens: 20, output_tokens: 3, input_tokens_details: { cached_tokens: "0x10" } }, { prompt_tokens: 20, completion_tokens: 3, prompt_tokens_details: { cached_tokens: "0x10" } });
        const result = await harness.client.send({ model: "echo", input: [{ role: "user", content: "hi" }], stream: true, store: false }, wire === "chat" ? { protocol: "chat" } : {});
        assert.equal(result.usage?.input_tokens, 20);
        assert.equal(result.usage?.input_tokens_details?.cached_tokens, undefined);
        const line = receiptLine(result);
        assert.ok(!line.includes("0x10"), line);
        assert.match(line, /input 20 \(cached 0\)/);
      });
    });
  }

  it("a ledger row or record written by an older version with absurd figures is not summed", () => {
    const totals = totalsOf([
      { outcome: "completed", inputTokens: 1e308, cachedTokens: -5, outputTokens: 1e308, reasoningTokens: 2.5, bytesReceived: 10, estimatedCost: null, billedCost: null, costCurrency: null },
      { outcome: "completed", inputTokens: 10, cachedTokens: 2, outputTokens: 4, reasoningTokens: 1, bytesReceived: 10, estimatedCost: null, billedCost: null, costCurrency: null },
    ]);
    assert.deepEqual([totals.inputTokens, totals.cachedTokens, totals.outputTokens, totals.reasoningTokens, totals.requestsWithoutUsage], [10, 2, 4, 1, 1]);
  });
});
