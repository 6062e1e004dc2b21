// A file name in an answer, as a person meets it (issue 19): the emulator's "tools" model answers with
// "Tool result: README.md (lines ...)"; README.md is a file of the test workspace, so it is a link that opens
// the file in the editor (not a web address). Screenshot: test-results/ui/answer-file-link.png.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";

(enabled ? describe : describe.skip)("a workspace file named in an answer", function () {
  this.timeout(120_000);
  const workbench = workbenchForSuite("answer-file-link");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat();
  });

  it("is a link that opens the file in the editor", async () => {
    await workbench().newChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("tools");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill("Read the readme");
    await message.press("Enter");
    const approve = chat.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 60_000 });
    await approve.click();
    const link = chat.locator(".answer a.file-reference", { hasText: "README.md" }).first();
    await link.waitFor({ timeout: 60_000 });
    assert.equal(await chat.locator(".answer a[data-href]").count(), 0, "no web link was made of the file name");
    await link.click();
    await workbench().page.locator(".tabs-container .tab.active", { hasText: "README.md" }).waitFor({ timeout: 30_000 });
    await workbench().screenshot("answer-file-link");
  });
});
