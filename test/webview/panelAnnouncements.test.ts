import assert from "node:assert/strict";
import { panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Issue 27: the screen-reader status still announced the previous conversation's error in a new chat. The
// live region is emptied when another conversation (or a new chat) comes on screen, news still on its way
// included.

const statusText = (panel: PanelPage) => panel.page.evaluate(() => document.querySelector(".visually-hidden[role=status]")?.textContent ?? null);

describe("Chat panel webview: the screen-reader status (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  async function failedTurn(panel: PanelPage): Promise<void> {
    await panel.sendState(panelState({ busy: true, turns: [turn("a1", { streaming: true, answerText: "", outcome: "in_progress", receipts: [] })] }));
    await panel.sendPatch({ kind: "turn", turn: turn("a1", { answerText: "", outcome: "http_error", outcomeLabel: "HTTP 401 (invalid_api_key)", explanation: "The key was refused.", receipts: [] }) }, { kind: "fields", fields: { busy: false } });
  }

  it("forgets the previous conversation's error when a new chat starts", async () => {
    const panel = current.panel();
    await failedTurn(panel);
    await panel.page.waitForFunction(() => document.querySelector(".visually-hidden[role=status]")?.textContent === "Answer ended: HTTP 401 (invalid_api_key)");
    await panel.sendPatch({ kind: "turnOrder", turnIds: [] }, { kind: "fields", fields: { title: "New chat", conversationId: null } });
    assert.equal(await statusText(panel), "", "nothing left to read out in the new chat");
  });

  it("drops an announcement still on its way when another conversation is opened", async () => {
    const panel = current.panel();
    await failedTurn(panel);
    // Right after the error (the announcement is set a moment later), the person opens another conversation.
    await panel.sendPatch({ kind: "turn", turn: turn("b1", { userText: "other" }) }, { kind: "turnOrder", turnIds: ["b1"] }, { kind: "fields", fields: { title: "Other", conversationId: "c2" } });
    await panel.page.waitForTimeout(200);
    assert.equal(await statusText(panel), "");
  });
});
