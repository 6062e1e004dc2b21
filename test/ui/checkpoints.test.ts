// Checkpoints as a person uses them (issue 21): a turn runs a command that writes a file, the turn shows
// "1 file changed", Review lists the file and opens it in the diff editor, Restore asks once and removes it, the turn then says "restored", and its Undo restore brings the file back.
// Then (issue 37) a restore gives back exactly what was there, with the checkpoint helper thread of the VSIX.
// Screenshots: test-results/ui/checkpoints-*.png.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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
  const exact = path.join(uiEnvironment().folder, "exact");

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  /** Sends `commandLine` in a new chat to the emulator's "run-message" model, which runs it through run_command, and approves it. */
  async function runApproved(commandLine: string): Promise<void> {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("run-message");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(commandLine);
    await message.press("Enter");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    await approve.click();
  }

  after(() => {
    fs.rmSync(created, { force: true });
    fs.rmSync(exact, { recursive: true, force: true });
  });

  it("runs a command that writes a file, then restores the turn and the file is gone; the restore can be undone", async () => {
    await runApproved("echo written by the turn > made-by-the-turn.txt");
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

  // Issue 37 item 5 through the installed VSIX: what the workspace's .gitattributes would convert, permissions, a
  // symbolic link and a nested repository with no commit come back exactly; and the 2,500 files make the
  // checkpoints use their helper thread (dist/checkpointWorker.js, which must be in the VSIX and load in the host).
  it("restores the exact bytes, permissions, a link and a nested repository's files, with the checkpoint helper thread loaded from the VSIX", async () => {
    fs.mkdirSync(path.join(exact, "many"), { recursive: true });
    fs.writeFileSync(path.join(exact, ".gitattributes"), "*.txt eol=crlf ident\n");
    fs.writeFileSync(path.join(exact, "lf.txt"), "one\ntwo\n");
    fs.writeFileSync(path.join(exact, "id.txt"), "$Id$\n");
    fs.writeFileSync(path.join(exact, "secret.txt"), "private\n", { mode: 0o600 });
    fs.chmodSync(path.join(exact, "secret.txt"), 0o600);
    fs.writeFileSync(path.join(exact, "tool.sh"), "#!/bin/sh\n", { mode: 0o755 });
    fs.chmodSync(path.join(exact, "tool.sh"), 0o755);
    fs.symlinkSync("lf.txt", path.join(exact, "link"));
    execFileSync("git", ["init", "--quiet", path.join(exact, "nested")]);
    fs.writeFileSync(path.join(exact, "nested", "inside.txt"), "nested\n");
    for (let index = 0; index < 2500; index += 1) fs.writeFileSync(path.join(exact, "many", `f${index}.txt`), `${index}\n`);

    await runApproved(
      "cd exact && printf 'changed\\n' > lf.txt && printf 'changed\\n' > id.txt && rm secret.txt && chmod 644 tool.sh && rm link && printf 'not a link\\n' > link && " +
        "printf 'changed\\n' > nested/inside.txt && for i in $(seq 0 299); do printf 'changed\\n' > many/f$i.txt; done",
    );
    const changes = chat.locator(".turn-changes").last();
    await changes.waitFor({ timeout: 90_000 });
    assert.match(await changes.innerText(), /306 files changed/);
    assert.equal(fs.readFileSync(path.join(exact, "lf.txt"), "utf8"), "changed\n");

    await changes.getByRole("button", { name: "Restore files to before this turn" }).click();
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await waitUntil(async () => (await workbench().notificationMessages()).some((text) => /Restored 306 file/.test(text)), "the restore is reported", 90_000);

    assert.equal(fs.readFileSync(path.join(exact, "lf.txt"), "utf8"), "one\ntwo\n", "no CRLF from eol=crlf");
    assert.equal(fs.readFileSync(path.join(exact, "id.txt"), "utf8"), "$Id$\n", "no ident expansion");
    assert.equal(fs.statSync(path.join(exact, "secret.txt")).mode & 0o777, 0o600, "a deleted 0600 file comes back 0600");
    assert.equal(fs.statSync(path.join(exact, "tool.sh")).mode & 0o777, 0o755, "the exec bit comes back");
    assert.equal(fs.readlinkSync(path.join(exact, "link")), "lf.txt", "the link comes back as a link");
    assert.equal(fs.readFileSync(path.join(exact, "nested", "inside.txt"), "utf8"), "nested\n", "a nested repository's file is restored");
    assert.ok(fs.existsSync(path.join(exact, "nested", ".git", "HEAD")), "the nested repository's .git is left as it was");
    assert.equal(fs.readFileSync(path.join(exact, "many", "f299.txt"), "utf8"), "299\n");

    // The extension's Output log (code-server's log folder) says the helper thread started from the VSIX's bundle.
    const logs = path.join(process.env.RELAY_CHAT_UI_USER_DATA ?? "", "logs");
    const helperReady = () => filesUnder(logs).some((file) => /Relay Chat/.test(path.basename(file)) && fs.readFileSync(file, "utf8").includes("checkpoints: the helper thread is ready"));
    await waitUntil(helperReady, `the Relay Chat log under ${logs} says the checkpoint helper thread is ready`);
  });
});

function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).map((name) => path.join(folder, name)).filter((file) => fs.statSync(file).isFile());
}
