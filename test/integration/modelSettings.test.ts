// A model's own settings through the real extension in a real extension host: an entry of relayChat.modelSettings
// in the User settings (as Model settings… saves it, through saveModelSettings) changes what the next message
// sends, as the emulator records it: reasoning effort, temperature, the model's output cap, no tools and the
// model's instructions; the receipt says what was sent; Reset (the same writer) puts everything back.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { saveModelSettings } from "../../src/host/models/modelSettingsWriter";
import { activateRelayChat, lastTurn, newChatWith, setRelaySetting, settled, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;

interface SentBody {
  instructions?: string;
  reasoning?: { effort?: string };
  temperature?: number;
  max_output_tokens?: number;
  tools?: unknown[];
}

async function lastBody(): Promise<SentBody> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: SentBody }>;
  const posts = received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
  return posts[posts.length - 1]?.body ?? {};
}

describe("model settings, in the extension host", function () {
  this.timeout(90_000);
  let api: RelayChatApi;

  before(async function () {
    // Tools are offered in full only in a trusted workspace; the untrusted run checks what it sends elsewhere.
    if (!controlUrl || !vscode.workspace.isTrusted) this.skip();
    api = await activateRelayChat();
  });

  after(async () => {
    await vscode.workspace.getConfiguration("relayChat").update("modelSettings", undefined, vscode.ConfigurationTarget.Global);
  });

  it("sends what a saved entry sets for the relay and model, says it on the receipt, and stops after Reset", async () => {
    await newChatWith(api, "reasoning");
    const relay = api.state().relay;
    assert.ok(relay, "a relay is active");
    await setRelaySetting("modelSettings", [
      { relay, model: "reasoning", reasoningEffort: "low", temperature: 0.3, maxOutputTokens: 3000, sendTools: false, instructions: "Model rule from the in-host test." },
      { relay: "Some other relay", model: "reasoning", temperature: 1.5 },
    ]);
    api.handle({ type: "send", text: "hello with settings" });
    const state = await waitForState(api, settled, "the answer");
    const sent = await lastBody();
    assert.deepEqual(sent.reasoning, { effort: "low" });
    assert.equal(sent.temperature, 0.3);
    assert.equal(sent.max_output_tokens, 3000);
    assert.equal(sent.tools, undefined, "no tools for a model set to get none");
    assert.ok(sent.instructions?.includes("Model rule from the in-host test."), "the model's instructions go with it");
    assert.deepEqual(lastTurn(state)?.receipts[0].sentWith, { reasoningEffort: "low", temperature: 0.3, maxOutputTokens: 3000, noTools: true });
    // What the Model Is Told shows the model's instructions as a source of their own, with its tokens.
    await vscode.commands.executeCommand("relayChat.showInstructions");
    const shown = vscode.window.activeTextEditor?.document.getText() ?? "";
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    assert.match(shown, /\| relayChat\.modelSettings: reasoning \| \d+ \|/);
    // (Not the whole text: another suite's rules files may still be being read again after it removed them.)
    assert.ok(shown.includes("The person's instructions for this model:\nModel rule from the in-host test."), "the command shows the model's part as it was sent");

    // Reset, as Model settings… does it: every field of this relay's entry removed.
    const before = (await (await fetch(`${controlUrl}/received`)).json()) as unknown[];
    await saveModelSettings(relay!, "reasoning", { reasoningEffort: undefined, temperature: undefined, maxOutputTokens: undefined, sendTools: undefined, instructions: undefined, protocol: undefined });
    assert.deepEqual(vscode.workspace.getConfiguration("relayChat").inspect("modelSettings")?.globalValue, [{ relay: "Some other relay", model: "reasoning", temperature: 1.5 }], "only this relay's entry went");
    // The extension re-reads its settings (and lists the models again) after the change.
    for (let waited = 0; ((await (await fetch(`${controlUrl}/received`)).json()) as unknown[]).length === before.length && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    api.handle({ type: "send", text: "hello without settings" });
    await waitForState(api, (next) => settled(next) && next.turns.length === 2, "the second answer");
    const plain = await lastBody();
    assert.equal(plain.reasoning, undefined);
    assert.equal(plain.temperature, undefined);
    assert.ok(Array.isArray(plain.tools) && plain.tools.length > 0, "tools again");
    assert.equal(plain.instructions?.includes("Model rule from the in-host test."), false);
  });
});
