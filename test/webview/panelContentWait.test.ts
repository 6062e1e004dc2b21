// Issue 36 §4 in the page: a running turn whose request has waited long for content says for how long in its
// "Working…" line (the host measures it, src/panel/turns/contentWait.ts), and says it no more once content comes.
import assert from "node:assert/strict";
import type { ApprovalView } from "../../src/panel/protocol";
import { panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";

const approval: ApprovalView = { callId: "call_read", toolName: "read_file", toolDescription: "Reads a file.", risk: "read", argumentsJson: "{}", canAllowForSession: true };

describe("Chat panel webview: the wait for content (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  it("says how long the running request has waited for content, and Working… again once content comes", async () => {
    const panel = current.panel();
    const running = turn("t1", { answerText: "", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] });
    await panel.sendState(panelState({ busy: true, turns: [running] }));
    const progress = panel.page.locator(".turn-progress");
    assert.equal(await progress.innerText(), "Working…");
    await panel.send({ type: "contentWait", turnId: "t1", seconds: 12 });
    assert.equal(await progress.innerText(), "Working… no new content for 12 s");
    await panel.send({ type: "contentWait", turnId: "t1", seconds: 13 });
    assert.equal(await progress.innerText(), "Working… no new content for 13 s");
    // Waiting for the person is said instead: the request is not what waits then.
    await panel.sendPatch({ kind: "approvals", approvals: [approval] });
    assert.equal(await progress.innerText(), "Waiting for your approval");
    await panel.sendPatch({ kind: "approvals", approvals: [] });
    await panel.send({ type: "contentWait", turnId: "t1", seconds: null });
    assert.equal(await progress.innerText(), "Working…");
    // A message for a turn that is not on the page changes nothing.
    await panel.send({ type: "contentWait", turnId: "gone", seconds: 30 });
    assert.equal(await progress.innerText(), "Working…");
  });
});
