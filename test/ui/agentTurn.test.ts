// Issue 21's "Done when", as a person does it in a real VS Code: one message asks the model to change three
// files and run `npm test`; the person approves the reads and edits, allows `npm test` for good from its
// card, keeps the edits in the editor, then restores all of it (three edits and the file the command wrote)
// with one action; asked again later, `npm test` runs without a card because of the rule, and that message tells
// the model the files were restored.
// Screenshots: test-results/ui/agent-turn-*.png.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { uiEnvironment, waitUntil, workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";
const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";

const FILES = ["agent-a.js", "agent-b.js", "agent-c.js"];
const ORIGINAL = (name: string) => `function ${name.replace(/\W/g, "_")}() {\n  return 1;\n}\n`;
// `npm test` writes a file, so the restore has a command's change to undo too.
const PACKAGE_JSON = JSON.stringify({ name: "agent-turn", private: true, scripts: { test: "node -e \"require('fs').writeFileSync('agent-test-ran.txt', 'tests ran')\"" } }, null, 2);

(enabled ? describe : describe.skip)("An agent turn: three edits and a command, restored with one action", function () {
  this.timeout(240_000);
  let chat: FrameLocator;
  const folder = uiEnvironment().folder;
  const inFolder = (name: string) => path.join(folder, name);

  before(() => {
    for (const name of FILES) fs.writeFileSync(inFolder(name), ORIGINAL(name));
    fs.writeFileSync(inFolder("package.json"), PACKAGE_JSON);
  });
  // Registered after that hook, so the workbench opens on the files already written.
  const workbench = workbenchForSuite("agent-turn");

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  after(() => {
    for (const name of [...FILES, "package.json", "agent-test-ran.txt"]) fs.rmSync(inFolder(name), { force: true });
  });

  async function send(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
  }

  it("approves the reads and edits, allows npm test for good, keeps the edits, then restores all of it at once", async () => {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("demo");
    await send(`Document \`${FILES[0]}\`, \`${FILES[1]}\` and \`${FILES[2]}\`, then run \`npm test\``);

    // Three reads and three edits ask one by one; the command's card offers the rule.
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    const always = chat.getByRole("button", { name: "Always allow this command…" });
    let approved = 0;
    while (true) {
      await approve.or(always).first().waitFor({ timeout: 60_000 });
      if (await always.isVisible()) break;
      await approve.first().click();
      approved += 1;
      assert.ok(approved <= 6, "no more than three reads and three edits ask");
      await waitUntil(async () => !(await approve.first().isDisabled().catch(() => false)), "the next card is ready");
    }
    assert.equal(approved, 6);
    await workbench().panelScreenshot("agent-turn-01-command-card");
    await always.click();
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /\{"pattern":"npm test","match":"exact"\}/);
    await dialog.getByRole("button", { name: "Write rule and run" }).click();
    await chat.getByText(/Then I ran npm test/).first().waitFor({ timeout: 90_000 });
    await waitUntil(() => fs.existsSync(inFolder("agent-test-ran.txt")), "npm test wrote its file");

    // The edits wait in the editor; keeping them all saves the three files.
    await workbench().runCommand("Relay Chat: Show Files to Review");
    await workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: "Keep all changes in every file" }).click();
    for (const name of FILES) await waitUntil(() => fs.readFileSync(inFolder(name), "utf8").startsWith("// Reviewed with Relay Chat's demo model."), `${name} is saved with the edit`);
    await waitUntil(async () => (await workbench().page.locator(".codelens-decoration a", { hasText: "Keep" }).count()) === 0, "no Keep / Undo lens is left in the editor");

    const changes = chat.locator(".turn-changes").last();
    await changes.waitFor({ timeout: 60_000 });
    assert.match(await changes.innerText(), /4 files changed/);
    await workbench().panelScreenshot("agent-turn-02-files-changed");

    await changes.getByRole("button", { name: "Restore files to before this turn" }).click();
    await dialog.waitFor({ timeout: 30_000 });
    const plan = await dialog.innerText();
    for (const name of FILES) assert.match(plan, new RegExp(name.replace(".", "\\.")));
    assert.match(plan, /agent-test-ran\.txt/);
    await workbench().screenshot("agent-turn-03-restore-dialog");
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await waitUntil(() => !fs.existsSync(inFolder("agent-test-ran.txt")), "the command's file is gone");
    for (const name of FILES) await waitUntil(() => fs.readFileSync(inFolder(name), "utf8") === ORIGINAL(name), `${name} is as it was`);
    // The files are back on disk before the restore is done (open editors reverted, the model's note recorded):
    // its notification says when it is, as a person sees it. Sending before that would tell the model "kept".
    await waitUntil(async () => (await workbench().notificationMessages()).some((text) => /^Restored \d+ file/.test(text)), "the restore to finish", 60_000);
    if (await workbench().page.locator(".notifications-center").isVisible()) await workbench().page.locator('[id="status.notifications"]').click();

    // The rule written from the card holds: npm test runs without asking.
    await send("Please run `npm test`");
    await chat.getByText('Ran without asking: your rule run_command allow "npm test" (exact)').first().waitFor({ timeout: 90_000 });
    await waitUntil(() => fs.existsSync(inFolder("agent-test-ran.txt")), "npm test ran by the rule");
    await workbench().panelScreenshot("agent-turn-04-ran-by-rule");

    // The model was told, with that message, that the person restored what it had changed; the panel shows it too.
    const note = chat.locator(".turn").last().locator(".review-note");
    await note.locator("summary").click();
    const shown = await note.innerText();
    for (const name of [...FILES, "agent-test-ran.txt"]) assert.match(shown, new RegExp(`${name.replace(".", "\\.")}: restored by the user`));
    if (controlUrl) {
      const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: { input?: Array<{ role?: string; content?: unknown }> } }>;
      const last = received.filter((request) => request.method === "POST" && request.path === "/v1/responses").at(-1);
      const userTexts = (last?.body.input ?? []).filter((item) => item.role === "user").map((item) => String(item.content));
      assert.ok(userTexts.some((text) => text.startsWith("[Relay Chat: what the user did with your changes to files") && text.includes("agent-a.js: restored")), "the request carried the note");
    }
    await workbench().panelScreenshot("agent-turn-05-told-the-model");
  });
});
