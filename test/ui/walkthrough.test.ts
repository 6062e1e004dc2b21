// The Get Started walkthrough in a real VS Code: its steps tick themselves off from what really happened
// (the relay's address is set, a key is there, a model was picked, an answer completed), not from a click
// on the step. Screenshots: test-results/ui/.
// The page is opened after the context keys were set (the test profile does not open it at startup), the
// case where VS Code would otherwise leave already-true steps unticked (src/host/walkthrough.ts).
import * as assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

describe("the Get Started walkthrough", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("walkthrough");

  const step = (title: string): Locator => workbench().page.locator("button.getting-started-step", { hasText: title });
  // The step shown on the right side is the expanded one.
  const isShown = async (title: string) => (await step(title).getAttribute("aria-expanded")) === "true";
  const isChecked = async (title: string) => (await step(title).locator('[aria-checked="true"]').count()) > 0;

  it("ticks off the relay, its key, the picked model and the first answer as they happen", async () => {
    const chat = await workbench().openRelayChat();
    await workbench().runCommand("Relay Chat: Get Started");
    await step("Add a relay").waitFor({ timeout: 60_000 });
    // The UI tests' relay is set and its key is in the environment: those two steps are done already.
    await step("Add a relay").locator('[aria-checked="true"]').waitFor({ timeout: 30_000 });
    await step("Set its API key").locator('[aria-checked="true"]').waitFor({ timeout: 30_000 });
    assert.equal(await isChecked("Pick a model"), false, "no model picked yet");
    assert.equal(await isChecked("Ask a first question"), false, "no answer yet");
    assert.equal(await isShown("Run the check-up"), true, "opens on the first step not done, not on Add a relay");

    await workbench().runCommand("Relay Chat: Select Model");
    await workbench().answerInput("echo");
    await step("Pick a model").locator('[aria-checked="true"]').waitFor({ timeout: 30_000 });

    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Hello from the walkthrough");
    await message.press("Enter");
    await chat.getByText("You said: Hello from the walkthrough").first().waitFor({ timeout: 60_000 });
    await step("Ask a first question").locator('[aria-checked="true"]').waitFor({ timeout: 30_000 });
    assert.equal(await isChecked("Run the check-up"), false, "the check-up was not run");

    // The check-up's report opens over the walkthrough; back on its tab, Get Started shows the walkthrough, all steps done.
    await workbench().runCommand("Relay Chat: Check Relay Connection");
    const report = workbench().page.locator(".tab", { hasText: "Relay Check" });
    await report.waitFor({ timeout: 90_000 });
    // Its webview would cover the editor area the palette is opened from.
    await workbench().page.locator(".tab", { hasText: "Welcome" }).click();
    await workbench().runCommand("Relay Chat: Get Started");
    await step("Run the check-up").locator('[aria-checked="true"]').waitFor({ timeout: 30_000 });
    await step("Ask a first question").and(workbench().page.locator('[aria-expanded="true"]')).waitFor({ timeout: 30_000 });
    assert.equal(await isShown("Add a relay"), false, "all steps done: not back on Add a relay");
    await workbench().screenshot("walkthrough");
  });
});
