// Two relays as a person sets them up in a real VS Code (code-server): the first from the runner, the second
// added through "Relay Chat: Add Relay…" (address, name, key, then the check-up), one of its models picked
// in the composer's grouped picker, a message sent to it, and the relay removed again with its key.
// Screenshots: test-results/ui/relays-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { waitUntil, workbenchForSuite } from "./workbench";

const secondRelayUrl = process.env.RELAY_CHAT_UI_SECOND_RELAY_URL ?? "";
const secondRelayKey = process.env.RELAY_CHAT_UI_SECOND_RELAY_KEY ?? "";
const secondRelayControl = process.env.RELAY_CHAT_UI_SECOND_RELAY_CONTROL ?? "";
const enabled = Boolean(secondRelayUrl && secondRelayKey && secondRelayControl) && process.env.RELAY_CHAT_UI_CHAT !== "0";
const NAME = "Second relay";

async function receivedBy(controlUrl: string): Promise<Array<{ method: string; path: string }>> {
  return (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string }>;
}

async function responsesPostsTo(controlUrl: string): Promise<number> {
  const received = await receivedBy(controlUrl);
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses").length;
}

(enabled ? describe : describe.skip)("several relays in the workbench", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("relays");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("adds a second relay through Add Relay…: address, name, key, then the check-up", async () => {
    await workbench().runCommand("Relay Chat: Add Relay…");
    await workbench().answerInput(secondRelayUrl);
    const nameBox = workbench().page.locator(".quick-input-widget input");
    await workbench().page.locator(".quick-input-widget").getByText(/Add Relay \(2\/3\)/).waitFor();
    await nameBox.fill(NAME);
    await nameBox.press("Enter");
    await workbench().page.locator(".quick-input-widget").getByText(/Add Relay \(3\/3\)/).waitFor();
    await workbench().answerInput(secondRelayKey);
    // The check-up may be billed: that is said first, and nothing billable is sent before the answer (issue 27 §5).
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.getByText(/may bill each of them/).waitFor({ timeout: 30_000 });
    assert.equal(await responsesPostsTo(secondRelayControl), 0, "no check-up request before the person agreed");
    await dialog.getByRole("button", { name: "Check now" }).click();
    // The check-up's report opens in its own tab when it is done.
    await workbench().page.locator(".tabs-container .tab", { hasText: "Relay Check" }).first().waitFor({ timeout: 90_000 });
    await workbench().screenshot("relays-01-check-up");
    // The report is a webview of its own: closed, so the chat is the only webview again.
    const reportTab = workbench().page.locator(".tabs-container .tab", { hasText: "Relay Check" }).first();
    await reportTab.hover();
    await reportTab.locator(".tab-actions .action-label").first().click();
    await reportTab.waitFor({ state: "detached" });
  });

  it("groups the models by relay and sends to the relay whose model was picked", async () => {
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.locator(`optgroup[label="${NAME}"] option`).first().waitFor({ state: "attached", timeout: 30_000 });
    const groups = await picker.locator("optgroup").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("label")));
    assert.equal(groups.length, 2, `two relays in the picker: ${groups.join(", ")}`);
    assert.ok(groups.includes(NAME));
    await picker.selectOption(`${NAME}\u0000echo`);
    await workbench().newChat();
    assert.match(await picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? ""), new RegExp(`echo · ${NAME}`));
    const before = await responsesPostsTo(secondRelayControl);
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("hello from the second relay");
    await message.press("Enter");
    await chat.getByText("You said: hello from the second relay").first().waitFor({ timeout: 60_000 });
    await chat.getByRole("region", { name: "Turn details" }).last().getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    assert.equal(await responsesPostsTo(secondRelayControl), before + 1, "the second relay answered");
  });

  it("says which relay answered, what it cost and what balance is left", async () => {
    // Prices are read in the background after the first request, never on the send path: the next answer is priced
    // once that read was made (new-api's GET /api/pricing), which a loaded machine does later.
    await waitUntil(async () => (await receivedBy(secondRelayControl)).some((request) => request.method === "GET" && request.path.startsWith("/api/pricing")), "the second relay's prices to be read", 60_000);
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("and what did this cost?");
    await message.press("Enter");
    await chat.getByText("You said: and what did this cost?").first().waitFor({ timeout: 60_000 });
    const receipt = chat.getByRole("region", { name: "Turn details" }).last();
    await receipt.locator(".receipt-cost").waitFor({ timeout: 30_000 });
    assert.match(await receipt.locator(".receipt-cost").innerText(), /^≈\$\d/, "an estimate from the relay's published prices");
    await receipt.getByRole("button", { name: "Show request details" }).click();
    const details = await receipt.innerText();
    assert.match(details, new RegExp(`Relay\\s+${NAME}`), details);
    assert.match(details, /estimated from the model's price/);
    const balance = workbench().page.locator(".statusbar-item", { has: workbench().page.locator(".codicon-credit-card") });
    await balance.waitFor({ timeout: 30_000 });
    assert.match(await balance.innerText(), /\$\d|unlimited/, "the second relay's balance in the status bar");
    await workbench().panelScreenshot("relays-02-second-relay-answer");
    await workbench().screenshot("relays-03-cost-and-balance");
  });

  it("removes the relay and its key through Remove Relay…", async () => {
    await workbench().runCommand("Relay Chat: Remove Relay…");
    const pick = workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: NAME }).first();
    await pick.waitFor();
    await pick.click();
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Remove" }).click();
    const picker = chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.locator("optgroup").first().waitFor({ state: "detached", timeout: 30_000 });
    const text = await chat.locator("body").innerText();
    assert.doesNotMatch(text, /No relay address is set/, "the first relay is still there");
  });
});
