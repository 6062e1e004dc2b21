import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// A turn's checkpoint, seen in the panel: a turn whose checkpoint failed says so above its tools, while it
// runs (before the tools are approved), in English and in Chinese.

const zhStrings = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "l10n", "bundle.l10n.zh-cn.json"), "utf8")) as Record<string, string>;

describe("Chat panel webview: checkpoints of a turn (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  const running = turn("t1", { streaming: true, outcome: "in_progress", receipts: [], checkpointProblem: "index.lock: File exists" });

  it("says on a running turn that it has no checkpoint and Restore will not be possible", async () => {
    await panel.sendState(panelState({ turns: [running], busy: true }));
    const line = panel.page.locator(".turn-no-checkpoint");
    assert.equal((await line.textContent())?.trim(), "No checkpoint: Restore will not be possible (index.lock: File exists).");
    assert.equal(await line.getAttribute("role"), "status");
    assert.equal(await panel.page.locator(".turn-changes-restore").count(), 0, "no Restore is offered");
  });

  it("says it in Chinese", async () => {
    await panel.sendState(panelState({ turns: [running], busy: true }), zhStrings, "zh-cn");
    assert.equal((await panel.page.locator(".turn-no-checkpoint").textContent())?.trim(), "没有检查点：将无法还原（index.lock: File exists）。");
  });

  it("shows a restored turn as restored, with Undo restore in place of Restore, and back after the undo", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ turns: [turn("t1", { changedFiles: 3, restored: true })] }));
    const line = page.locator(".turn-changes");
    assert.match((await line.textContent()) ?? "", /3 files changed · restored/);
    assert.equal(await line.getByRole("button", { name: "Restore files to before this turn" }).count(), 0);
    await panel.clearPosted();
    await line.getByRole("button", { name: "Undo restore" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "turnChanges", turnId: "t1", action: "undoRestore" }]);

    await panel.sendState(panelState({ turns: [turn("t1", { changedFiles: 3 })] }));
    assert.doesNotMatch((await line.textContent()) ?? "", /restored/);
    assert.equal(await line.getByRole("button", { name: "Undo restore" }).count(), 0);
    assert.equal(await line.getByRole("button", { name: "Restore files to before this turn" }).count(), 1);
  });

  it("says restored in Chinese", async () => {
    await panel.sendState(panelState({ turns: [turn("t1", { changedFiles: 3, restored: true })] }), zhStrings, "zh-cn");
    const line = panel.page.locator(".turn-changes");
    assert.match((await line.textContent()) ?? "", /3 个文件已更改 · 已还原/);
    assert.equal(await line.getByRole("button", { name: "撤销还原" }).count(), 1);
  });

  it("shows nothing about checkpoints on a turn whose checkpoint was taken", async () => {
    await panel.sendState(panelState({ turns: [turn("t1", { changedFiles: 2 })] }));
    assert.equal(await panel.page.locator(".turn-no-checkpoint").count(), 0);
    assert.match((await panel.page.locator(".turn-changes").textContent()) ?? "", /2 files changed/);
  });
});
