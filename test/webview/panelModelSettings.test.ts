import assert from "node:assert/strict";
import { conversationState, panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// A model's own settings (relayChat.modelSettings) in the panel: "Model settings…" in the model picker asks the
// host for its editor; the receipt says what the settings sent with the turn's requests ("effort low · temp 0.2
// · max 4000 · no tools") on the line and in each request's details, and nothing when none did.

describe("Chat panel webview: model settings (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("offers Model settings… in the model picker, which asks the host and keeps the model chosen", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    await panel.clearPosted();
    const picker = page.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.selectOption({ label: "Model settings…" });
    assert.equal(await picker.inputValue(), "relay-large");
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "modelSettings" }]);
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

  it("a turn whose setting the model refused offers Model settings… for that turn's model: one click, one message naming the turn", async () => {
    const { page } = panel;
    const refused = turn("r1", {
      outcome: "http_error",
      outcomeLabel: "HTTP 400 (unsupported_parameter)",
      explanation: 'Unsupported parameter: \'reasoning.effort\' is not supported with this model. echo refuses "Reasoning effort" as sent: change it in Model settings… for echo, then Retry.',
      fixes: ["modelSettings", "selectModel"],
      actions: ["retry"],
    });
    await panel.sendState(panelState({ turns: [refused] }));
    assert.match(await page.locator('[data-turn-id="r1"] .turn-explanation').innerText(), /refuses "Reasoning effort"/);
    await panel.clearPosted();
    await page.locator('[data-turn-id="r1"]').getByRole("button", { name: "Model settings…" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "modelSettings", turnId: "r1" }]);
  });
});
