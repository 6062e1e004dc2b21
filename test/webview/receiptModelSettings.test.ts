import assert from "node:assert/strict";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// The receipt says what a model's own settings (relayChat.modelSettings) sent with the turn's requests:
// "effort low · temp 0.2 · max 4000 · no tools" on the line and in each request's details; nothing when none did.

describe("Chat panel webview: the receipt shows what the model's settings sent (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("shows effort, temperature, cap and no tools on the line and in the details, and nothing for a turn without settings", async () => {
    const { page } = panel;
    await panel.sendState(
      panelState({
        turns: [
          turn("s1", { receipts: [receipt({ requestId: "req_set", sentWith: { reasoningEffort: "low", temperature: 0.2, maxOutputTokens: 4000, noTools: true } })] }),
          turn("s2", { receipts: [receipt({ requestId: "req_plain" })] }),
        ],
      }),
    );
    const regions = page.getByRole("region", { name: "Turn details" });
    const line = regions.nth(0).locator(".receipt-sent-with");
    assert.equal(await line.innerText(), "effort low · temp 0.2 · max 4000 · no tools");
    assert.equal(await line.getAttribute("title"), "Sent with this model's settings: effort low · temp 0.2 · max 4000 · no tools");
    await regions.nth(0).getByRole("button", { name: "Show request details" }).click();
    assert.match(await regions.nth(0).locator(".receipt-details").innerText(), /Model settings\s+effort low · temp 0\.2 · max 4000 · no tools/);
    assert.equal(await regions.nth(1).locator(".receipt-sent-with").count(), 0);
    await regions.nth(1).getByRole("button", { name: "Show request details" }).click();
    assert.doesNotMatch(await regions.nth(1).locator(".receipt-details").innerText(), /Model settings/);
  });

  it("shows only what was set: a temperature of 0 alone", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ turns: [turn("t1", { receipts: [receipt({ sentWith: { temperature: 0 } })] })] }));
    assert.equal(await page.locator(".receipt-sent-with").innerText(), "temp 0");
  });
});
