// What goes with a message besides its text, in a real VS Code (code-server). A screenshot pasted into the
// message box: the paste is a real paste event in the chat's webview frame (a DataTransfer holding a PNG
// file, as the clipboard gives it), and the emulator records the request's `input_image` parts; the sent
// message shows the image as a thumbnail, served under the view's CSP. The active editor's file: offered
// as a chip, sent with the message, and left out after one click on the chip's close button.
// Screenshots: test-results/ui/images-*.png and context-*.png.
import * as assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";
const enabled = Boolean(controlUrl) && process.env.RELAY_CHAT_UI_CHAT !== "0";

async function responsesPosts(): Promise<Array<{ inputImages: string[]; body: unknown }>> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; inputImages: string[]; body: unknown }>;
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
}

(enabled ? describe : describe.skip)("the composer's context in the workbench: a pasted image, the active file", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("context");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("pastes a screenshot into the message box and sends it as an input_image part", async () => {
    // The demo model says what it received: the image's kind and size, read from the data URL.
    await chat.getByRole("combobox", { name: "Model" }).selectOption("demo");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.click();
    // The webview's own paste handling: a clipboard paste event carrying a PNG file, made in the frame.
    await message.evaluate(async (box) => {
      const canvas = new OffscreenCanvas(320, 200);
      const context = canvas.getContext("2d");
      if (context === null) throw new Error("no 2d context");
      context.fillStyle = "#1e6fd9";
      context.fillRect(0, 0, 320, 200);
      context.fillStyle = "#ffffff";
      context.fillRect(40, 40, 240, 120);
      const blob = await canvas.convertToBlob({ type: "image/png" });
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], "screenshot.png", { type: "image/png" }));
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    });
    await chat.locator(".image-thumbnail img").waitFor({ timeout: 30_000 });
    await workbench().screenshot("images-01-pasted");

    const before = (await responsesPosts()).length;
    await message.fill("What is in this screenshot?");
    await message.press("Enter");
    const details = chat.getByRole("region", { name: "Turn details" }).last();
    await details.getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    const posts = await responsesPosts();
    assert.equal(posts.length, before + 1, "one request");
    assert.deepEqual(posts.at(-1)?.inputImages, ["image/png"], "the relay got the image as an input_image data URL");
    await chat.getByText("a PNG image, 320 × 200 pixels").first().waitFor({ timeout: 30_000 });

    // The sent message shows it as a thumbnail (a data URL the extension served), which opens large.
    const thumbnail = chat.locator(".sent-images img").last();
    await thumbnail.waitFor({ timeout: 30_000 });
    await chat.locator(".sent-images").last().evaluate(async (strip) => {
      const image = strip.querySelector("img");
      for (let waited = 0; waited < 10_000 && !(image?.complete && image.naturalWidth > 0); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    });
    assert.equal(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth), 320, "the thumbnail loaded under the view's CSP");
    await chat.getByRole("button", { name: "View Image 1 large" }).last().click();
    await chat.locator("dialog.image-viewer").waitFor({ state: "visible", timeout: 10_000 });
    await workbench().screenshot("images-02-sent-and-opened");
    await chat.locator("dialog.image-viewer").press("Escape");
    await chat.locator("dialog.image-viewer").waitFor({ state: "hidden", timeout: 10_000 });
  });

  it("sends the active editor's file with the message until its chip is removed", async () => {
    await workbench().runCommand("Go to File...");
    const quickOpen = workbench().page.locator(".quick-input-widget input");
    await quickOpen.fill("README.md");
    await workbench().page.locator(".quick-input-list .monaco-list-row", { hasText: "README.md" }).first().waitFor({ timeout: 30_000 });
    await quickOpen.press("Enter");
    await workbench().page.locator(".tabs-container .tab", { hasText: "README.md" }).first().waitFor({ timeout: 30_000 });
    const chip = chat.locator(".chip.active-file");
    await chip.waitFor({ timeout: 30_000 });
    assert.match(await chip.innerText(), /README\.md\s*Current file/);
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("echo");
    await workbench().screenshot("context-01-current-file");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Summarize the open file");
    await message.press("Enter");
    await chat.getByRole("region", { name: "Turn details" }).last().getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    assert.match(JSON.stringify((await responsesPosts()).at(-1)?.body), /# Sample workspace/, "the file went with the message");
    assert.equal(await chat.locator(".sent-attachments .chip").last().innerText(), "README.md");

    await chat.getByRole("button", { name: "Remove README.md" }).click();
    await chip.waitFor({ state: "detached", timeout: 10_000 });
    await message.fill("And without it?");
    await message.press("Enter");
    await chat.getByText("You said: And without it?").first().waitFor({ timeout: 60_000 });
    const input = ((await responsesPosts()).at(-1)?.body as { input: unknown[] }).input;
    assert.deepEqual(input.at(-1), { type: "message", role: "user", content: "And without it?" }, "the new message goes without the file");
    await workbench().runCommand("View: Close All Editors");
  });

  it("lists the workspace's AGENTS.md in the Rules chip, and a file switched off there is not sent", async () => {
    const rulesFile = path.join(process.env.RELAY_CHAT_UI_FOLDER ?? "", "AGENTS.md");
    const receipts = chat.getByRole("region", { name: "Turn details" });
    const sendAndWait = async (text: string) => {
      const before = await receipts.count();
      await message.fill(text);
      await message.press("Enter");
      await receipts.nth(before).getByText(/completed/i).first().waitFor({ timeout: 60_000 });
      return String(((await responsesPosts()).at(-1)?.body as { instructions?: string }).instructions);
    };
    const message = chat.getByRole("textbox", { name: "Message" });
    await fs.writeFile(rulesFile, "# Rules from the UI test\n\nAnswer in one sentence.\n");
    try {
      await workbench().newChat();
      await chat.getByRole("combobox", { name: "Model" }).selectOption("demo");
      const chip = chat.locator(".rules-chip");
      await chip.getByText("1 rules file").waitFor({ timeout: 30_000 });
      await chip.click();
      const row = chat.locator(".rules-popup .rules-file", { hasText: "AGENTS.md" });
      await row.waitFor({ timeout: 10_000 });
      await workbench().panelScreenshot("context-02-rules-chip");
      await row.locator("input").press("Escape");
      await row.waitFor({ state: "hidden", timeout: 10_000 });

      assert.match(await sendAndWait("what are my rules?"), /Answer in one sentence/, "the rules file went as instructions");

      await chip.click();
      await row.locator("input").uncheck();
      await chip.getByText("0 rules files").waitFor({ timeout: 10_000 });
      const instructions = await sendAndWait("and now?");
      assert.doesNotMatch(instructions, /Answer in one sentence/, "switched off: not sent");
      assert.match(instructions, /You are a coding assistant in Relay Chat/, "the base instruction still goes");
    } finally {
      await fs.rm(rulesFile, { force: true });
    }
    await chat.locator(".rules-chip").waitFor({ state: "hidden", timeout: 30_000 });
  });
});
