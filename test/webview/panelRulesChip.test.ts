import assert from "node:assert/strict";
import { panelState } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";
import type { RulesView } from "../../src/panel/protocol";

// The Rules chip in the message box: which project rules files go with the next message and what the
// instructions add; each file can be switched off for the conversation, and the whole text is one click away.

const rules: RulesView = {
  instructionTokens: 1234,
  untrusted: false,
  files: [
    { id: "app/AGENTS.md", source: "AGENTS.md", tokens: 120, off: false, cut: null, left: false },
    { id: "app/src/AGENTS.md", source: "src/AGENTS.md", tokens: 0, off: true, cut: null, left: false },
    { id: "app/.github/instructions/ts.instructions.md", source: ".github/instructions/ts.instructions.md", tokens: 4000, off: false, cut: { keptChars: 16000, totalChars: 20000 }, left: false },
  ],
};

describe("Chat panel webview: the Rules chip (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("counts the files sent, says a cut, lists every file with its switch, and posts a switch-off for the conversation", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ rules: null }));
    const chip = page.locator(".rules-chip");
    assert.equal(await chip.isVisible(), false, "no rules files: no chip");

    await panel.sendPatch({ kind: "fields", fields: { rules } });
    assert.equal((await chip.textContent())?.trim(), "2 rules filescut");
    assert.match((await chip.getAttribute("title")) ?? "", /about 1,234 tokens/);
    assert.equal(await chip.getAttribute("aria-expanded"), "false");

    await chip.click();
    const list = page.locator(".rules-popup");
    assert.equal(await list.isVisible(), true);
    assert.equal(await chip.getAttribute("aria-expanded"), "true");
    const rows = list.locator(".rules-file");
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await rows.locator(".rules-file-note").allTextContents(), ["≈120 tokens", "off for this conversation", "cut: 16,000 of 20,000 characters sent"]);
    assert.deepEqual(await rows.locator("input").evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked)), [true, false, true]);

    await panel.clearPosted();
    await rows.nth(0).locator("input").click();
    await rows.nth(1).locator("input").click();
    assert.deepEqual(await panel.posted(), [
      { type: "setRuleFile", id: "app/AGENTS.md", on: false },
      { type: "setRuleFile", id: "app/src/AGENTS.md", on: true },
    ]);

    await panel.clearPosted();
    await list.getByRole("button", { name: "What the model is told" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "showInstructions" }]);
    assert.equal(await list.isVisible(), false, "the list closes when the whole text opens");

    await chip.click();
    await page.keyboard.press("Escape");
    assert.equal(await list.isVisible(), false, "Escape closes the list");
    assert.equal(await chip.evaluate((node) => node === document.activeElement), true, "and gives focus back to the chip");
  });

  it("marks a rules file a relay key was taken out of", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ rules: { instructionTokens: 300, untrusted: false, files: [{ id: "app/AGENTS.md", source: "AGENTS.md", tokens: 20, off: false, cut: null, left: false, redacted: true }] } }));
    await page.locator(".rules-chip").click();
    const row = page.locator(".rules-popup .rules-file");
    assert.equal(await row.locator(".chip-redacted").textContent(), "key removed");
    assert.match((await row.getAttribute("title")) ?? "", /A relay key in this text was replaced with \[REDACTED\]/);
  });

  it("says the rules are off in an untrusted workspace", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ rules: { instructionTokens: 300, untrusted: true, files: [] } }));
    const chip = page.locator(".rules-chip");
    assert.equal((await chip.textContent())?.trim(), "Rules off");
    assert.match((await chip.getAttribute("title")) ?? "", /not trusted/);
  });
});
