// Relay Chat as a person sees it in a real VS Code (code-server in headless Chromium), against the
// relay emulator. Run with: node scripts/vscode/runUiTests.mjs
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { waitUntil, workbenchForSuite } from "./workbench";

// The chat steps need the real panel. RELAY_CHAT_UI_CHAT=0 limits the run to the workbench steps
// (useful when testing the harness against a stand-in extension).
const chatSteps = process.env.RELAY_CHAT_UI_CHAT !== "0";

describe("Relay Chat in the workbench", function () {
  this.timeout(120_000);
  const workbench = workbenchForSuite("chat-panel");
  let chat: FrameLocator;

  it("shows the Relay Chat entry in the activity bar", async () => {
    const entry = workbench().activityBarEntry("Relay Chat");
    await entry.waitFor({ timeout: 60_000 });
    await workbench().screenshot("01-workbench");
  });

  it("opens the chat view from the activity bar", async () => {
    await workbench().activityBarEntry("Relay Chat").click();
    chat = workbench().webview();
    await chat.locator("body").waitFor({ timeout: 60_000 });
    await workbench().screenshot("02-chat-view");
  });

  (chatSteps ? it : it.skip)("Focus Chat puts the caret in the message box, by its keybinding and from the palette", async () => {
    const page = workbench().page;
    const message = workbench().webview().getByRole("textbox", { name: "Message" });
    // Loaded first: a view that loads focuses its message box by itself, so only a loaded view tests the command.
    if (!(await message.isVisible().catch(() => false))) await workbench().openRelayChat();
    const typedAfter = async (what: string, open: () => Promise<void>) => {
      await message.fill("");
      // From the editor, as a person would be when reaching for the chat.
      await page.locator(".part.editor").click({ position: { x: 200, y: 200 } });
      await open();
      // The command returns before the page has the focus; typing goes wherever the focus is then.
      await waitUntil(() => message.evaluate((box) => document.hasFocus() && document.activeElement === box).catch(() => false), `the message box to have the focus after ${what}`, 10_000);
      await page.keyboard.type(`typed after ${what}`);
      assert.equal(await message.inputValue(), `typed after ${what}`);
    };
    await typedAfter("Ctrl+Shift+Alt+R", () => page.keyboard.press("Control+Shift+Alt+R"));
    await typedAfter("the palette", () => workbench().runCommand("Relay Chat: Focus Chat"));
    await message.fill("");
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
    // The answer is on screen before the turn has settled (saved, counted): on a loaded machine, seconds before.
    await waitUntil(async () => /completed/i.test(await details.innerText()), "the turn to be completed", 60_000).catch(() => undefined);
    const text = await details.innerText();
    assert.match(text, /completed/i, `turn details: ${text}`);
    assert.match(text, /req_[A-Za-z0-9]+/, `turn details without a request id: ${text}`);
    await workbench().screenshot("03-answer");
  });

  (chatSteps ? it : it.skip)("asks before a tool runs, and answers after Approve", async () => {
    // The emulator's "tools" model proposes a call to the first offered tool (read_file).
    await chat.getByRole("combobox", { name: "Model" }).selectOption("tools");
    await workbench().newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Please read a file");
    await message.press("Enter");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    assert.ok(await chat.getByRole("button", { name: "Deny", exact: true }).isVisible());
    await workbench().screenshot("04-tool-approval");
    await approve.click();
    await chat.getByText(/Tool result:/).first().waitFor({ timeout: 60_000 });
    // One quiet line for the turn; expanded, one entry per request (the follow-up has its own).
    const details = chat.getByRole("region", { name: "Turn details" }).last();
    await details.waitFor({ timeout: 60_000 });
    await details.getByRole("button", { name: "Show request details" }).click();
    await details.getByText("Request 2 of 2: after tool results").waitFor({ timeout: 60_000 });
    assert.match(await details.innerText(), /Request 1 of 2.*Request 2 of 2: after tool results/s);
    assert.match(await chat.locator(".tool-card").last().innerText(), /read_file\s+ran/);
    await workbench().screenshot("05-tool-answer");
  });

  (chatSteps ? it : it.skip)("stops a long answer with Stop and says it was cancelled", async () => {
    // The "demo" model streams at a readable pace; "long" makes it write about 2,000 words.
    await chat.getByRole("combobox", { name: "Model" }).selectOption("demo");
    await workbench().newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Write something long");
    await message.press("Enter");
    const stop = chat.getByRole("button", { name: "Stop", exact: true });
    await stop.waitFor({ state: "visible", timeout: 60_000 });
    await stop.click();
    const details = chat.getByRole("region", { name: "Turn details" }).last();
    await details.waitFor({ timeout: 60_000 });
    // The request's receipt comes when it ends; the turn says cancelled once the session has wound it up.
    await details.getByText(/cancelled/i).first().waitFor({ state: "attached", timeout: 30_000 });
    assert.match(await details.innerText(), /cancelled/i);
    await chat.getByRole("button", { name: "Retry", exact: true }).waitFor({ timeout: 30_000 });
    await workbench().screenshot("06-stopped");
  });

  (chatSteps ? it : it.skip)("keeps a key set through SecretStorage over the environment's, and clears it", async () => {
    // The environment holds the emulator's key. A wrong key stored with "Set API Key" must win (and
    // be refused by the relay); after "Clear API Key" the environment's key works again.
    await workbench().runCommand("Relay Chat: Set API Key");
    await workbench().answerInput("sk-wrong-key-set-through-the-ui-0000");
    await chat.getByRole("combobox", { name: "Model" }).selectOption("echo");
    await workbench().newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Is the stored key used?");
    await message.press("Enter");
    const refused = chat.getByRole("region", { name: "Turn details" }).last();
    // The receipt shows the request in progress from the relay's headers on; the refusal once the body is read.
    await refused.getByText(/HTTP 401/).first().waitFor({ timeout: 60_000 });
    assert.match(await refused.innerText(), /HTTP 401/);
    assert.ok(await chat.getByRole("button", { name: "Set API key" }).last().isVisible(), "the error offers the fix");
    await workbench().screenshot("07-wrong-key");

    await workbench().runCommand("Relay Chat: Clear API Key");
    await workbench().newChat();
    await message.fill("And now?");
    await message.press("Enter");
    await chat.getByText("You said: And now?").first().waitFor({ timeout: 60_000 });
  });

  (chatSteps ? it : it.skip)("still lists earlier conversations after the window reloads", async () => {
    await workbench().reload();
    // Not a click on the activity bar: the reloaded window may show the chat already (since the window comes back
    // as it was), and a click on the active entry would close the side bar.
    await workbench().runCommand("Relay Chat: Focus Chat");
    chat = workbench().webview();
    await workbench().viewAction("Show Chat History").click();
    const history = chat.getByRole("region", { name: "Chat history" });
    await history.waitFor({ timeout: 60_000 });
    // The list is read from disk after the view loads; typing filters it.
    await history.getByRole("searchbox", { name: "Filter conversations" }).fill("Hello from");
    const entry = history.getByRole("button", { name: /Hello from the UI test/ }).first();
    await entry.waitFor({ timeout: 30_000 });
    await entry.click();
    await chat.getByText("You said: Hello from the UI test").first().waitFor({ timeout: 60_000 });
    await workbench().screenshot("08-after-reload");
  });
});
