// Tools of another extension (test/integration/lmToolExtension, loaded beside Relay Chat) in Relay Chat's
// panel: offered only when chosen, validated against their own schema, shown on the approval card, run
// through vscode.lm.invokeTool after Approve only, not after Deny, and cancelled by Stop. The emulator's
// "tools" model calls the first tool it is offered, so the built-in tools are turned off here.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import type { PanelState, TurnView } from "../../src/panel/protocol";

import { setRelaySetting, lastTurn, settled, waitForState } from "./panelState";

const extensionId = "relay-chat.relay-chat";
const toolExtensionId = "relay-chat-test.relay-chat-test-tools";
const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;
const builtinTools = ["read_file", "list_directory", "find_files", "search_text", "get_diagnostics", "get_editor_context", "get_changes", "get_terminal_output", "propose_edit", "run_command", "update_tasks"];

interface ToolExtensionApi {
  invocations: Array<{ tool: string; input: unknown; cancelled?: boolean }>;
}


async function offeredToolNames(): Promise<string[]> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; body: { tools?: Array<{ name: string }> } }>;
  const last = received.filter((request) => request.method === "POST").pop();
  return (last?.body.tools ?? []).map((tool) => tool.name);
}

(controlUrl ? describe : describe.skip)("tools from other extensions in the panel", function () {
  this.timeout(60_000);
  let api: RelayChatApi;
  let toolExtension: ToolExtensionApi;
  const config = () => vscode.workspace.getConfiguration("relayChat");

  async function useExternalTools(enabled: string[], allowForSession: string[] = []): Promise<void> {
    // Each settings change rebuilds the connection; wait for the extension to have read each before sending.
    await setRelaySetting("externalTools.enabled", enabled);
    await setRelaySetting("externalTools.allowForSession", allowForSession);
    api.handle({ type: "newChat" });
    await waitForState(api, (state) => state.turns.length === 0 && !state.busy, "a new chat");
  }

  before(async () => {
    const extension = vscode.extensions.getExtension<ToolExtensionApi>(toolExtensionId);
    assert.ok(extension, `the test tool extension is loaded beside Relay Chat (${vscode.extensions.all.map((each) => each.id).join(", ")})`);
    toolExtension = await extension.activate();
    api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
    await config().update("tools.disabled", builtinTools, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("relayChat.focusChat");
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("tools"), "the model list");
  });

  beforeEach(() => {
    api.handle({ type: "selectModel", model: "tools" });
  });

  after(async () => {
    for (const key of ["tools.disabled", "externalTools.enabled", "externalTools.allowForSession"]) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it("sees the other extension's tools in vscode.lm.tools (harness check)", () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    for (const name of ["relay-chat-test_record_note", "relay-chat-test_digits_only", "relay-chat-test_wait_for_cancel"]) assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
  });

  it("offers no external tool until one is chosen", async () => {
    await useExternalTools([]);
    api.handle({ type: "send", text: "please use a tool" });
    const state = await waitForState(api, settled, "the answer");
    assert.match(lastTurn(state)!.answerText, /No tools were offered/);
    assert.deepEqual(await offeredToolNames(), []);
  });

  it("asks on the approval card, runs the tool through VS Code after Approve, and sends its result", async () => {
    await useExternalTools(["relay-chat-test_record_note"]);
    const before = toolExtension.invocations.length;
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    assert.deepEqual(await offeredToolNames(), ["relay-chat-test_record_note"]);
    const approval = asking.approvals[0];
    assert.equal(approval.toolName, "relay-chat-test_record_note");
    assert.match(approval.toolDescription, /^External tool "relay-chat-test_record_note"/);
    assert.equal(approval.canAllowForSession, false, "an external tool always asks unless the user opted in");
    assert.deepEqual(JSON.parse(approval.argumentsJson), { note: "example" });
    assert.equal(toolExtension.invocations.length, before, "nothing ran before the answer");

    api.handle({ type: "approval", callId: approval.callId, answer: "approve" });
    const state = await waitForState(api, settled, "the follow-up answer");
    const turn = lastTurn(state)!;
    assert.equal(turn.outcome, "completed", turn.explanation ?? "");
    assert.deepEqual(toolExtension.invocations.slice(before), [{ tool: "record_note", input: { note: "example" } }]);
    assert.equal(turn.toolCalls[0].output, "noted: example");
    assert.match(turn.answerText, /Tool result: noted: example/);
  });

  it("does not run the tool after Deny, and tells the model", async () => {
    await useExternalTools(["relay-chat-test_record_note"]);
    const before = toolExtension.invocations.length;
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    api.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "deny" });
    const state = await waitForState(api, settled, "the answer after the denial");
    assert.equal(toolExtension.invocations.length, before, "the tool did not run");
    assert.match(lastTurn(state)!.toolCalls[0].output, /declined/);
  });

  it("refuses arguments against the tool's own schema before anyone is asked", async () => {
    await useExternalTools(["relay-chat-test_digits_only"]);
    const before = toolExtension.invocations.length;
    api.handle({ type: "send", text: "please use a tool" });
    const state = await waitForState(api, settled, "the answer to the refused call");
    const call = lastTurn(state)!.toolCalls[0];
    assert.equal(call.status, "rejected");
    assert.match(call.output, /invalid arguments/i);
    assert.match(call.output, /pattern/);
    assert.equal(toolExtension.invocations.length, before, "the tool did not run");
  });

  it("offers 'allow for this session' only for a tool the user opted in, then runs it without asking", async () => {
    await useExternalTools(["relay-chat-test_record_note"], ["relay-chat-test_record_note"]);
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    assert.equal(asking.approvals[0].canAllowForSession, true);
    api.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "allow_session" });
    await waitForState(api, settled, "the first answer");
    const before = toolExtension.invocations.length;
    api.handle({ type: "send", text: "please use a tool again" });
    const state = await waitForState(api, (current) => settled(current) && current.turns.length === 2, "the second answer, without a card");
    assert.equal(lastTurn(state)!.outcome, "completed");
    assert.equal(toolExtension.invocations.length, before + 1, "ran without asking");
  });

  it("cancels a running external tool when the user stops the turn", async () => {
    await useExternalTools(["relay-chat-test_wait_for_cancel"]);
    api.handle({ type: "send", text: "please use a tool" });
    const asking = await waitForState(api, (state) => state.approvals.length === 1, "the approval card");
    const before = toolExtension.invocations.length;
    api.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
    const deadline = Date.now() + 10_000;
    while (toolExtension.invocations.length === before) {
      if (Date.now() > deadline) throw new Error("the tool never started");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    api.handle({ type: "stop" });
    const state = await waitForState(api, settled, "the stopped turn");
    assert.equal(lastTurn(state)!.outcome, "cancelled");
    const invocation = toolExtension.invocations[before];
    await waitForState(api, () => invocation.cancelled === true, "the cancel to reach the tool", 5_000);
  });
});
