// The approval card and the tool card in real Chromium: what runs is shown as it runs (plain text, stored
// order, hidden characters marked), and a tool card never says "ran" for a call that did not run.
import assert from "node:assert/strict";
import type { ApprovalView, ToolCallView } from "../../src/panel/protocol";
import { conversationState, panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

const command = 'grep -rn "TODO" src | head\necho done';

const commandApproval: ApprovalView = {
  callId: "call_run",
  toolName: "run_command",
  toolDescription: "Run a shell command line in the workspace.",
  risk: "execute",
  argumentsJson: JSON.stringify({ command }, null, 2),
  canAllowForSession: false,
  details: [
    { name: "command", role: "command", segments: [{ text: command, marker: false }], note: null },
    { name: "cwd", role: "folder", segments: [{ text: ".", marker: false }], note: "default" },
  ],
  hiddenCharacters: [],
};

const hiddenApproval: ApprovalView = {
  callId: "call_hidden",
  toolName: "read_file",
  toolDescription: "Read a text file from the workspace.",
  risk: "read",
  argumentsJson: '{\n  "path": "docs/\u202Etxt.exe"\n}',
  // The host would not offer it; the card must not either, whatever the flag says.
  canAllowForSession: true,
  details: [{ name: "path", role: "path", segments: [{ text: "docs/", marker: false }, { text: "⟨U+202E⟩", marker: true }, { text: "txt.exe", marker: false }], note: null }],
  hiddenCharacters: [{ codePoint: "U+202E", kind: "bidirectional" }],
};

function call(outcome: ToolCallView["outcome"], output: string, outcomeDetail: string | null = null): ToolCallView {
  return { callId: `call_${outcome}`, name: "run_command", argumentsJson: "{}", status: outcome === "invalid_arguments" || outcome === "unavailable" ? "rejected" : "ready", output, outcome, outcomeDetail };
}

describe("Chat panel webview: tool and approval cards (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("shows the command line as plain text and the working folder, with the raw JSON tucked away", async () => {
    await panel.sendState(panelState({ busy: true, approvals: [commandApproval] }));
    const card = panel.page.locator(".approval-card");
    const shown = card.locator('pre[data-argument="command"]');
    assert.equal(await shown.textContent(), command, "exactly the command, not JSON-escaped");
    assert.equal(await shown.locator("bdo[dir=ltr]").count(), 1, "laid out in stored order");
    assert.match((await card.textContent()) ?? "", /Command line.*Working folder.*\..*Not given: the workspace folder\./s);
    assert.equal(await card.locator("details.approval-json").getAttribute("open"), null, "the JSON is collapsed");
    for (const name of ["Approve", "Deny"]) assert.equal(await card.getByRole("button", { name, exact: true }).count(), 1);
  });

  it("marks hidden characters, warns, and offers no Allow for this session", async () => {
    await panel.sendState(panelState({ busy: true, approvals: [hiddenApproval] }));
    const card = panel.page.locator(".approval-card");
    assert.equal(await card.locator("mark.hidden-character").textContent(), "⟨U+202E⟩");
    assert.equal(await card.locator('pre[data-argument="path"]').textContent(), "docs/⟨U+202E⟩txt.exe");
    assert.match((await card.getByRole("alert").textContent()) ?? "", /Hidden characters.*U\+202E \(bidirectional control\).*cannot be allowed for the session/s);
    assert.equal(await card.getByRole("button", { name: "Allow for this session" }).count(), 0);
    assert.equal(await card.getByRole("button", { name: "Approve", exact: true }).count(), 1);
  });

  it("says what happened to each call and never says ran for one that did not run", async () => {
    const calls = [
      call("ran", "Exit code: 0"),
      call("denied", "The user declined to run it."),
      call("failed", "Error: Timed out after 60 s", "Timed out after 60 s"),
      call("invalid_arguments", "Error: invalid arguments", 'property "command" must be of type string'),
      call("stopped", "cancelled before it ran"),
    ];
    await panel.sendState({ ...conversationState(), turns: [turn("turn_tools", { toolCalls: calls })] });
    const statuses = await panel.page.locator(".tool-card .tool-status").allTextContents();
    assert.deepEqual(statuses, ["ran", "denied", "failed", "not run: invalid arguments", "not run: stopped"]);
    const details = await panel.page.locator(".tool-card .tool-outcome-detail").allTextContents();
    assert.deepEqual(details, ["Timed out after 60 s", 'property "command" must be of type string']);
  });
});
