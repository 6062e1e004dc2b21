import assert from "node:assert/strict";
import { panelState } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Edits waiting for Keep or Undo in the editor, seen from the chat: one line above the message box, with the
// way to the list of files; gone once nothing waits.

describe("Chat panel webview: files to review (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("says how many files wait for review, opens their list on request, and goes away when none waits", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ filesToReview: 0 }));
    const line = page.locator(".files-to-review");
    assert.equal(await line.count(), 0, "nothing to review: no line");

    await panel.sendPatch({ kind: "fields", fields: { filesToReview: 1 } });
    assert.equal((await line.textContent())?.trim().replace(/Show files$/, "").trim(), "1 file with proposed edits to keep or undo in the editor.");
    await panel.sendPatch({ kind: "fields", fields: { filesToReview: 3 } });
    assert.match((await line.textContent()) ?? "", /^3 files with proposed edits/);
    assert.equal(await line.getAttribute("role"), "status", "announced when it appears or changes");

    await panel.clearPosted();
    await line.getByRole("button", { name: "Show files" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "reviewFiles" }]);

    await panel.sendPatch({ kind: "fields", fields: { filesToReview: 0 } });
    assert.equal(await line.count(), 0);
  });
});
