import assert from "node:assert/strict";
import type { ToHost } from "../../src/panel/protocol";
import { panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Issue 19: the panel invents no links. File names are not web addresses (README.md is not http://readme.md/);
// a file name or path the host confirms as a workspace file opens in the editor, with its line.

const answer = "See README.md and `src/app.ts:12` (or src/app.ts#L3), e.g. notes.md, version 1.2.3 and [the docs](https://example.com/docs).";

describe("Chat panel webview: file names in answers (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  const askedAbout = async (): Promise<string[]> => {
    const posted = await panel.waitForPosted("findFileReferences");
    return posted.flatMap((message) => (message.type === "findFileReferences" ? message.paths : [])).sort();
  };

  it("makes no web link of a file name, asks the host which names are workspace files, and links only those", async () => {
    const { page } = panel;
    await panel.clearPosted();
    await panel.sendState(panelState({ turns: [turn("t1", { answerText: answer })] }));
    const answerBox = page.locator("article[data-turn-id=t1] .answer");
    assert.deepEqual(await answerBox.locator("a[data-href]").evaluateAll((links) => links.map((link) => link.getAttribute("data-href"))), ["https://example.com/docs"]);
    assert.deepEqual(await askedAbout(), ["README.md", "notes.md", "src/app.ts"]);
    assert.equal(await answerBox.locator("a.file-reference").count(), 0, "nothing is linked before the host answers");

    await panel.send({ type: "fileReferences", checked: ["README.md", "notes.md", "src/app.ts"], files: ["src/app.ts"] });
    const fileLinks = answerBox.locator("a.file-reference");
    assert.deepEqual(await fileLinks.allTextContents(), ["src/app.ts:12", "src/app.ts#L3"]);
    assert.equal(await answerBox.locator("a.file-reference > code").count(), 1, "the inline code span is kept inside its link");
    assert.match((await answerBox.textContent()) ?? "", /See README\.md and/);
    assert.equal(await answerBox.locator("a", { hasText: "README.md" }).count(), 0, "README.md is no link of any kind");

    await panel.clearPosted();
    await fileLinks.nth(0).click();
    await fileLinks.nth(1).focus();
    await page.keyboard.press("Enter");
    assert.deepEqual(await panel.posted(), [
      { type: "openFileReference", path: "src/app.ts", line: 12 },
      { type: "openFileReference", path: "src/app.ts", line: 3 },
    ] satisfies ToHost[]);
    assert.match(page.url(), /\/panel\.html$/, "the page did not navigate");
  });

  it("links a file the host already confirmed at once, and asks only about new names", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ turns: [turn("t1", { answerText: "Open `src/app.ts`." })] }));
    assert.deepEqual(await askedAbout(), ["src/app.ts"]);
    await panel.send({ type: "fileReferences", checked: ["src/app.ts"], files: ["src/app.ts"] });
    await panel.clearPosted();
    await panel.sendState(panelState({ turns: [turn("t1", { answerText: "Open `src/app.ts`." }), turn("t2", { answerText: "Then src/app.ts:40 and lib/util.py." })] }));
    assert.deepEqual(await askedAbout(), ["lib/util.py"]);
    assert.deepEqual(await page.locator("article[data-turn-id=t2] a.file-reference").allTextContents(), ["src/app.ts:40"]);
    // Never inside code blocks or links.
    await panel.sendState(panelState({ turns: [turn("t3", { answerText: "```text\nsrc/app.ts\n```\n\n[src/app.ts](https://example.com/src/app.ts)" })] }));
    assert.equal(await page.locator("article[data-turn-id=t3] a.file-reference").count(), 0);
  });
});
