// Relay Chat as a person sees it in a real VS Code (code-server in headless Chromium), against the
// relay emulator. Run with: node scripts/vscode/runUiTests.mjs
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { Workbench } from "./workbench";

// The chat steps need the real panel. RELAY_CHAT_UI_CHAT=0 limits the run to the workbench steps
// (useful when testing the harness against a stand-in extension).
const chatSteps = process.env.RELAY_CHAT_UI_CHAT !== "0";

describe("Relay Chat in the workbench", function () {
  this.timeout(120_000);
  let workbench: Workbench;
  let chat: FrameLocator;

  before(async () => {
    workbench = await Workbench.open();
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed" && workbench) {
      const safeName = (this.currentTest.title || "failure").replace(/[^a-z0-9]+/gi, "-").toLowerCase();
      await workbench.screenshot(`failed-${safeName}`).catch(() => undefined);
    }
  });

  after(async () => {
    await workbench?.close();
  });

  it("shows the Relay Chat entry in the activity bar", async () => {
    const entry = workbench.activityBarEntry("Relay Chat");
    await entry.waitFor({ timeout: 60_000 });
    await workbench.screenshot("01-workbench");
  });

  it("opens the chat view from the activity bar", async () => {
    await workbench.activityBarEntry("Relay Chat").click();
    chat = workbench.webview();
    await chat.locator("body").waitFor({ timeout: 60_000 });
    await workbench.screenshot("02-chat-view");
  });

  (chatSteps ? it : it.skip)("streams an answer and shows the turn's details", async () => {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.waitFor({ timeout: 60_000 });
    await message.fill("Hello from the UI test");
    await message.press("Enter");

    // The emulator's echo model answers "You said: <text>".
    await chat.getByText("You said: Hello from the UI test").first().waitFor({ timeout: 60_000 });
    const details = chat.getByRole("region", { name: "Turn details" }).last();
    await details.waitFor({ timeout: 60_000 });
    const text = await details.innerText();
    assert.match(text, /completed/i, `turn details: ${text}`);
    assert.match(text, /req_[A-Za-z0-9]+/, `turn details without a request id: ${text}`);
    await workbench.screenshot("03-answer");
  });
});
