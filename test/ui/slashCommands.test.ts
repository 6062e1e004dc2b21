// Slash commands in a real VS Code (code-server): a prompt file in the opened folder shows in the `/` menu of
// the chat's message box with its description; picking it with the keyboard and sending runs it, and the
// emulator records the file's text in the request's instructions. Screenshot: test-results/ui/slash-*.png.
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FrameLocator } from "playwright-core";
import { uiEnvironment, workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";
const enabled = Boolean(controlUrl) && process.env.RELAY_CHAT_UI_CHAT !== "0";

async function lastInstructions(): Promise<string> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: { instructions?: string } }>;
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses").at(-1)?.body.instructions ?? "";
}

(enabled ? describe : describe.skip)("slash commands in the workbench: the / menu runs a prompt file", function () {
  this.timeout(180_000);
  const promptFolder = path.join(uiEnvironment().folder, ".github", "prompts");
  before(() => {
    mkdirSync(promptFolder, { recursive: true });
    writeFileSync(path.join(promptFolder, "ui-review.prompt.md"), "---\ndescription: Review for the UI test\n---\nReview ${input:file} (UI test prompt file).\n");
  });
  after(() => rmSync(path.join(uiEnvironment().folder, ".github"), { recursive: true, force: true }));
  const workbench = workbenchForSuite("slash");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("lists the prompt file under /, puts it in the box with the keyboard, and sends its text as instructions", async () => {
    await workbench().newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.click();
    await message.pressSequentially("/");
    await chat.getByRole("listbox", { name: "Slash commands" }).getByRole("option", { name: /ui-review/ }).waitFor({ timeout: 30_000 });
    await workbench().panelScreenshot("slash-00-all");
    await message.pressSequentially("ui-r");
    const option = chat.getByRole("listbox", { name: "Slash commands" }).getByRole("option").first();
    await option.waitFor({ timeout: 30_000 });
    assert.match(await option.innerText(), /\/ui-review.*Review for the UI test.*Workspace prompt file/s);
    await workbench().panelScreenshot("slash-01-menu");
    await message.press("Enter");
    assert.equal(await message.inputValue(), "/ui-review ");
    await message.pressSequentially("file=hello.ts");
    await message.press("Enter");
    const details = chat.getByRole("region", { name: "Turn details" }).last();
    await details.getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    assert.ok((await lastInstructions()).includes("Review hello.ts (UI test prompt file)."), "the prompt file's text with its argument went as instructions");
    await workbench().panelScreenshot("slash-02-sent");
  });
});
