// A long conversation in a real VS Code (code-server): against the emulator's small-window model (a 16,000
// token window, test/emulator/scriptedModels.ts) the relay refuses a message for its length, the person
// clicks Summarize earlier turns, retries the message and asks the next question, and both are answered.
// Screenshots: test-results/ui/compaction-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0";
/** About 1,000 tokens per message; echoed, a turn is about 2,000: the ninth message passes the window. */
const question = (index: number) => `Question ${index}: ${"lorem ipsum dolor ".repeat(220)}`;
const ANSWERED_TURNS = 8;

(enabled ? describe : describe.skip)("a long conversation in the workbench", function () {
  this.timeout(300_000);
  const workbench = workbenchForSuite("compaction");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  async function ask(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
  }

  it("reaches the model's context window, summarizes earlier turns on request, and goes on", async () => {
    await chat.getByRole("combobox", { name: "Model" }).selectOption("small-window");
    await workbench().newChat();
    for (let index = 1; index <= ANSWERED_TURNS; index += 1) {
      await ask(question(index));
      await chat.getByText(`You said: Question ${index}:`).first().waitFor({ timeout: 60_000 });
      await chat.getByRole("region", { name: "Turn details" }).nth(index - 1).waitFor({ timeout: 60_000 });
    }
    await ask(question(ANSWERED_TURNS + 1));
    const refused = chat.locator(".turn").last();
    await refused.getByRole("button", { name: "Summarize earlier turns" }).waitFor({ timeout: 60_000 });
    assert.match(await refused.innerText(), /context window/);
    const offer = chat.locator(".compaction-offer");
    await offer.waitFor();
    await workbench().panelScreenshot("compaction-01-refused-and-offered");

    await offer.getByRole("button", { name: "Summarize earlier turns" }).click();
    const summary = chat.locator(".turn-summary");
    await summary.waitFor({ timeout: 60_000 });
    // Turns far from view are not laid out (content-visibility): bring the group into view to read it.
    await summary.scrollIntoViewIfNeeded();
    assert.equal((await summary.locator("summary").textContent())?.trim(), "Summarized: 4 earlier turns");
    await offer.waitFor({ state: "detached" });
    await summary.locator("summary").click();
    assert.match((await summary.textContent()) ?? "", /Replaced 4 turns: the next request is about [\d,]+ input tokens instead of [\d,]+/);
    await workbench().panelScreenshot("compaction-02-summarized");

    await refused.getByRole("button", { name: "Retry" }).click();
    await chat.getByText(`You said: Question ${ANSWERED_TURNS + 1}:`).first().waitFor({ timeout: 60_000 });
    await ask("And the next question?");
    await chat.getByText("You said: And the next question?").first().waitFor({ timeout: 60_000 });
    const last = chat.getByRole("region", { name: "Turn details" }).last();
    // The answer's text streams before its receipt says how the request ended.
    await last.getByText(/completed/i).first().waitFor({ timeout: 30_000 });
    assert.match(await last.innerText(), /completed/i);
    await workbench().panelScreenshot("compaction-03-answered-after-summary");
  });
});
