// Another extension's tool in Relay Chat's panel, as a person uses it: the test tool extension
// (test/integration/lmToolExtension, installed beside the VSIX by runUiTests.mjs) offers get_weather; the
// user picks it with "Relay Chat: Choose Tools from Other Extensions", the emulator's "tools" model calls it,
// the approval card asks, and the answer carries the tool's result. Screenshots: test-results/ui/external-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import type { Workbench } from "./workbench";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";

/**
 * Ticks get_weather in "Choose Tools from Other Extensions" (`on`), or unticks it; `screenshot` names the open pick.
 * Then opens the pick again until it shows the new state: the choice is a user setting of the shared profile,
 * and the next suite's window must not start before it is written (on a loaded machine, later than the pick closes).
 */
async function setTheTool(workbench: Workbench, on: boolean, screenshot?: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await workbench.runCommand("Relay Chat: Choose Tools from Other Extensions");
    const row = workbench.page.locator(".quick-input-list .monaco-list-row", { hasText: "get_weather" });
    await row.waitFor({ timeout: 30_000 });
    if (screenshot && attempt === 1) await workbench.screenshot(screenshot);
    const checkbox = row.locator(".monaco-checkbox, input[type=checkbox]").first();
    const checked = await checkbox.evaluate((node) => (node instanceof HTMLInputElement ? node.checked : node.getAttribute("aria-checked") === "true" || node.classList.contains("checked")));
    if (checked !== on) await checkbox.click();
    await workbench.page.locator(".quick-input-widget input").press(checked === on ? "Escape" : "Enter");
    await workbench.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
    if (checked === on) return;
    if (attempt === 5) throw new Error(`get_weather is still ${on ? "not " : ""}chosen after ${attempt} attempts`);
  }
}

(enabled ? describe : describe.skip)("another extension's tool in the panel", function () {
  this.timeout(120_000);
  // The choice is a user setting of the shared test profile: untick the tool again for the tests that follow.
  const workbench = workbenchForSuite("external", { beforeClose: (open) => setTheTool(open, false) });
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("is chosen in the quick pick of VS Code's tools", async () => {
    await setTheTool(workbench(), true, "external-01-choose-tools");
  });

  it("asks on the approval card, and after Approve answers with the tool's result", async () => {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("tools");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("What is the weather in Paris?");
    await message.press("Enter");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    const card = chat.locator("section").filter({ has: approve });
    assert.match(await card.innerText(), /get_weather/);
    // The tool's own description, written for the model, is behind a disclosure so the card stays short.
    await card.getByText("What the model was told about this tool").click();
    assert.match(await card.innerText(), /External tool "get_weather"/);
    assert.equal(await chat.getByRole("button", { name: "Allow for this session" }).count(), 0, "an external tool always asks");
    await workbench().screenshot("external-02-approval-card");
    await approve.click();
    await chat.getByText("Tool result: sunny in Paris").first().waitFor({ timeout: 60_000 });
    await workbench().screenshot("external-03-answer");
  });
});
