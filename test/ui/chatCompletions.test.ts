// The whole Chat Completions path in a real VS Code (code-server), as a person meets it: a relay of the
// emulator's `split` profile (a new-api relay whose chat-only models refuse /v1/responses, listed ["openai"] like
// every other model, as new-api lists them), added through "Relay Chat: Add Relay…"; one of its chat-only models
// picked in the composer and a message sent. The refusal offers "Use Chat Completions for this model"; one click
// makes the answer arrive over /v1/chat/completions, the receipt says Chat Completions, and the picker marks the
// model. Model settings… says the wire in use and forces either, and the next request goes there. The check-up's
// finding for another chat-only model is confirmed from its report (a command link of the report view; VS Code's
// Markdown preview runs none) and offered in the panel. Screenshots: test-results/ui/chat-completions-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import type { Workbench } from "./workbench";
import { workbenchForSuite } from "./workbench";

const relayUrl = process.env.RELAY_CHAT_UI_SPLIT_RELAY_URL ?? "";
const relayKey = process.env.RELAY_CHAT_UI_SPLIT_RELAY_KEY ?? "";
const relayControl = process.env.RELAY_CHAT_UI_SPLIT_RELAY_CONTROL ?? "";
const enabled = Boolean(relayUrl && relayKey && relayControl) && process.env.RELAY_CHAT_UI_CHAT !== "0";
const NAME = "Split relay";
/** Chat-only on the split relay (test/emulator/chatOnlyModels.ts): refuses /v1/responses with 400 unsupported_endpoint, echoes over Chat Completions. */
const MODEL = "qwen-chat";

async function postedPaths(): Promise<string[]> {
  const received = (await (await fetch(`${relayControl}/received`)).json()) as Array<{ method: string; path: string }>;
  return received.filter((request) => request.method === "POST").map((request) => request.path);
}

/** Another chat-only model of the split relay (chatOnlyModels.ts), for the check-up. */
const CHECKED_MODEL = "gemini-chat";

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Model settings… for the panel's model: its protocol row says `inUse`; the row of `choose` is picked; the list comes back saying `then`. */
async function forceProtocol(workbench: Workbench, rows: { inUse: string; choose: string; then: string }): Promise<void> {
  const row = (text: string) => workbench.page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first();
  await workbench.runCommand("Relay Chat: Model Settings…");
  await row(`Protocol: ${rows.inUse}`).click({ timeout: 30_000 });
  await row(rows.choose).click({ timeout: 30_000 });
  await row(`Protocol: ${rows.then}`).waitFor({ timeout: 30_000 });
  await workbench.page.keyboard.press("Escape");
  await workbench.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
}

/** Remove Relay…, so the other suites see only the runner's relays (relays.test.ts counts them). */
/**
 * Picks a relay in the relay quick pick the way a keyboard user does: its name typed, then Enter once it is the one
 * row left. A click as soon as the row shows could land on the other row while the list was still laid out (the
 * active relay's row grows by its detail line), and checked or removed the wrong relay.
 */
async function pickRelayRow(workbench: Workbench, name: string): Promise<void> {
  const rows = workbench.page.locator(".quick-input-list .monaco-list-row");
  await rows.filter({ hasText: name }).first().waitFor({ timeout: 10_000 });
  const input = workbench.page.locator(".quick-input-widget input");
  await input.fill(name);
  await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().innerText()).includes(name), `only the row of ${name} in the relay pick`, 10_000);
  await input.press("Enter");
}

async function removeRelay(workbench: Workbench): Promise<void> {
  await workbench.runCommand("Relay Chat: Remove Relay…");
  await pickRelayRow(workbench, NAME);
  const dialog = workbench.page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Remove" }).click();
  await dialog.waitFor({ state: "detached" });
}

