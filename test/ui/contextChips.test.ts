// Context chips in a real VS Code (code-server): a chip opens to show exactly what it adds to the request, before
// sending and on the sent message, and the relay emulator received those very bytes in the person's message.
// Problems and a workspace file are attached with `#` as a person does. Screenshots: test-results/ui/chips-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";
const enabled = Boolean(controlUrl) && process.env.RELAY_CHAT_UI_CHAT !== "0";

/** The user message of the last Responses request, as the emulator received it. */
async function lastUserMessage(): Promise<string> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body?: { input?: Array<{ role?: string; content?: unknown }> } }>;
  const post = received.filter((request) => request.method === "POST" && request.path === "/v1/responses").at(-1);
  const input = post?.body?.input ?? [];
  return String(input.filter((item) => item.role === "user").at(-1)?.content);
}

(enabled ? describe : describe.skip)("context chips in the workbench: opened, they show what the relay gets", function () {
  this.timeout(240_000);
  const workbench = workbenchForSuite("chips");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  async function peekText(): Promise<string> {
    const text = chat.locator(".attachment-peek pre");
    await text.waitFor({ timeout: 30_000 });
    for (const deadline = Date.now() + 30_000; (await text.textContent()) === "…" && Date.now() < deadline; ) await workbench().page.waitForTimeout(100);
    return (await text.textContent()) ?? "";
  }

  async function attachWithHash(query: string, chipLabel: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.pressSequentially(`#${query}`);
    await chat.locator(".file-option").first().waitFor({ timeout: 30_000 });
    await message.press("Enter");
    await chat.locator(".composer-chips .chip", { hasText: chipLabel }).waitFor({ timeout: 30_000 });
  }

  it("opens a Problems chip and a file chip before sending and on the sent message, with the bytes the relay received", async () => {
    await workbench().runCommand("View: Close All Editors");
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("echo");
    await attachWithHash("problems", "Problems");
    await attachWithHash("README", "README.md");

    const shown: string[] = [];
    for (const label of ["Problems", "README.md"]) {
      const opener = chat.locator(".composer-chips").getByRole("button", { name: `Show what ${label} adds to the message` });
      await opener.click();
      const text = await peekText();
      assert.ok(text.startsWith(`<attachment kind="${label === "Problems" ? "problems" : "file"}" label="${label}">`), text.slice(0, 200));
      assert.match((await chat.locator(".attachment-peek .attachment-peek-tokens").textContent()) ?? "", /^≈\d+ tokens$/);
      shown.push(text);
      if (label === "README.md") await workbench().panelScreenshot("chips-01-opened-before-sending");
      await opener.click();
      await chat.locator(".attachment-peek").waitFor({ state: "detached", timeout: 10_000 });
    }
    assert.match(shown[1] ?? "", /# Sample workspace/, "the file's own text");

    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("what do these say?");
    await message.press("Enter");
    await chat.getByRole("region", { name: "Turn details" }).last().getByText(/completed/i).first().waitFor({ timeout: 60_000 });
    assert.equal(await lastUserMessage(), ["what do these say?", ...shown].join("\n\n"), "the relay got the question and exactly the blocks the chips showed");

    for (const [index, label] of ["Problems", "README.md"].entries()) {
      const opener = chat.locator(".turn").last().locator(".sent-attachments").getByRole("button", { name: `Show what ${label} adds to the message` });
      await opener.click();
      assert.equal(await peekText(), shown[index], `the sent ${label} chip shows what was sent`);
      if (index === 1) await workbench().panelScreenshot("chips-02-opened-on-the-sent-message");
      await opener.click();
    }
  });
});
