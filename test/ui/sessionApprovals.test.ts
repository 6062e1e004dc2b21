// Calls that run without a card, as a person sets them up. "Session Approvals..." in the chat view's `...` menu
// (issue 19): a read tool allowed for the session runs without asking, the menu lists it, picking it revokes
// it, and the next call asks again. Approval rules (issue 21): "Always allow this command" on a run_command card
// shows the exact rule, writes it to the User settings once confirmed, the same command then runs without a card
// (its tool card names the rule), and a different command still asks; the "run-command" scripted model proposes
// the command written after "run: ".
// Screenshots: test-results/ui/session-approvals-*.png, approval-rules-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";

(enabled ? describe : describe.skip)("Session Approvals in the chat view's menu, and approval rules", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("session-approvals");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  async function send(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
  }

  it("lists a tool allowed for this session and revokes it, so its next call asks again", async () => {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("tools");
    await send("Read the readme");
    const allow = chat.getByRole("button", { name: "Allow for this session" });
    await allow.waitFor({ timeout: 60_000 });
    await allow.click();
    await chat.getByText(/Tool result:/).first().waitFor({ timeout: 60_000 });
    await send("Read it once more");
    await chat.getByText(/Tool result:/).nth(1).waitFor({ timeout: 60_000 });
    assert.equal(await chat.getByRole("button", { name: "Approve", exact: true }).count(), 0, "allowed for the session: no card");

    await workbench().page.locator('.part.sidebar .title-actions .action-label[aria-label^="Views and More Actions"], .part.sidebar .title-actions .action-label[aria-label^="More Actions"]').first().click();
    await workbench().page.getByRole("menuitem", { name: "Session Approvals..." }).click();
    const row = workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: "read_file" });
    await row.waitFor({ timeout: 30_000 });
    assert.equal(await workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: "Revoke All" }).count(), 1);
    await workbench().screenshot("session-approvals-01-quick-pick");
    await row.click();
    await workbench().page.locator(".quick-input-widget").waitFor({ state: "hidden" });

    await send("And once again");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    await workbench().screenshot("session-approvals-02-asked-again");
    await chat.getByRole("button", { name: "Deny", exact: true }).click();
  });

  it("Always allow this command writes the exact rule after showing it; the same command then runs without asking, another still asks", async () => {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("run-command");
    await send("run: echo rules-ok");
    const always = chat.getByRole("button", { name: "Always allow this command…" });
    await always.waitFor({ timeout: 60_000 });
    await workbench().panelScreenshot("approval-rules-01-card");
    await always.click();

    // The host's modal shows what will be written before anything is.
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /\{"pattern":"echo rules-ok","match":"exact"\}/);
    await workbench().screenshot("approval-rules-02-confirm");
    await dialog.getByRole("button", { name: "Write rule and run" }).click();
    await chat.getByText(/Tool result: .*rules-ok/s).first().waitFor({ timeout: 60_000 });

    await send("run: echo rules-ok");
    await chat.getByText(/Tool result: .*rules-ok/s).nth(1).waitFor({ timeout: 60_000 });
    assert.equal(await chat.getByRole("button", { name: "Approve", exact: true }).count(), 0, "the rule approved it: no card");
    await chat.getByText('Ran without asking: your rule run_command allow "echo rules-ok" (exact)').first().waitFor({ timeout: 30_000 });
    await workbench().panelScreenshot("approval-rules-03-ran-by-rule");

    await send("run: echo rules-ok; echo more");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    await chat.getByRole("button", { name: "Deny", exact: true }).click();
  });
});
