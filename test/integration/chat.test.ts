// Full chat turns through the real extension in a real extension host, against the relay emulator the
// runner started. The test drives the chat controller through the extension's API, which takes the same
// typed messages the webview sends, and reads the same state the webview renders.
import * as assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { conversationFilesText } from "./conversationFiles";
import type { RelayChatApi } from "../../src/extension";
import type { PanelState, TurnView } from "../../src/panel/protocol";

import { setRelaySetting, lastTurn, settled, waitForState } from "./panelState";

const extensionId = "relay-chat.relay-chat";
const apiKey = process.env.RELAY_CHAT_API_KEY ?? "";


async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(path.join(folder, entry.name)) : Promise.resolve([path.join(folder, entry.name)]))));
  return nested.flat();
}

describe("chat through the real extension", function () {
  this.timeout(60_000);
  let api: RelayChatApi;

  before(async () => {
    assert.ok(apiKey.length > 10, "the runner passes the emulator key through RELAY_CHAT_API_KEY");
    api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
    await vscode.commands.executeCommand("relayChat.focusChat");
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("echo"), "the model list from the relay");
  });

  beforeEach(async () => {
    api.handle({ type: "selectModel", model: "echo" });
    api.handle({ type: "newChat" });
    await waitForState(api, (state) => state.turns.length === 0 && !state.busy, "a new chat");
  });

  it("streams a completed answer with usage and the relay's request id", async () => {
    api.handle({ type: "send", text: "hello from the extension host" });
    const state = await waitForState(api, settled, "the answer");
    const turn = lastTurn(state)!;
    assert.equal(turn.outcome, "completed", turn.explanation ?? "");
    assert.match(turn.answerText, /hello from the extension host/);
    assert.equal(turn.receipts.length, 1);
    assert.match(turn.receipts[0].requestId ?? "", /^req_/);
    assert.ok((turn.receipts[0].usage?.inputTokens ?? 0) > 0);
    // The history list is read again after the save, a moment after the answer settles.
    await waitForState(api, (now) => now.conversations.some((entry) => entry.id === now.conversationId), "saved and listed");
    assert.equal(state.totals?.requests, 1, "the conversation's totals count the request");
    assert.ok((state.totals?.inputTokens ?? 0) > 0);
  });

  it("sends a model set to Chat Completions in relayChat.modelSettings over /v1/chat/completions, its receipt saying so (issue 29)", async () => {
    await setRelaySetting("modelSettings", [{ model: "echo", protocol: "chat" }]);
    try {
      api.handle({ type: "send", text: "over chat completions" });
      const state = await waitForState(api, settled, "the answer over Chat Completions");
      const turn = lastTurn(state)!;
      assert.equal(turn.outcome, "completed", turn.explanation ?? "");
      assert.match(turn.answerText, /over chat completions/);
      assert.equal(turn.receipts[0].protocol, "chat");
      assert.ok((turn.receipts[0].usage?.inputTokens ?? 0) > 0, "usage read from the include_usage chunk");
      assert.match(turn.receipts[0].requestId ?? "", /^req_/);
    } finally {
      await setRelaySetting("modelSettings", undefined);
    }
  });

  it("resends the history on the next turn and keeps the conversation on disk", async () => {
    api.handle({ type: "send", text: "first message" });
    await waitForState(api, settled, "the first answer");
    api.handle({ type: "send", text: "second message" });
    const state = await waitForState(api, (current) => settled(current) && current.turns.length === 2, "the second answer");
    assert.equal(lastTurn(state)!.outcome, "completed");
    const saved = await conversationFilesText(api.storageFolder, state.conversationId ?? "");
    assert.match(saved, /first message/);
    assert.match(saved, /second message/);
  });

  it("asks before running a tool, runs it after approval and sends the follow-up", async () => {
    api.handle({ type: "selectModel", model: "tools" });
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    const approval = asking.approvals[0];
    assert.ok(approval.toolName.length > 0);
    assert.ok(["read", "write", "execute"].includes(approval.risk));
    assert.equal(lastTurn(asking)!.receipts.length, 1, "nothing runs and nothing more is sent before the answer");
    api.handle({ type: "approval", callId: approval.callId, answer: "approve" });
    const state = await waitForState(api, settled, "the follow-up answer");
    const turn = lastTurn(state)!;
    assert.equal(turn.outcome, "completed", turn.explanation ?? "");
    assert.equal(turn.receipts.length, 2, "the follow-up is its own request with its own receipt");
    assert.equal(turn.toolCalls.length, 1);
    assert.doesNotMatch(turn.toolCalls[0].output, /declined/i);
    assert.match(turn.answerText, /Tool result:/);
  });

  it("tells the model when the user denies a tool call, and runs nothing", async () => {
    api.handle({ type: "selectModel", model: "tools" });
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    api.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "deny" });
    const state = await waitForState(api, settled, "the answer after the denial");
    assert.match(lastTurn(state)!.toolCalls[0].output, /declined/i);
  });

  it("marks an answer cut by the output budget as incomplete and offers Continue and Retry", async () => {
    await setRelaySetting("maxOutputTokens", 16);
    try {
      const turnsBefore = api.state().turns.length;
      api.handle({ type: "send", text: "word ".repeat(60) });
      // The turn before it is settled too: wait for this one.
      const state = await waitForState(api, (current) => settled(current) && current.turns.length > turnsBefore, "the incomplete answer");
      const turn = lastTurn(state)!;
      assert.equal(turn.outcome, "incomplete");
      assert.deepEqual(turn.actions, ["continue", "retry"]);
      assert.ok(turn.answerText.length > 0, "the partial text is shown");
    } finally {
      await vscode.workspace.getConfiguration("relayChat").update("maxOutputTokens", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("stops a long answer on Stop and records it as cancelled, keeping the partial text", async () => {
    // The demo model streams at a readable pace, so Stop lands mid-answer.
    api.handle({ type: "selectModel", model: "demo" });
    api.handle({ type: "send", text: "write something long" });
    await waitForState(api, (state) => (lastTurn(state)?.answerText.length ?? 0) > 20, "the first streamed text");
    api.handle({ type: "stop" });
    const state = await waitForState(api, settled, "the stopped turn");
    const turn = lastTurn(state)!;
    assert.equal(turn.outcome, "cancelled");
    assert.ok(turn.answerText.length > 20, "the text received before Stop stays visible");
    assert.deepEqual(turn.actions, ["retry"]);
  });

  it("never writes the key to settings, history, the request log or the output log", async () => {
    api.handle({ type: "send", text: "one more for the ledger" });
    await waitForState(api, settled, "the answer");
    const needle = Buffer.from(apiKey, "utf8");
    const storageFiles = await filesUnder(api.storageFolder);
    assert.ok(storageFiles.some((file) => file.endsWith("ledger.jsonl")), "the ledger was written");
    const settings = JSON.stringify(vscode.workspace.getConfiguration().inspect("relayChat"));
    assert.equal(settings.includes(apiKey), false, "settings");
    for (const file of storageFiles) {
      const bytes = await fs.readFile(file);
      assert.equal(bytes.includes(needle), false, `key bytes in ${file}`);
    }
    // The Output channel's log file is in the extension host's log folder, beside this extension's own.
    const logFiles = await filesUnder(path.dirname(api.logFolder));
    const relayLogs: string[] = [];
    for (const file of logFiles) {
      const text = await fs.readFile(file, "utf8").catch(() => "");
      assert.equal(text.includes(apiKey), false, `key in the log ${file}`);
      if (/request req_/.test(text)) relayLogs.push(file);
    }
    assert.ok(relayLogs.length > 0, `the Relay Chat output log was found among ${logFiles.length} log files`);
  });
});
