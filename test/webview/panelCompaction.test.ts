import assert from "node:assert/strict";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Compaction in the panel: the offer above the message box, the fix on a too-long refusal, and the turns a
// summary replaced, collapsed under its "Summarized" group with the originals one click away.

describe("Chat panel webview: summarizing earlier turns (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("offers Summarize earlier turns near the window and after a too-long refusal, and posts it only when clicked", async () => {
    const { page } = panel;
    await panel.clearPosted();
    await panel.sendState(panelState({ turns: [turn("t1"), turn("t2")], compactionOffer: { reason: "near_limit", turns: 12 } }));
    const offer = page.locator(".compaction-offer");
    assert.match((await offer.textContent()) ?? "", /nears the model's context window.*12 earlier turns/);
    assert.deepEqual((await panel.posted()).filter((message) => message.type !== "rendered"), [], "nothing is sent by itself");
    await panel.clearPosted();
    await offer.getByRole("button", { name: "Summarize earlier turns" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "summarizeEarlierTurns" }]);

    const refused = turn("t3", { outcome: "http_error", outcomeLabel: "HTTP 400 context_length_exceeded", explanation: "Your input exceeds the context window of this model.", fixes: ["summarizeEarlierTurns", "selectModel"], actions: ["retry"] });
    await panel.sendState(panelState({ turns: [turn("t1"), turn("t2"), refused], compactionOffer: { reason: "too_long", turns: 2 } }));
    assert.match((await offer.textContent()) ?? "", /refused the conversation/);
    await panel.clearPosted();
    await page.locator('[data-turn-id="t3"]').getByRole("button", { name: "Summarize earlier turns" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "summarizeEarlierTurns" }]);

    await panel.sendPatch({ kind: "fields", fields: { compactionOffer: null } });
    assert.equal(await offer.count(), 0);
  });

  it("collapses the summarized turns under the summary, which says what it replaced, and shows the originals on request", async () => {
    const { page } = panel;
    const summary = {
      text: "- The person asked about the build.\n- The fix was in tsconfig.json.",
      replacedTurns: 2,
      estimatedTokensBefore: 9000,
      estimatedTokensAfter: 400,
      receipt: receipt({ purpose: "summarize", note: "Replaced 2 turns: the next request is about 400 input tokens instead of 9000 (estimates)." }),
    };
    await panel.sendState(panelState({ turns: [turn("t1", { userText: "first question" }), turn("t2", { userText: "second question", summary }), turn("t3", { userText: "kept question" })] }));
    const first = page.locator('[data-turn-id="t1"]');
    const holder = page.locator('[data-turn-id="t2"]');
    assert.equal(await first.isVisible(), false, "a summarized turn is collapsed");
    assert.equal(await holder.locator(".user-message").isVisible(), false);
    assert.equal(await page.locator('[data-turn-id="t3"] .user-message').isVisible(), true, "kept turns show as they are");
    const group = holder.locator(".turn-summary");
    assert.equal(await group.locator("summary").innerText(), "Summarized: 2 earlier turns");
    await group.locator("summary").click();
    assert.match(await group.innerText(), /The fix was in tsconfig\.json\..*Replaced 2 turns.*400 input tokens instead of 9000/s);

    await group.getByRole("button", { name: "Show the summarized turns" }).click();
    assert.equal(await first.isVisible(), true, "the originals stay and can be read");
    assert.equal(await holder.locator(".user-message").isVisible(), true);
    await group.getByRole("button", { name: "Hide the summarized turns" }).click();
    assert.equal(await first.isVisible(), false);

    // A newer turn added by a patch is not summarized; a summary patched onto a later turn collapses up to it.
    await panel.sendPatch({ kind: "turn", turn: turn("t4", { userText: "newest" }) });
    await panel.sendPatch({ kind: "turnOrder", turnIds: ["t1", "t2", "t3", "t4"] });
    assert.equal(await page.locator('[data-turn-id="t4"] .user-message').isVisible(), true);
    await panel.sendPatch({ kind: "turn", turn: turn("t3", { userText: "kept question", summary: { ...summary, replacedTurns: 3 } }) });
    assert.equal(await page.locator('[data-turn-id="t3"] .user-message').isVisible(), false);
    assert.equal(await page.locator('[data-turn-id="t4"] .user-message').isVisible(), true);
  });
});
