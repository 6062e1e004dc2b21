import assert from "node:assert/strict";
import { CarriedReasoning } from "../../src/lm/carriedReasoning";
import { RelayClient } from "../../src/relay/client";
import { functionCallsOf } from "../../src/relay/accumulate";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { FunctionToolDefinition, InputItem } from "../../src/relay/types";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";

// VS Code's chat hands a conversation back without the model's reasoning (src/lm/carriedReasoning.ts). Against the
// emulator's thinking models, which refuse a follow-up that lost it: the reasoning is put back by call id, on the
// assistant message of its calls, and only for the relay it came from.

const LOOKUP: FunctionToolDefinition = { type: "function", name: "lookup", description: "Looks something up.", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: false };

describe("reasoning carried across VS Code's chat requests (thinking models over Chat Completions)", () => {
  let emulator: RelayEmulator;
  let client: RelayClient;
  before(async () => {
    emulator = await startRelayEmulator({ profile: "split" });
    client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, idleTimeoutMs: 5000, errorGraceMs: 300 });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  for (const model of ["deepseek-reasoner", "kimi-k2-thinking"]) {
    it(`${model}: the follow-up VS Code sends (question, call, result) reaches the answer with the reasoning put back`, async () => {
      const carried = new CarriedReasoning();
      const question = userMessage("please use a tool");
      const first = await client.send(buildResponseRequest({ model, input: [question], tools: [LOOKUP], stream: true }), { protocol: "chat" });
      assert.equal(first.outcome.kind, "completed");
      carried.remember("relay-a", first.snapshot.output);
      const [call] = functionCallsOf(first.snapshot.output);
      assert.ok(call, "a proposed call");
      // What VS Code hands back: no reasoning.
      const asVsCodeSends: InputItem[] = [question, { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments }, { type: "function_call_output", call_id: call.call_id, output: "sunny" }];

      const without = await client.send(buildResponseRequest({ model, input: asVsCodeSends, tools: [LOOKUP], stream: true }), { protocol: "chat" });
      assert.equal(without.httpStatus, 400, "the relay refuses it as it came from VS Code");
      const otherRelay = await client.send(buildResponseRequest({ model, input: carried.restore("relay-b", asVsCodeSends), tools: [LOOKUP], stream: true }), { protocol: "chat" });
      assert.equal(otherRelay.httpStatus, 400, "another relay's call ids do not pick it up");

      const followUp = await client.send(buildResponseRequest({ model, input: carried.restore("relay-a", asVsCodeSends), tools: [LOOKUP], stream: true }), { protocol: "chat" });
      assert.equal(followUp.outcome.kind, "completed", followUp.explanation ?? "");
      const sent = emulator.received[emulator.received.length - 1]!.body as { messages: Array<{ role: string; reasoning_content?: string; tool_calls?: unknown[] }> };
      const assistant = sent.messages.find((message) => message.role === "assistant");
      assert.ok(assistant?.tool_calls?.length === 1);
      assert.match(assistant.reasoning_content ?? "", /^The user wrote "please use a tool"/);
    });
  }

  it("puts the reasoning before the answer's text, once for an answer with several calls", () => {
    const carried = new CarriedReasoning();
    const reasoning = { type: "reasoning", summary: [], chat_completions: { reasoning_content: "Two lookups." } };
    carried.remember("r", [reasoning, { type: "message", role: "assistant", content: [] }, { type: "function_call", call_id: "c1", name: "a", arguments: "{}" }, { type: "function_call", call_id: "c2", name: "a", arguments: "{}" }]);
    const text = { type: "message", role: "assistant", content: "Looking." };
    const restored = carried.restore("r", [userMessage("q"), text, { type: "function_call", call_id: "c1", name: "a", arguments: "{}" }, { type: "function_call", call_id: "c2", name: "a", arguments: "{}" }]);
    assert.deepEqual(restored.map((item) => item.type), ["message", "reasoning", "message", "function_call", "function_call"]);
    assert.equal(restored[1], reasoning);
  });
});
