import assert from "node:assert/strict";
import { FileStorage } from "../../src/chat/fileStorage";
import { RequestLedger } from "../../src/chat/requestLedger";
import type { PanelState } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// The panel against a relay whose models split between the wires (the emulator's split profile): a model set to
// Chat Completions in relayChat.modelSettings (by the person, or confirmed after a refusal) is sent there, with
// tools, approval, cost and history exactly as on the Responses interface; the conversation moves between the two.
// A relay's model list never moves a model: new-api lists "openai" for models whose /v1/responses works.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";
const price = { currency: "USD", inputPerMillion: 1, cachedInputPerMillion: 0.5, outputPerMillion: 2, source: "setting" as const };

describe("panel: models on Chat Completions", () => {
  let harness: PanelHostHarness;
  afterEach(async () => harness?.close());

  const posts = () => harness.emulator.received.filter((request) => request.method === "POST");

  it("sends a model set to chat over /v1/chat/completions: a tool call after approval, the receipt says Chat Completions, the cost is shown", async () => {
    harness = await startPanelHostHarness({
      emulator: { profile: "split" },
      settings: { model: "claude-chat", modelSettings: [{ relay: "emulator", model: "claude-chat", protocol: "chat" }] },
      priceOf: () => price,
    });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval");
    assert.equal(asking.approvals[0].toolName, "get_weather");
    controller.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
    const state = await harness.waitFor(settled, "the answer after the tool");
    const turn = lastTurn(state);
    assert.equal(turn.outcome, "completed");
    assert.match(turn.answerText, /Tool result: Sunny in Paris/);
    assert.deepEqual(posts().map((request) => request.path), ["/v1/chat/completions", "/v1/chat/completions"]);
    const followUp = posts()[1].body as { messages: Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }> };
    const call = followUp.messages.find((message) => message.tool_calls)?.tool_calls?.[0];
    assert.ok(call && followUp.messages.some((message) => message.role === "tool" && message.tool_call_id === call.id), "the result goes back under the call's id");
    assert.deepEqual(turn.receipts.map((receipt) => receipt.protocol), ["chat", "chat"]);
    assert.ok(turn.receipts.every((receipt) => receipt.cost && receipt.cost.amount > 0 && receipt.usage !== null), "usage and cost on every receipt");
    controller.handle({ type: "copyCurl", turnId: turn.id, receiptIndex: 1 });
    const deadline = Date.now() + 5000;
    while (harness.editor.clipboard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.match(harness.editor.clipboard[0], /\/v1\/chat\/completions'/);
    assert.match(harness.editor.clipboard[0], /"tool_call_id"/);
  });

  it("a cut Chat Completions stream is an interruption with its text kept, and every request is in the ledger with its request id", async () => {
    harness = await startPanelHostHarness({ emulator: { profile: "split" }, settings: { model: "qwen-chat", modelSettings: [{ model: "qwen-chat", protocol: "chat" }] } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "a first answer" });
    await harness.waitFor(settled, "the first answer");
    harness.emulator.queueFault({ kind: "disconnect", afterBytes: 500 });
    controller.handle({ type: "send", text: "one two three four five six seven eight nine ten eleven twelve" });
    const state = await harness.waitFor((candidate) => candidate.turns.length === 2 && settled(candidate), "the cut answer");
    const cut = lastTurn(state);
    assert.equal(cut.outcome, "interrupted");
    assert.match(cut.answerText, /^You said:/);
    assert.deepEqual(cut.actions, ["retry"], "Retry is the person's choice; no switch is offered on Chat Completions itself");
    const rows = await new RequestLedger(new FileStorage(harness.folder)).rows();
    const sent = posts().map((request) => request.requestId);
    assert.deepEqual(rows.map((row) => row.requestId).filter((id) => id !== null && sent.includes(id)).length, 2, JSON.stringify(rows));
  });

  it("sends a model the person set to chat over Chat Completions, the others over Responses, and the conversation moves between the wires with its history", async () => {
    harness = await startPanelHostHarness({ emulator: { profile: "split" }, settings: { model: "echo", modelSettings: [{ relay: "emulator", model: "qwen-chat", protocol: "chat" }] } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "refreshModels" });
    await harness.waitFor((state) => state.relayModels[0]?.models.length > 0, "the model list");
    assert.deepEqual(harness.controller.state().relayModels[0].chatModels, ["qwen-chat"], "the picker names the model set to chat, and only it (the list shows the others like it)");
    controller.handle({ type: "send", text: "first on responses" });
    await harness.waitFor(settled, "the first answer");
    controller.handle({ type: "selectModel", model: "qwen-chat" });
    await harness.waitFor((state) => state.model === "qwen-chat", "the picked model");
    controller.handle({ type: "send", text: "second on chat" });
    await harness.waitFor((state) => state.turns.length === 2 && settled(state), "the second answer");
    controller.handle({ type: "selectModel", model: "echo" });
    await harness.waitFor((state) => state.model === "echo", "back to echo");
    controller.handle({ type: "send", text: "third on responses" });
    const state = await harness.waitFor((candidate) => candidate.turns.length === 3 && settled(candidate), "the third answer");
    assert.deepEqual(state.turns.map((turn) => turn.outcome), ["completed", "completed", "completed"]);
    assert.deepEqual(posts().map((request) => request.path), ["/v1/responses", "/v1/chat/completions", "/v1/responses"]);
    const chatBody = posts()[1].body as { messages: Array<{ role: string; content: unknown }> };
    assert.deepEqual(chatBody.messages.filter((message) => message.role !== "system").map((message) => [message.role, message.content]), [
      ["user", "first on responses"],
      ["assistant", "You said: first on responses"],
      ["user", "second on chat"],
    ]);
    const responsesBody = posts()[2].body as { input: Array<{ role?: string; type?: string }> };
    assert.deepEqual(responsesBody.input.map((item) => item.role), ["user", "assistant", "user", "assistant", "user"], "the chat turn's answer is in the Responses history");
    assert.equal(lastTurn(state).receipts[0].protocol, undefined);
    assert.equal(state.turns[1].receipts[0].protocol, "chat");
  });
});

describe("panel: what a new-api model list says about the wire", () => {
  let harness: PanelHostHarness;
  afterEach(async () => harness?.close());

  const posts = () => harness.emulator.received.filter((request) => request.method === "POST");

  // new-api (common/endpoint_type.go GetEndpointTypesByChannelType): ["openai"] for a default channel's model (its
  // /v1/responses works), ["openai-response"] for a Responses-only model, an Anthropic channel's type plus "openai";
  // one-api lists none. None of them moves a model to Chat Completions: only the person's setting does.
  const lists: Array<{ name: string; emulator: { profile: "new-api"; endpointTypes?: Record<string, string[]>; listsEndpointTypes?: boolean } }> = [
    { name: '["openai"]', emulator: { profile: "new-api" } },
    { name: '["openai-response"]', emulator: { profile: "new-api", endpointTypes: { echo: ["openai-response"] } } },
    { name: '["anthropic", "openai"]', emulator: { profile: "new-api", endpointTypes: { echo: ["anthropic", "openai"] } } },
    { name: "no supported_endpoint_types", emulator: { profile: "new-api", listsEndpointTypes: false } },
  ];
  const settings: Array<{ name: string; protocol?: "chat" | "responses"; path: string }> = [
    { name: "no setting", path: "/v1/responses" },
    { name: 'the person\'s "chat"', protocol: "chat", path: "/v1/chat/completions" },
    { name: 'the person\'s "responses"', protocol: "responses", path: "/v1/responses" },
  ];
  for (const list of lists) {
    for (const setting of settings) {
      it(`listed ${list.name}, ${setting.name}: ${setting.path}`, async () => {
        harness = await startPanelHostHarness({
          emulator: list.emulator,
          settings: { model: "echo", ...(setting.protocol ? { modelSettings: [{ relay: "emulator", model: "echo", protocol: setting.protocol }] } : {}) },
        });
        const { controller } = harness;
        controller.handle({ type: "ready" });
        controller.handle({ type: "refreshModels" });
        const listed = await harness.waitFor((state) => state.relayModels[0]?.models.includes("echo") === true, "the model list");
        assert.deepEqual(listed.relayModels[0].chatModels ?? [], setting.protocol === "chat" ? ["echo"] : [], "what the picker says goes over Chat Completions");
        controller.handle({ type: "send", text: "which wire?" });
        const state = await harness.waitFor(settled, "the answer");
        assert.equal(lastTurn(state).outcome, "completed");
        assert.deepEqual(posts().map((request) => request.path), [setting.path]);
        assert.equal(lastTurn(state).receipts[0].protocol, setting.protocol === "chat" ? "chat" : undefined, "the receipt says the wire used");
      });
    }
  }
});

describe("panel: the offer to use Chat Completions after a refusal", () => {
  let harness: PanelHostHarness;
  afterEach(async () => harness?.close());

  it("a message the relay refuses as 'no Responses here' offers Use Chat Completions; one click saves it and sends once, over Chat Completions", async () => {
    const saved: string[] = [];
    harness = await startPanelHostHarness({
      emulator: { profile: "split", listsEndpointTypes: false },
      settings: { model: "gemini-chat" },
      events: { saveModelProtocol: async (relay, model, protocol) => void saved.push(`${relay}/${model}/${protocol}`) },
    });
    const { controller } = harness;
    const posts = () => harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.path);
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "hello" });
    const failed = await harness.waitFor(settled, "the refused message");
    assert.equal(lastTurn(failed).outcome, "http_error");
    assert.deepEqual(lastTurn(failed).actions, ["useChatCompletions", "retry"]);
    assert.deepEqual(posts(), ["/v1/responses"], "nothing was sent again on its own");
    controller.handle({ type: "useChatCompletions", turnId: lastTurn(failed).id });
    const answered = await harness.waitFor((state) => settled(state) && lastTurn(state).outcome === "completed", "the answer over Chat Completions");
    assert.deepEqual(saved, ["emulator/gemini-chat/chat"]);
    assert.deepEqual(posts(), ["/v1/responses", "/v1/chat/completions"], "one new request, the one the person asked for");
    assert.match(lastTurn(answered).answerText, /You said: hello/);
    assert.equal(lastTurn(answered).receipts[0].protocol, "chat");
    controller.handle({ type: "send", text: "and again" });
    await harness.waitFor((state) => state.turns.length === 2 && settled(state), "the next message");
    assert.equal(posts().at(-1), "/v1/chat/completions", "the choice holds for the next message");
    // Model settings… forces Responses: the saved setting, read again, wins over what was confirmed in this panel.
    harness.settings.modelSettings = [{ relay: "emulator", model: "gemini-chat", protocol: "responses" }];
    controller.handle({ type: "send", text: "over responses now" });
    await harness.waitFor((state) => state.turns.length === 3 && settled(state), "the message after forcing Responses");
    assert.equal(posts().at(-1), "/v1/responses", "the person's later choice takes effect");
  });

  it("carries the check-up's finding while it waits: its button runs the confirmation, and it goes once confirmed", async () => {
    let finding: { relay: string; model: string } | null = { relay: "emulator", model: "deepseek-chat" };
    harness = await startPanelHostHarness({ emulator: { profile: "split" }, events: { chatCompletionsFinding: () => finding } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    await harness.waitFor((state) => state.chatCompletionsOffer?.model === "deepseek-chat", "the offer");
    controller.handle({ type: "fix", action: "confirmChatCompletions" });
    await harness.waitFor(() => harness.editor.fixesRun.length === 1, "the confirmation");
    assert.deepEqual(harness.editor.fixesRun, [{ action: "confirmChatCompletions" }]);
    finding = null;
    controller.fieldsChanged();
    await harness.waitFor((state) => state.chatCompletionsOffer === null, "the offer gone");
    assert.deepEqual(harness.emulator.received.filter((request) => request.method === "POST"), [], "nothing sent");
  });

  it("any other failure (here a 400 about a parameter) offers no switch", async () => {
    harness = await startPanelHostHarness({ emulator: { profile: "split" }, settings: { model: "echo" } });
    const { controller } = harness;
    harness.emulator.queueFault({ kind: "status", status: 400, code: "invalid_request", message: "Unsupported parameter: 'reasoning.effort' is not supported with this model." });
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "hello" });
    const failed = await harness.waitFor(settled, "the failed message");
    assert.deepEqual(lastTurn(failed).actions, ["retry"]);
  });
});
