// Checkpoints as a person uses them (issue 21): a turn runs a command that writes a file, the turn shows
// "1 file changed", Review lists the file and opens it in the diff editor, Restore asks once and removes it, the turn then says "restored", and its Undo restore brings the file back.
// Screenshots: test-results/ui/checkpoints-*.png.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { uiEnvironment, waitUntil, workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";

(enabled ? describe : describe.skip)("Checkpoints: restore a turn's file changes", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("checkpoints");
  let chat: FrameLocator;
  const created = path.join(uiEnvironment().folder, "made-by-the-turn.txt");

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  after(() => {
    fs.rmSync(created, { force: true });
  });

  it("runs a command that writes a file, then restores the turn and the file is gone; the restore can be undone", async () => {
    await workbench().newChat();
    // The emulator's "run-message" model runs the message as a command line through run_command.
    await chat.getByRole("combobox", { name: "Model" }).selectOption("run-message");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("echo written by the turn > made-by-the-turn.txt");
    await message.press("Enter");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    await approve.click();
    await chat.getByText(/Tool result:/).first().waitFor({ timeout: 60_000 });
    const changes = chat.locator(".turn-changes").last();
    await changes.waitFor({ timeout: 60_000 });
    assert.match(await changes.innerText(), /1 file changed/);
    assert.equal(fs.readFileSync(created, "utf8").trim(), "written by the turn");
    await workbench().panelScreenshot("checkpoints-01-files-changed");

    await changes.getByRole("button", { name: "Review" }).click();
    const row = workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: "made-by-the-turn.txt" });
    await row.waitFor({ timeout: 30_000 });
    await workbench().screenshot("checkpoints-02-review");
    await row.click();
    // VS Code's diff editor, the checkpoint (before the turn) against the file now.
    await workbench().page.locator(".tabs-container .tab", { hasText: "made-by-the-turn.txt (before this turn" }).waitFor({ timeout: 30_000 });
    await workbench().page.locator(".editor-instance .monaco-diff-editor").first().waitFor({ timeout: 30_000 });
    await workbench().screenshot("checkpoints-03-diff-editor");

    await changes.getByRole("button", { name: "Restore files to before this turn" }).click();
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /deleted: made-by-the-turn\.txt/);
    await workbench().screenshot("checkpoints-04-restore-dialog");
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await waitUntil(() => !fs.existsSync(created), "the file the turn wrote is gone after the restore");

    await waitUntil(async () => (await workbench().notificationMessages()).some((text) => /Restored 1 file/.test(text)), "the restore is reported");
    // The turn itself says it is restored and offers Undo restore (a notification goes away).
    await waitUntil(async () => /1 file changed · restored/.test(await changes.innerText()), "the turn says its files are restored");
    await workbench().panelScreenshot("checkpoints-05-restored");
    await changes.getByRole("button", { name: "Undo restore" }).click();
    await waitUntil(() => fs.existsSync(created), "Undo restore brings the file back");
    await waitUntil(async () => !/restored/.test(await changes.innerText()), "the turn no longer says restored");
    assert.equal(fs.readFileSync(created, "utf8").trim(), "written by the turn");
  });
});