(enabled ? describe : describe.skip)("Chat Completions in the workbench: a chat-only model, the offer, the answer", function () {
  this.timeout(180_000);
  let removed = false;
  const workbench = workbenchForSuite("chat-completions", {
    beforeClose: async (opened) => {
      if (!removed) await removeRelay(opened).catch(() => undefined);
    },
  });
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("adds the split relay without the check-up and picks its chat-only model", async () => {
    await workbench().runCommand("Relay Chat: Add Relay…");
    await workbench().answerInput(relayUrl);
    const quickInput = workbench().page.locator(".quick-input-widget");
    await quickInput.getByText(/Add Relay \(2\/3\)/).waitFor();
    const nameBox = quickInput.locator("input");
    await nameBox.fill(NAME);
    await nameBox.press("Enter");
    await quickInput.getByText(/Add Relay \(3\/3\)/).waitFor();
    await workbench().answerInput(relayKey);
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.getByRole("button", { name: "Skip the check-up" }).click({ timeout: 30_000 });
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    // By its text: the option's value holds a NUL between relay and model, which a CSS selector cannot name.
    const option = picker.locator(`optgroup[label="${NAME}"] option`, { hasText: MODEL });
    await option.waitFor({ state: "attached", timeout: 30_000 });
    assert.doesNotMatch((await option.textContent()) ?? "", /Chat Completions/, 'the relay lists it ["openai"], as new-api does: that moves nothing');
    await picker.selectOption(`${NAME}\u0000${MODEL}`);
    await workbench().newChat();
    assert.match(await picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? ""), new RegExp(`${MODEL} · ${NAME}`));
  });

  it("offers Use Chat Completions when the relay refuses the Responses request, and the answer arrives over it", async () => {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("hello over chat completions");
    await message.press("Enter");
    const offer = chat.getByRole("button", { name: "Use Chat Completions for this model" });
    await offer.waitFor({ timeout: 60_000 });
    assert.deepEqual(await postedPaths(), ["/v1/responses"], "refused once, nothing sent again on its own");
    await workbench().panelScreenshot("chat-completions-01-offer");

    await offer.click();
    await chat.getByText("You said: hello over chat completions").first().waitFor({ timeout: 60_000 });
    const receipt = chat.getByRole("region", { name: "Turn details" }).last();
    await receipt.getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    assert.deepEqual(await postedPaths(), ["/v1/responses", "/v1/chat/completions"], "one new request, over Chat Completions");
    await receipt.getByRole("button", { name: "Show request details" }).click();
    assert.match(await receipt.innerText(), /Interface\s+Chat Completions/);
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    assert.match(await picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? ""), /Chat Completions/, "the picker marks the model now");
    await workbench().panelScreenshot("chat-completions-02-answer");

    // The choice holds: the next message goes straight to Chat Completions.
    await message.fill("and again");
    await message.press("Enter");
    await chat.getByText("You said: and again").first().waitFor({ timeout: 60_000 });
    assert.equal((await postedPaths()).at(-1), "/v1/chat/completions");
  });

  it("Model settings… says the wire in use and forces Responses, then Chat Completions: the next request goes there", async () => {
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    const pickedLabel = () => picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
    const message = chat.getByRole("textbox", { name: "Message" });

    await forceProtocol(workbench(), { inUse: "Chat Completions (/v1/chat/completions)", choose: "/v1/responses", then: "Responses (/v1/responses)" });
    // The setting is read again: the picker no longer marks the model.
    await waitUntil(async () => !/Chat Completions/.test(await pickedLabel()), "the picker to drop the Chat Completions mark");
    await workbench().screenshot("chat-completions-03-model-settings");
    const before = (await postedPaths()).length;
    await message.fill("over responses, as set");
    await message.press("Enter");
    await chat.getByRole("button", { name: "Use Chat Completions for this model" }).last().waitFor({ timeout: 60_000 });
    assert.deepEqual((await postedPaths()).slice(before), ["/v1/responses"], "forced Responses: the request went to /v1/responses (which this model refuses)");

    await forceProtocol(workbench(), { inUse: "Responses (/v1/responses)", choose: "/v1/chat/completions", then: "Chat Completions (/v1/chat/completions)" });
    await waitUntil(async () => /Chat Completions/.test(await pickedLabel()), "the picker to mark the model again");
    await message.fill("back on chat completions");
    await message.press("Enter");
    await chat.getByText("You said: back on chat completions").first().waitFor({ timeout: 60_000 });
    assert.equal((await postedPaths()).at(-1), "/v1/chat/completions");
  });

  it("confirms the check-up's finding from its report (a command link the report view runs); the panel offers it too", async () => {
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.selectOption(`${NAME}\u0000${CHECKED_MODEL}`);
    await workbench().runCommand("Relay Chat: Check Relay Connection");
    await pickRelayRow(workbench(), NAME);
    const report = workbench().editorWebview();
    const confirm = report.getByRole("link", { name: "Use Chat Completions for this model" });
    await confirm.waitFor({ timeout: 90_000 });
    await chat.locator(".chat-completions-offer").getByText(`${CHECKED_MODEL} on ${NAME}`).waitFor({ timeout: 30_000 });
    await workbench().screenshot("chat-completions-04-report");

    await confirm.click();
    await report.getByText(`${CHECKED_MODEL} on ${NAME} now uses Chat Completions`).waitFor({ timeout: 30_000 });
    await chat.locator(".chat-completions-offer").waitFor({ state: "detached", timeout: 30_000 });
    const option = picker.locator(`optgroup[label="${NAME}"] option`, { hasText: CHECKED_MODEL });
    await waitUntil(async () => /Chat Completions/.test((await option.textContent()) ?? ""), "the picker to mark the confirmed model");
    await workbench().screenshot("chat-completions-05-confirmed");
    await workbench().page.locator(".tabs-container .tab", { hasText: "Relay Check" }).first().locator(".tab-actions .action-label").first().click({ force: true });
  });

  it("removes the relay again", async () => {
    await removeRelay(workbench());
    removed = true;
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.locator("optgroup").first().waitFor({ state: "detached", timeout: 30_000 });
  });
});
