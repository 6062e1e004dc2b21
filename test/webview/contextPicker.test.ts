import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { panelState, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// The `#` menu's context entries beside files (Problems, Terminal, Changes, folders, symbols) and the chips
// they become: what is posted to the host for each pick, the chip's icon and tooltip (what was cut, or why a
// terminal could not be read), the sent turn's chips, and the layout at the narrowest side bar.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

describe("Chat panel webview: # context menu and chips (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  const options = (page: Page) => page.getByRole("listbox", { name: "Context to attach" }).getByRole("option");
  /** Each row as "name | the quieter text beside it". */
  const rows = (page: Page) => options(page).evaluateAll((nodes) => nodes.map((node) => `${node.querySelector(".file-name")?.textContent ?? ""} | ${node.querySelector(".file-folder")?.textContent ?? ""}`));

  it("offers Problems, Terminal and Changes first for an empty #, then files; Enter attaches the highlighted one", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const box = page.getByLabel("Message", { exact: true });
    await panel.clearPosted();
    await box.pressSequentially("Fix #");
    await panel.waitForPosted("findFiles");
    await panel.send({ type: "fileMatches", query: "", files: [{ path: "README.md" }] });
    assert.deepEqual(await rows(page), [
      "Problems | Diagnostics of the workspace",
      "Problems in the current file | ",
      "Terminal | The last command and its output",
      "Changes | git diff of the working tree",
      "README.md | ",
    ], "context entries first");
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "attachContext", source: "terminal" }], "Enter picks, it does not send");
    assert.equal(await box.inputValue(), "Fix ");
  });

  it("matches context entries by their words, and picks folders and symbols the host found", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const box = page.getByLabel("Message", { exact: true });
    await box.pressSequentially("#diff");
    await panel.waitForPosted("findFiles");
    await panel.send({ type: "fileMatches", query: "diff", files: [] });
    assert.deepEqual(await rows(page), ["Changes | git diff of the working tree"], "git diff finds Changes");
    await box.fill("");
    await box.pressSequentially("#greet");
    await panel.send({
      type: "fileMatches",
      query: "greet",
      files: [
        { path: "src/greeting", kind: "folder" },
        { path: "src/greeting/hello.ts" },
        { path: "src/greeting/hello.ts:3", kind: "symbol", name: "Greeter", detail: "class" },
      ],
    });
    assert.deepEqual(await rows(page), ["greeting/ | src", "hello.ts | src/greeting", "Greeter | class · src/greeting/hello.ts:3"]);
    assert.equal(await options(page).nth(0).locator(".codicon-folder").count(), 1);
    assert.equal(await options(page).nth(2).locator(".codicon-symbol-class").count(), 1);
    await panel.clearPosted();
    await options(page).nth(2).click();
    assert.deepEqual(await panel.posted(), [{ type: "attachContext", source: "symbol", path: "src/greeting/hello.ts:3", name: "Greeter" }]);
    await box.pressSequentially("#greet");
    await panel.send({ type: "fileMatches", query: "greet", files: [{ path: "src/greeting", kind: "folder" }] });
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "attachContext", source: "folder", path: "src/greeting" }]);
  });

  it("shows each context as a chip with its icon and note, removable, and in the sent turn", async () => {
    const { page } = panel;
    const attachments = [
      { id: "a1", label: "Problems", kind: "problems" as const },
      { id: "a2", label: "Terminal bash", kind: "terminal" as const, note: "The terminal has no shell integration, so its commands and output cannot be read; the model is told so." },
      { id: "a3", label: "Changes", kind: "changes" as const, note: "The diff is long and was cut; the cut is said at its end." },
      { id: "a4", label: "src/", kind: "folder" as const },
      { id: "a5", label: "Greeter (src/greeting/hello.ts:3)", kind: "symbol" as const },
    ];
    await panel.sendState(panelState({ attachments }));
    const chips = page.locator(".composer-chips .chip");
    assert.equal(await chips.count(), 5);
    const icons = await chips.evaluateAll((nodes) => nodes.map((node) => node.querySelector(".codicon")?.className ?? ""));
    assert.deepEqual(icons.map((name) => /codicon-([\w-]+)/.exec(name)?.[1]), ["warning", "terminal", "git-compare", "folder", "symbol-class"]);
    assert.equal(await chips.nth(1).getAttribute("title"), `Terminal bash\n${attachments[1]!.note}`, "the tooltip says why there is no output");
    assert.equal(await chips.nth(0).getAttribute("title"), "Problems");
    await panel.clearPosted();
    await page.getByRole("button", { name: "Remove Changes" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "removeAttachment", id: "a3" }]);

    const sent = turn("t1", { userText: "Why does the build fail?", attachments: attachments.map(({ kind, label }) => ({ kind, label })) });
    await panel.sendState(panelState({ turns: [sent] }));
    const sentChips = page.locator(".sent-attachments .chip");
    assert.deepEqual(await sentChips.allInnerTexts(), attachments.map((attachment) => attachment.label));
    assert.equal(await sentChips.nth(2).locator(".codicon-git-compare").count(), 1);
  });

  it("says on a chip, and in its tooltip, that a relay key was taken out of its text", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ attachments: [{ id: "a1", label: "Terminal bash", kind: "terminal", redacted: true }, { id: "a2", label: "Changes", kind: "changes" }] }));
    const chips = page.locator(".composer-chips .chip");
    assert.equal(await chips.nth(0).locator(".chip-redacted").textContent(), "key removed");
    assert.equal(await chips.nth(0).getAttribute("title"), "Terminal bash\nA relay key in this text was replaced with [REDACTED]: the key is not sent to the model or kept in the history.");
    assert.equal(await chips.nth(1).locator(".chip-redacted").count(), 0, "only where a key was found");
  });

  it("keeps the menu and the chips inside a 260 px side bar", async () => {
    const page = await current.harness().open({ width: 260, height: 600, theme: "dark" });
    try {
      await page.sendState(
        panelState({
          attachments: [
            { id: "a1", label: "Problems in src/panel/very/long/folder/name/chatController.ts", kind: "problems" },
            { id: "a2", label: "Terminal pwsh", kind: "terminal", note: "No command has finished in this terminal since Relay Chat started." },
            { id: "a3", label: "Changes", kind: "changes" },
          ],
        }),
      );
      const box = page.page.getByLabel("Message", { exact: true });
      await box.pressSequentially("#");
      await page.send({ type: "fileMatches", query: "", files: [{ path: "src/panel/a/very/long/path/to/some/deeply/nested/file.ts" }] });
      await page.page.waitForTimeout(50);
      assert.deepEqual(await page.page.evaluate(panelLayoutProblems), []);
      const overflow = await page.page.evaluate(() =>
        Array.from(document.querySelectorAll(".file-option, .composer-chips .chip")).filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length,
      );
      assert.equal(overflow, 0, "no row or chip is wider than the panel");
      mkdirSync(screenshots, { recursive: true });
      await page.page.screenshot({ path: join(screenshots, "context-menu-260.png") });
      assert.deepEqual(page.pageErrors, []);
    } finally {
      await page.page.close();
    }
  });
});
