// A long conversation opened again from History in a real VS Code (code-server): its older turns come brief
// (the message and the state), and their answers and receipts arrive as they scroll into view.
// Run with: node scripts/vscode/runUiTests.mjs --grep "long conversation opened from History"
// Screenshots: test-results/ui/long-conversation-*.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0";
/** More than the turns an open sends whole (src/panel/turns/briefTurn.ts WHOLE_TURNS_AT_OPEN), each answer long enough to go brief. */
const TURNS = 13;

(enabled ? describe : describe.skip)("a long conversation opened from History", function () {
  this.timeout(420_000);
  const workbench = workbenchForSuite("long-conversation");
  const stamp = Date.now().toString(36);
  const question = (index: number) => `Question ${index} ${stamp}: ${"lorem ipsum dolor ".repeat(80)}`;
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("shows the older turns' answers and receipts as they scroll into view", async () => {
    await workbench().newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    const send = chat.getByRole("button", { name: "Send", exact: true });
    for (let index = 1; index <= TURNS; index += 1) {
      // The receipt shows a moment before the panel is idle again: Send is back (in Stop's place) once it is.
      await send.waitFor({ timeout: 60_000 });
      await message.fill(question(index));
      await message.press("Enter");
      await chat.getByRole("region", { name: "Turn details" }).nth(index - 1).waitFor({ timeout: 60_000 });
    }
    await workbench().newChat();
    await workbench().viewAction("Show Chat History").click();
    const history = chat.getByRole("region", { name: "Chat history" });
    await history.waitFor({ timeout: 30_000 });
    await history.getByRole("searchbox", { name: "Filter conversations" }).fill(stamp);
    await history.getByRole("button", { name: new RegExp(`Question 1 ${stamp}`) }).first().click();
    await chat.getByText(`You said: Question ${TURNS} ${stamp}:`).first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.locator(".turn").count(), TURNS);

    // The oldest turn: its message at once, its answer and receipt once it is near.
    const oldest = chat.locator(".turn").first();
    await oldest.scrollIntoViewIfNeeded();
    await oldest.getByText(`You said: Question 1 ${stamp}:`).waitFor({ timeout: 30_000 });
    const details = oldest.getByRole("region", { name: "Turn details" });
    await details.waitFor({ timeout: 30_000 });
    assert.match(await details.innerText(), /completed/i);
    assert.equal(await chat.locator(".turn.brief").count(), 0, "every turn came whole soon after the open");
    await workbench().panelScreenshot("long-conversation-oldest-turn");
  });
});
