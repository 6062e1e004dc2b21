// Issue 36 §2 in the real extension: a thinking model over Chat Completions (the emulator's deepseek-reasoner,
// test/emulator/thinkingModels.ts) streams its reasoning_content, then a tool call; after the person approves it,
// the follow-up must carry that reasoning back on the assistant tool-call message, or the relay answers DeepSeek's
// HTTP 400 and the loop never reaches its answer. Driven through the extension's API with the webview's own messages.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { conversationFilesText } from "./conversationFiles";
import { activateRelayChat, lastTurn, newChatWith, setRelaySetting, settled, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;
const MODEL = "deepseek-reasoner";

interface Received {
  method: string;
  path: string;
  body: { model?: string; messages?: Array<{ role: string; reasoning_content?: unknown; tool_calls?: unknown[] }> };
}

async function serveAlso(models: string[]): Promise<void> {
  const answer = await fetch(`${controlUrl}/models`, { method: "POST", body: JSON.stringify({ serveAlso: models }) });
  assert.equal(answer.status, 200, await answer.text());
}

describe("a thinking model's tool loop over Chat Completions (issue 36)", function () {
  this.timeout(90_000);
  let api: RelayChatApi;

  before(async function () {
    if (!controlUrl) this.skip();
    api = await activateRelayChat();
    await serveAlso([MODEL]);
    await setRelaySetting("modelSettings", [{ model: MODEL, protocol: "chat" }]);
    api.handle({ type: "refreshModels" });
    // The setting is in effect once the panel shows the model on Chat Completions: the model list the setting's
    // refresh asks for can come after another one (VS Code's chat asks for it too), and after the first send.
    await waitForState(api, (state) => state.models.includes(MODEL) && state.relayModels.some((relay) => relay.chatModels?.includes(MODEL) === true), "the thinking model in the relay's list, on Chat Completions");
  });

  after(async () => {
    if (!controlUrl) return;
    await setRelaySetting("modelSettings", undefined);
    await setRelaySetting("languageModels", undefined);
    await serveAlso([]);
  });

  it("shows the reasoning, runs the approved call, sends the reasoning back verbatim and reaches the answer", async () => {
    await newChatWith(api, MODEL);
    const before = ((await (await fetch(`${controlUrl}/received`)).json()) as Received[]).length;
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1 || settled(state), "the approval card");
    const thinking = lastTurn(asking)!;
    assert.equal(asking.approvals.length, 1, `${thinking.outcome}: ${thinking.explanation ?? ""}`);
    assert.equal(thinking.hasReasoning, true, "shown as reasoning");
    assert.match(thinking.reasoningSummaries[0] ?? "", /^The user wrote "please use a tool"/);
    api.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
    const state = await waitForState(api, settled, "the answer after the tool call");
    const turn = lastTurn(state)!;
    assert.equal(turn.outcome, "completed", turn.explanation ?? "");
    assert.match(turn.answerText, /Tool result:/);
    assert.deepEqual(turn.receipts.map((receipt) => receipt.protocol), ["chat", "chat"]);
    assert.equal(turn.reasoningSummaries.length, 2, "the reasoning of both requests");

    const posts = ((await (await fetch(`${controlUrl}/received`)).json()) as Received[]).slice(before).filter((request) => request.method === "POST");
    assert.deepEqual(posts.map((request) => request.path), ["/v1/chat/completions", "/v1/chat/completions"]);
    const sentBack = posts[1].body.messages?.find((message) => message.role === "assistant");
    assert.ok(Array.isArray(sentBack?.tool_calls) && sentBack.tool_calls.length === 1, "the assistant message with the tool call");
    assert.equal(sentBack?.reasoning_content, thinking.reasoningSummaries[0], "the streamed reasoning, verbatim");

    // Kept with the turn on disk, in the field it came in.
    const saved = await conversationFilesText(api.storageFolder, state.conversationId ?? "");
    assert.match(saved, /"chat_completions":\{"reasoning_content":"The user wrote/);
  });

  it("in VS Code's own chat (vscode.lm), carries the reasoning VS Code does not hand back, so the tool loop reaches its answer", async () => {
    // VS Code asks for the models again when Relay Chat says they changed (a per-model limit set here): the list
    // it has was read before the emulator served the thinking model.
    await setRelaySetting("languageModels", { [MODEL]: { toolCalling: true } });
    let model: vscode.LanguageModelChat | undefined;
    for (let attempt = 0; attempt < 50 && model === undefined; attempt += 1) {
      [model] = await vscode.lm.selectChatModels({ vendor: "relay-chat", id: MODEL });
      if (model === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(model, `${MODEL} is offered to VS Code's chat`);
    const tool: vscode.LanguageModelChatTool = { name: "lookup", description: "Looks something up.", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
    const question = vscode.LanguageModelChatMessage.User("please use a tool");
    const before = ((await (await fetch(`${controlUrl}/received`)).json()) as Received[]).length;
    const first = await model.sendRequest([question], { tools: [tool] });
    const parts: unknown[] = [];
    for await (const part of first.stream) parts.push(part);
    const calls = parts.filter((part): part is vscode.LanguageModelToolCallPart => part instanceof vscode.LanguageModelToolCallPart);
    assert.equal(calls.length, 1, "the model proposed a call");

    // What VS Code sends next: the question, the call, its result. No reasoning part: VS Code has none to give.
    const followUp = await model.sendRequest(
      [question, vscode.LanguageModelChatMessage.Assistant([calls[0]!]), vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0]!.callId, [new vscode.LanguageModelTextPart("sunny")])])],
      { tools: [tool] },
    );
    let answer = "";
    try {
      for await (const part of followUp.text) answer += part;
    } catch (error) {
      const all = ((await (await fetch(`${controlUrl}/received`)).json()) as Received[]).slice(before).filter((request) => request.method === "POST");
      throw new Error(`${(error as Error).message} ${JSON.stringify(all.map((request) => [request.path, request.body]))}`);
    }
    assert.match(answer, /Tool result: sunny/);

    const posts = ((await (await fetch(`${controlUrl}/received`)).json()) as Received[]).slice(before).filter((request) => request.method === "POST");
    assert.deepEqual(posts.map((request) => request.path), ["/v1/chat/completions", "/v1/chat/completions"]);
    const sentBack = posts[1]!.body.messages?.find((message) => message.role === "assistant");
    assert.ok(Array.isArray(sentBack?.tool_calls) && sentBack.tool_calls.length === 1, "the assistant message with the tool call");
    assert.match(String(sentBack?.reasoning_content), /^The user wrote "please use a tool"/, "the streamed reasoning, back on its message");
  });
});
