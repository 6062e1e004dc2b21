// The redesigned panel in a real VS Code (code-server), at a narrow and a wide side bar, in the dark and
// the light theme: a streamed answer, a tool approval, a denied call, an error, a `#` file pick sent with
// the message, the history filter, and receipts expanding. Each step checks the layout (the document never
// scrolls, nothing is wider than the panel, no button label wraps) and leaves a screenshot in
// test-results/ui/ for a person to look at.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { panelLayoutProblems } from "../webview/support/panelLayoutProblems";
import { workbenchForSuite } from "./workbench";

const widths = [280, 480];

// The README shows these; RELAY_CHAT_UPDATE_SCREENSHOTS=1 re-encodes them as docs/images/*.webp at the README's width.
const readmeScreenshots = new Set(["layout-480-dark-1-answer", "layout-280-light-2-approval", "layout-480-dark-3-error", "layout-280-dark-4-file-picker", "layout-480-light-6-history"]);
const themes: Array<[string, string]> = [
  ["dark", "Dark 2026"],
  ["light", "Light 2026"],
];

async function layoutProblems(chat: FrameLocator): Promise<string[]> {
  return chat.locator("body").evaluate(panelLayoutProblems);
}

describe("Relay Chat panel layout in the workbench", function () {
  this.timeout(240_000);
  const workbench = workbenchForSuite("layout");
  let chat: FrameLocator;

  before(async () => {
    await workbench().activityBarEntry("Relay Chat").waitFor({ timeout: 60_000 });
    chat = await workbench().openRelayChat();
  });

  async function checkLayout(what: string): Promise<void> {
    assert.deepEqual(await layoutProblems(chat), [], what);
  }

  async function send(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
  }

  async function newChat(model: string): Promise<void> {
    await workbench().newChat();
    await chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" }).selectOption(model);
  }

  for (const width of widths) {
    for (const [themeName, theme] of themes) {
      const shot = async (step: string) => {
        const name = `layout-${width}-${themeName}-${step}`;
        const file = await workbench().panelScreenshot(name);
        if (process.env.RELAY_CHAT_UPDATE_SCREENSHOTS && readmeScreenshots.has(name)) {
          const repoRoot = path.resolve(__dirname, "..", "..");
          execFileSync(process.execPath, [path.join(repoRoot, "scripts", "readmeImages.mjs"), `${file}=${name.replace(/^layout-/, "panel-")}`], { cwd: repoRoot, stdio: "inherit" });
        }
      };

      it(`at ${width} px in ${theme}: streams an answer, keeps one scroll region, expands its receipt`, async () => {
        await workbench().setSidebarWidth(width);
        await workbench().setColorTheme(theme);
        const viewWidth = await chat.locator("body").evaluate(() => document.documentElement.clientWidth);
        assert.ok(Math.abs(viewWidth - width) <= 24, `the chat view is ${viewWidth} px wide`);
        await newChat("demo");
        await send("Show me what you can do");
        const details = chat.getByRole("region", { name: "Turn details" }).last();
        await chat.locator(".turn-progress").last().waitFor({ state: "hidden", timeout: 60_000 });
        await details.filter({ hasText: "completed" }).waitFor({ timeout: 60_000 });
        assert.equal(await details.locator(".receipt-details").isVisible(), false, "collapsed at first");
        await details.getByRole("button", { name: "Show request details" }).click();
        assert.match(await details.locator(".receipt-details").innerText(), /Request id\s+req_/);
        await checkLayout("the streamed answer");
        await chat.locator(".scroller").evaluate((node) => (node.scrollTop = node.scrollHeight));
        await checkLayout("scrolled to the end");
        await shot("1-answer");
      });

      it(`at ${width} px in ${theme}: asks before a tool runs and says when it was denied`, async () => {
        await newChat("tools");
        await send("Please read a file");
        const deny = chat.getByRole("button", { name: "Deny", exact: true });
        await deny.waitFor({ timeout: 60_000 });
        assert.ok(await chat.getByRole("button", { name: "Approve", exact: true }).isVisible());
        await checkLayout("the approval");
        await shot("2-approval");
        await deny.click();
        const card = chat.locator(".tool-card").last();
        await card.waitFor({ timeout: 60_000 });
        await card.getByText("Result").click();
        assert.match(await card.innerText(), /declined/i, "the model was told the call was declined");
        await chat.locator(".turn-progress").last().waitFor({ state: "hidden", timeout: 60_000 });
        await checkLayout("the denied call");
      });

      it(`at ${width} px in ${theme}: shows an error once, in its turn, with the fix that fits`, async () => {
        await workbench().newChat();
        await workbench().runCommand("Relay Chat: Select Model");
        await workbench().answerInput("no-such-model");
        await chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" }).locator("option", { hasText: "no-such-model" }).waitFor({ state: "attached", timeout: 30_000 });
        await send("Which model answers?");
        // Waits for the error's text, not only its element: under load the element can be drawn a moment before its words.
        const state = chat.locator(".turn-state.tone-error", { hasText: /HTTP 404/ }).last();
        await state.waitFor({ timeout: 60_000 });
        assert.match(await state.innerText(), /HTTP 404/);
        assert.ok(await state.getByRole("button", { name: "Pick another model" }).isVisible());
        assert.equal(await chat.locator(".panel-notice").isVisible(), false, "not repeated above the messages");
        await checkLayout("the error");
        await shot("3-error");
        await chat.locator(".composer-toolbar").getByRole("combobox", { name: "Model" }).selectOption("echo");
      });

      it(`at ${width} px in ${theme}: sends a file picked with # and shows it on the message`, async () => {
        await newChat("echo");
        const message = chat.getByRole("textbox", { name: "Message" });
        await message.pressSequentially("#READ");
        const option = chat.getByRole("listbox", { name: "Context to attach" }).getByRole("option", { name: /README\.md/ });
        await option.waitFor({ timeout: 30_000 });
        await checkLayout("the file picker");
        await shot("4-file-picker");
        await message.press("Enter");
        await chat.locator(".composer-chips .chip", { hasText: "README.md" }).waitFor({ timeout: 30_000 });
        await message.pressSequentially("What is in this file?");
        await message.press("Enter");
        await chat.getByText(/Sample workspace/).first().waitFor({ timeout: 60_000 });
        // The turn list redraws as the answer settles: wait for the sent turn's text rather than read it at once.
        await chat.locator(".turn").last().locator(".user-text", { hasText: /^What is in this file\?$/ }).waitFor({ timeout: 30_000 });
        assert.ok(await chat.locator(".turn").last().locator(".sent-attachments .chip", { hasText: "README.md" }).isVisible());
        await checkLayout("the sent file");
        await shot("5-file-sent");
      });

      it(`at ${width} px in ${theme}: filters the history by typing`, async () => {
        await workbench().viewAction("Show Chat History").click();
        const history = chat.getByRole("region", { name: "Chat history" });
        await history.waitFor({ timeout: 30_000 });
        await history.getByRole("searchbox", { name: "Filter conversations" }).fill("file");
        const titles = await history.locator(".history-entry-title").allInnerTexts();
        assert.ok(titles.length > 0 && titles.every((title) => /file/i.test(title)), `filtered: ${titles.join(" | ")}`);
        await checkLayout("the history");
        await shot("6-history");
        await chat.locator("body").press("Escape");
        await history.waitFor({ state: "hidden" });
      });
    }
  }
});
