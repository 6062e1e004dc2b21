// The relay configured as a person configures it, in a remote-style window: code-server parses the User
// settings file as a remote window does (without machine-scoped settings), so a relay address kept in a
// machine-scoped setting was read at first and lost as soon as the User settings were parsed again. Here the
// address and model are in the User settings file beside a value VS Code migrates on its first start, there
// are no RELAY_CHAT_* variables and no key: the key is set through the command palette, a message is sent,
// another User setting is edited, a message is sent again, again after a reload, and again after a second
// relay is added to relayChat.relays by hand.
// Runs only under `runUiTests.mjs --relay-in-user-settings`. Screenshots: test-results/ui-user-settings/.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import type { FrameLocator } from "playwright-core";
import { uiEnvironment, workbenchForSuite } from "./workbench";

const settingsFile = process.env.RELAY_CHAT_UI_USER_SETTINGS ?? "";
const relayKey = process.env.RELAY_CHAT_UI_RELAY_KEY ?? "";
const enabled = Boolean(settingsFile && relayKey);

(enabled ? describe : describe.skip)("the relay set in the User settings file of a remote-style window", function () {
  this.timeout(180_000);
  const relayBaseUrl = uiEnvironment().relayBaseUrl;
  const workbench = workbenchForSuite("user-settings");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  async function sendAndExpectCompleted(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
    await chat.getByText(`You said: ${text}`).first().waitFor({ timeout: 60_000 });
    const receipt = chat.getByRole("region", { name: "Turn details" }).last();
    await receipt.getByText(/completed/i).first().waitFor({ timeout: 60_000 });
  }

  async function panelText(): Promise<string> {
    return chat.locator("body").innerText();
  }

  it("reads the relay address from the User settings file after VS Code migrated it", async () => {
    // VS Code's first start rewrote the legacy value: the file has been parsed and written since.
    const deadline = Date.now() + 30_000;
    while (!fs.readFileSync(settingsFile, "utf8").includes('"off"') && Date.now() < deadline) await workbench().page.waitForTimeout(200);
    assert.match(fs.readFileSync(settingsFile, "utf8"), /"extensions\.autoUpdate":\s*"off"/, "VS Code migrates the legacy value");
    assert.doesNotMatch(await panelText(), /No relay address is set/);
  });

  it("sets the key through the command palette for the address in the User settings", async () => {
    await workbench().runCommand("Relay Chat: Set API Key");
    const prompt = workbench().page.locator(".quick-input-widget");
    await prompt.getByText(/API key for/).first().waitFor({ timeout: 30_000 });
    assert.match(await prompt.innerText(), new RegExp(`API key for ${relayBaseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`), "the key is asked for the relay in the User settings, not for a new address");
    await workbench().answerInput(relayKey);
    await workbench().page.locator(".quick-input-widget").waitFor({ state: "hidden" });
    await workbench().newChat();
    const text = await panelText();
    assert.doesNotMatch(text, /No relay address is set/);
    assert.doesNotMatch(text, /No API key is set/);
    await sendAndExpectCompleted("first message to the relay in the User settings");
    await workbench().panelScreenshot("user-settings-01-answer");
  });

  it("still talks to that relay after another User setting is edited", async () => {
    // As a person changes a setting: through the workbench, which writes the User settings file and parses it again.
    await workbench().runCommand("View: Toggle Status Bar Visibility");
    await workbench().page.locator(".part.statusbar").waitFor({ state: "hidden", timeout: 30_000 });
    const deadline = Date.now() + 30_000;
    while (!/"workbench\.statusBar\.visible":\s*false/.test(fs.readFileSync(settingsFile, "utf8")) && Date.now() < deadline) {
      await workbench().page.waitForTimeout(200);
    }
    assert.match(fs.readFileSync(settingsFile, "utf8"), /"workbench\.statusBar\.visible":\s*false/, "the edit is in the User settings file");
    assert.equal(JSON.parse(fs.readFileSync(settingsFile, "utf8"))["relayChat.baseUrl"], relayBaseUrl);
    await workbench().newChat();
    assert.doesNotMatch(await panelText(), /No relay address is set|No API key is set/);
    await sendAndExpectCompleted("second message after a settings edit");
  });

  it("still talks to that relay after a reload", async () => {
    await workbench().reload();
    chat = await workbench().openRelayChat();
    await workbench().newChat();
    assert.doesNotMatch(await panelText(), /No relay address is set|No API key is set/);
    await sendAndExpectCompleted("third message after a reload");
    await workbench().panelScreenshot("user-settings-02-after-reload");
  });

  it("keeps sending to that relay after a second relay is added to relayChat.relays by hand", async () => {
    // As a person adds one: in the User settings JSON editor, saved; no key for it yet, and nothing picked
    // in the panel. Had the hand-added relay become the default, the panel would now ask for its key.
    const handAdded = "Hand-added relay";
    const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    settings["relayChat.relays"] = [{ name: handAdded, baseUrl: "https://hand-added.example.com/v1" }];
    const page = workbench().page;
    await workbench().runCommand("Preferences: Open User Settings (JSON)");
    await page.locator(".tabs-container .tab", { hasText: "settings.json" }).first().waitFor({ timeout: 30_000 });
    await page.locator(".editor-instance .monaco-editor .view-lines").first().click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    // One line, inserted at once into an empty editor: no auto-indent, no brackets closed or selection wrapped.
    await page.keyboard.insertText(JSON.stringify(settings));
    await page.keyboard.press("ControlOrMeta+S");
    const deadline = Date.now() + 30_000;
    while (!fs.readFileSync(settingsFile, "utf8").includes(handAdded) && Date.now() < deadline) await page.waitForTimeout(200);
    assert.deepEqual(JSON.parse(fs.readFileSync(settingsFile, "utf8"))["relayChat.relays"], settings["relayChat.relays"], "saved as typed");
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.locator(`optgroup[label="${handAdded}"]`).waitFor({ state: "attached", timeout: 30_000 });
    const groups = await picker.locator("optgroup").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("label")));
    assert.deepEqual(groups, [handAdded, new URL(relayBaseUrl).host], "the list's relays first, the base URL's relay after them");
    await workbench().newChat();
    assert.doesNotMatch(await panelText(), /No relay address is set|No API key is set/);
    const chosen = await picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
    // The model first, its relay second ("echo · 127.0.0.1:1234").
    assert.match(chosen, new RegExp(` · ${new URL(relayBaseUrl).host.replace(/[.]/g, "\\.")}( |$)`), "the base URL's relay is still the one the panel sends to");
    // The settings file is the active editor, but outside the workspace: it is not sent as the Current file.
    assert.equal(await chat.locator(".chip.active-file").count(), 0, "no Current file chip for the User settings file");
    await sendAndExpectCompleted("fourth message after a relay was added by hand");
    assert.doesNotMatch(await chat.locator(".turn").last().innerText(), /settings\.json/, "the User settings did not go with the message");
    await workbench().panelScreenshot("user-settings-03-relay-added-by-hand");
  });
});
