import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AttachmentTarget, AttachmentTextView } from "../../src/panel/protocol";
import { panelState, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import type { PanelPage } from "./support/panelHarness";
import { freshPanelPerTest } from "./support/panelTestHooks";

// A chip opens to show exactly what it adds to the request: the page asks the host (`openAttachment`) and shows
// the block it answers as text, byte for byte, with its token estimate; before sending above the message box,
// after sending under the message's chips. At the side bar widths people use (280, 300 and 480 px) it stays
// inside the panel. Screenshots: test-results/webview/chip-peek-*.png.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

const terminalBlock = [
  '<attachment kind="terminal" label="Terminal bash">',
  "````",
  "$ printf 'const x: number = \"a\";\\n' > bad.ts && echo wrote && ls -la /a/very/long/path/that/does/not/fit/in/a/narrow/side/bar/at/all",
  '(terminal "bash", in /home/person/project, exit code 0)',
  "wrote",
  "  two  spaces\tand a tab, <b>not bold</b> & ```",
  "````",
  "</attachment>",
].join("\n");

const attachments = [
  { id: "a1", label: "Terminal bash", kind: "terminal" as const },
  { id: "a2", label: "Problems in src/panel/a/very/long/folder/name/chatController.ts", kind: "problems" as const, note: "The first 200 of 240 problems are listed." },
  { id: "a3", label: "Changes", kind: "changes" as const },
];

describe("Chat panel webview: opening a chip (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  async function answer(page: PanelPage, target: AttachmentTarget, attachment: AttachmentTextView | null): Promise<void> {
    await page.send({ type: "attachmentText", target, attachment });
  }

  for (const width of [280, 300, 480]) {
    it(`shows a waiting chip's and a sent chip's exact text inside a ${width} px side bar`, async () => {
      const panel = await current.harness().open({ width, height: 700, theme: "dark" });
      try {
        const { page } = panel;
        const sent = turn("t1", { userText: "Why does the build fail?", attachments: [{ kind: "changes", label: "Changes" }, { kind: "terminal", label: "Terminal bash" }] });
        await panel.sendState(panelState({ turns: [sent], attachments, activeFileOffer: { label: "src/app.ts" } }));
        await panel.clearPosted();
        const overflowing = await page.evaluate(() => {
          const row = document.querySelector(".composer-chips")!.getBoundingClientRect();
          return Array.from(document.querySelectorAll(".composer-chips .chip, .composer-chips .chip > *"))
            .filter((node) => node.getBoundingClientRect().right > row.right + 0.5)
            .map((node) => node.className);
        });
        assert.deepEqual(overflowing, [], "every chip, its label and its remove button inside the message box");

        const opener = page.locator(".composer-chips .chip", { hasText: "Terminal bash" }).getByRole("button", { name: "Show what Terminal bash adds to the message" });
        await opener.click();
        assert.deepEqual(await panel.posted(), [{ type: "openAttachment", target: { place: "pending", id: "a1" } }]);
        assert.equal(await opener.getAttribute("aria-expanded"), "true");
        const peek = page.getByRole("region", { name: "What Terminal bash adds to the message" });
        assert.equal(await peek.isVisible(), true);
        await answer(panel, { place: "pending", id: "a1" }, { kind: "terminal", label: "Terminal bash", text: terminalBlock, tokens: Math.ceil(terminalBlock.length / 4) });
        assert.equal(await peek.locator("pre").evaluate((node) => node.textContent), terminalBlock, "the text byte for byte, markup shown as text");
        assert.equal(await peek.locator(".attachment-peek-tokens").textContent(), `≈${Math.ceil(terminalBlock.length / 4)} tokens`);
        assert.match((await peek.textContent()) ?? "", /Goes to the model inside your message, exactly as below\./);
        assert.deepEqual(await page.evaluate(panelLayoutProblems), [], "the peek fits the side bar");
        const box = await peek.boundingBox();
        assert.ok(box !== null && box.x >= 0 && box.x + box.width <= width + 0.5 && box.y >= 0, `inside the panel: ${JSON.stringify(box)}`);
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: join(screenshots, `chip-peek-${width}-waiting.png`) });

        // Escape closes it and gives the chip the focus back; an answer that comes late changes nothing.
        await peek.locator("pre").focus();
        await page.keyboard.press("Escape");
        assert.equal(await peek.count(), 0);
        assert.equal(await opener.evaluate((node) => node === document.activeElement), true);
        assert.equal(await opener.getAttribute("aria-expanded"), "false");
        await answer(panel, { place: "pending", id: "a1" }, { kind: "terminal", label: "Terminal bash", text: "late", tokens: 1 });
        assert.equal(await page.locator(".attachment-peek").count(), 0);

        // The note says what was cut; a chip the host no longer has says so.
        await panel.clearPosted();
        await page.getByRole("button", { name: /^Show what Problems in src/ }).click();
        await answer(panel, { place: "pending", id: "a2" }, { kind: "problems", label: attachments[1]!.label, text: "<attachment …>", tokens: 4, note: attachments[1]!.note });
        assert.match((await page.locator(".attachment-peek").textContent()) ?? "", /The first 200 of 240 problems are listed\./);
        await page.locator(".composer-chips").getByRole("button", { name: "Show what Changes adds to the message" }).click();
        assert.equal(await page.locator(".attachment-peek").count(), 1, "one peek at a time");
        await answer(panel, { place: "pending", id: "a3" }, null);
        assert.match((await page.locator(".attachment-peek").textContent()) ?? "", /This attachment is not there any more\./);
        assert.deepEqual(await panel.posted(), [
          { type: "openAttachment", target: { place: "pending", id: "a2" } },
          { type: "openAttachment", target: { place: "pending", id: "a3" } },
        ]);

        // The active editor's file opens too; sending it (the chips go) closes the peek.
        await panel.clearPosted();
        await page.getByRole("button", { name: "Show what src/app.ts adds to the message" }).click();
        assert.deepEqual(await panel.posted(), [{ type: "openAttachment", target: { place: "activeFile" } }]);
        await panel.sendPatch({ kind: "fields", fields: { attachments: [], activeFileOffer: null } });
        assert.equal(await page.locator(".attachment-peek").count(), 0, "the chip went with the message: its peek closes");

        // A sent message's chip opens under the message.
        await panel.clearPosted();
        const sentOpener = page.locator(".sent-attachments").getByRole("button", { name: "Show what Terminal bash adds to the message" });
        await sentOpener.click();
        assert.deepEqual(await panel.posted(), [{ type: "openAttachment", target: { place: "sent", turnId: "t1", index: 1 } }]);
        await answer(panel, { place: "sent", turnId: "t1", index: 1 }, { kind: "terminal", label: "Terminal bash", text: terminalBlock, tokens: 80 });
        const sentPeek = page.locator(".user-message .attachment-peek");
        assert.equal(await sentPeek.locator("pre").evaluate((node) => node.textContent), terminalBlock);
        assert.match((await sentPeek.textContent()) ?? "", /Sent to the model inside this message, exactly as below\./);
        assert.equal(await sentPeek.evaluate((node) => node.previousElementSibling?.classList.contains("sent-attachments")), true, "right under the chips");
        assert.deepEqual(await page.evaluate(panelLayoutProblems), []);
        const sentBox = await sentPeek.boundingBox();
        assert.ok(sentBox !== null && sentBox.x + sentBox.width <= width + 0.5, `inside the panel: ${JSON.stringify(sentBox)}`);
        await page.screenshot({ path: join(screenshots, `chip-peek-${width}-sent.png`) });
        await sentOpener.click();
        assert.equal(await sentPeek.count(), 0, "its chip closes it again");
        assert.deepEqual(panel.pageErrors, []);
      } finally {
        await panel.page.close();
      }
    });
  }
});
