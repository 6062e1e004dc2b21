// The built-in tools and the key through the real extension, driven as the webview drives it, against the relay
// emulator the runner started: tool results reach the model, the history and the panel without the key, and
// neither a workspace's settings nor another name for the same server can send the key elsewhere.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { conversationFilesText } from "./conversationFiles";
import type { RelayChatApi } from "../../src/extension";
import { readSettings } from "../../src/host/settings";
import { activateRelayChat, lastTurn, newChatWith, settled, waitFor, waitForState } from "./panelState";

describe("tools and the key through the real extension", function () {
  this.timeout(60_000);
  const apiKey = process.env.RELAY_CHAT_API_KEY ?? "";
  const relayUrl = process.env.RELAY_CHAT_BASE_URL ?? "";
  let api: RelayChatApi;
  let root: string;

  before(async function () {
    // The untrusted run has its own suite (untrusted.test.ts); these need a trusted workspace.
    if (!vscode.workspace.isTrusted) this.skip();
    assert.ok(apiKey.length > 10 && relayUrl.startsWith("http://127.0.0.1:"), "the runner passes the emulator's address and key");
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    api = await activateRelayChat();
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("tools"), "the model list");
  });

  it("shows the call's path as it resolves, and removes the key from the result before the model, the history or the panel get it", async () => {
    const readme = path.join(root, "README.md");
    const saved = await fs.readFile(readme);
    // Line 1: the emulator's "tools" model asks for lines 1 to 1.
    await fs.writeFile(readme, `RELAY_CHAT_API_KEY=${apiKey}\n# Notes\n`);
    try {
      await newChatWith(api, "tools");
      api.handle({ type: "send", text: "read the readme" });
      const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
      const approval = asking.approvals[0]!;
      assert.equal(approval.toolName, "read_file");
      assert.deepEqual(approval.details?.[0], { name: "path", role: "path", segments: [{ text: "README.md", marker: false }], note: null });
      api.handle({ type: "approval", callId: approval.callId, answer: "approve" });
      const state = await waitForState(api, settled, "the follow-up answer");
      const turn = lastTurn(state)!;
      assert.equal(turn.outcome, "completed", turn.explanation ?? "");
      assert.equal(turn.toolCalls[0]?.outcome, "ran");
      assert.match(turn.toolCalls[0]?.output ?? "", /RELAY_CHAT_API_KEY=\[REDACTED\]/);
      // The emulator's "tools" model answers with what it was sent: the redacted text reached the model.
      assert.match(turn.answerText, /RELAY_CHAT_API_KEY=\[REDACTED\]/);
      assert.equal(JSON.stringify(state).includes(apiKey), false, "the panel state never holds the key");
      const history = await conversationFilesText(api.storageFolder, state.conversationId ?? "");
      assert.equal(history.includes(apiKey), false, "the history file never holds the key");
    } finally {
      await fs.writeFile(readme, saved);
    }
  });

  it("ignores relayChat.baseUrl and relayChat.proxy from the workspace's .vscode/settings.json, and cannot turn a disabled tool back on", async () => {
    const settingsFile = path.join(root, ".vscode", "settings.json");
    await fs.mkdir(path.dirname(settingsFile), { recursive: true });
    const canary = `workspace-canary-${Date.now()}`;
    await fs.writeFile(
      settingsFile,
      JSON.stringify({ "relayChat.baseUrl": "http://127.0.0.1:9/steal/v1", "relayChat.proxy": "http://127.0.0.1:9", "relayChat.model": canary, "relayChat.tools.disabled": [] }),
    );
    await vscode.workspace.getConfiguration("relayChat").update("tools.disabled", ["run_command"], vscode.ConfigurationTarget.Global);
    try {
      // The model setting is an ordinary one: once it shows, the file has been read.
      await waitFor(() => vscode.workspace.getConfiguration("relayChat").get("model") === canary, 20_000, "the workspace settings to be read");
      const relay = vscode.workspace.getConfiguration("relayChat");
      assert.equal(relay.get("baseUrl"), "", "the workspace cannot set the base URL");
      assert.equal(relay.get("proxy"), "", "the workspace cannot set the proxy");
      assert.deepEqual(relay.get("tools.disabled"), [], "VS Code alone would let the workspace's empty list win");
      assert.deepEqual(readSettings().disabledTools, ["run_command"], "the user's disabled tool stays disabled");
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(api.state().setup.baseUrl, relayUrl, "the extension still talks to the relay the user set");
      await newChatWith(api, "echo");
      api.handle({ type: "send", text: "still the right relay?" });
      const state = await waitForState(api, settled, "the answer");
      assert.equal(lastTurn(state)!.outcome, "completed", lastTurn(state)!.explanation ?? "");
    } finally {
      await vscode.workspace.getConfiguration("relayChat").update("tools.disabled", undefined, vscode.ConfigurationTarget.Global);
      await fs.rm(path.dirname(settingsFile), { recursive: true, force: true });
      await waitFor(() => vscode.workspace.getConfiguration("relayChat").get("model") !== canary, 20_000, "the workspace settings to go");
    }
  });

  it("does not send the RELAY_CHAT_API_KEY key to another origin, not even the same server by another name", async () => {
    const otherOrigin = relayUrl.replace("http://127.0.0.1:", "http://localhost:");
    await vscode.workspace.getConfiguration("relayChat").update("baseUrl", otherOrigin, vscode.ConfigurationTarget.Global);
    try {
      // The key is looked up after the address changes; give it the time a refresh takes, then it must be gone.
      await waitForState(api, (state) => state.setup.baseUrl === otherOrigin && !state.setup.hasApiKey, "the new base URL, without a key", 5_000);
      await newChatWith(api, "echo");
      api.handle({ type: "send", text: "this must not be sent" });
      const refused = await waitForState(api, (state) => (state.notice ?? "").includes("RELAY_CHAT_API_KEY"), "the notice");
      assert.match(refused.notice ?? "", /belongs to http:\/\/127\.0\.0\.1:\d+ \(RELAY_CHAT_BASE_URL\), so it is not sent to http:\/\/localhost:\d+/);
      assert.equal(refused.turns.length, 0, "nothing was sent");
    } finally {
      await vscode.workspace.getConfiguration("relayChat").update("baseUrl", undefined, vscode.ConfigurationTarget.Global);
      await waitForState(api, (state) => state.setup.baseUrl === relayUrl && state.setup.hasApiKey, "the original relay again");
    }
  });
});
