import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PanelState, TaskItemView } from "../../src/panel/protocol";
import { conversationState, panelState, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import type { ThemeName } from "./support/panelHarness";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Plan mode and the task list in the panel: the Plan / Act switch beside Send, a turn sent in Plan mode with
// "Act on this plan", and the task list pinned above the message box that the person can tick and prune.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

const tasks: TaskItemView[] = [
  { text: "Read src/relay/client.ts and its tests", status: "done" },
  { text: "Propose the retry change for review", status: "in_progress" },
  { text: "Run npm test", status: "pending" },
];

function planConversation(overrides: Partial<PanelState> = {}): PanelState {
  const base = conversationState();
  return {
    ...base,
    mode: "plan",
    tasks,
    turns: [...base.turns, turn("p1", { userText: "Plan the retry change", answerText: "1. Read the client\n2. Propose the change\n3. Run the tests", mode: "plan", actOnPlan: true })],
    ...overrides,
  };
}

describe("Chat panel webview: Plan mode and the task list (Chromium)", function () {
  this.timeout(120_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("offers a labelled Plan / Act switch beside Send, usable from the keyboard, that follows the host", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const group = page.getByRole("group", { name: "Mode" });
    const plan = group.getByRole("button", { name: "Plan" });
    const act = group.getByRole("button", { name: "Act" });
    assert.equal(await act.getAttribute("aria-pressed"), "true", "Act unless the host says otherwise");
    assert.equal(await plan.getAttribute("aria-pressed"), "false");
    assert.match((await plan.getAttribute("title")) ?? "", /read-only tools/);
    assert.ok(await page.locator(".composer-toolbar .mode-switch + .stop-button + .send-button").count(), "just before Stop and Send");

    await panel.clearPosted();
    await plan.focus();
    await page.keyboard.press("Space");
    assert.deepEqual(await panel.posted(), [{ type: "setMode", mode: "plan" }]);
    assert.equal(await plan.getAttribute("aria-pressed"), "true", "shown at once");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Act", "the next Tab reaches Act");
    await page.keyboard.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "setMode", mode: "plan" }, { type: "setMode", mode: "act" }]);

    await panel.sendPatch({ kind: "fields", fields: { mode: "plan" } });
    assert.equal(await plan.getAttribute("aria-pressed"), "true", "another conversation's mode, or /plan, from the host");
    await panel.clearPosted();
    await plan.click();
    assert.deepEqual(await panel.posted(), [], "choosing the mode shown already sends nothing");
  });

  it("marks a turn sent in Plan mode and offers Act on this plan on the newest finished plan, not while a turn runs", async () => {
    const { page } = panel;
    await panel.sendState(planConversation());
    const planTurn = page.locator('[data-turn-id="p1"]');
    assert.equal((await planTurn.locator(".plan-badge").textContent())?.trim(), "Plan");
    assert.equal(await page.locator('[data-turn-id="t1"] .plan-badge').count(), 0, "an Act turn has no mark");
    const actOnPlan = planTurn.getByRole("button", { name: "Act on this plan" });
    assert.ok(await actOnPlan.isVisible());
    await panel.clearPosted();
    await actOnPlan.click();
    assert.deepEqual(await panel.posted(), [{ type: "actOnPlan", turnId: "p1" }]);

    await panel.sendPatch({ kind: "fields", fields: { busy: true } });
    assert.equal(await actOnPlan.isVisible(), false, "not while a turn runs");
    await panel.sendPatch({ kind: "fields", fields: { busy: false } }, { kind: "turn", turn: turn("a1", { userText: "Carry out the plan above." }) }, { kind: "turnOrder", turnIds: ["t1", "t2", "t3", "p1", "a1"] });
    assert.equal(await actOnPlan.isVisible(), false, "only on the newest turn");
    assert.equal(await planTurn.locator(".plan-badge").count(), 1, "the plan stays marked");
  });

  it("pins the task list above the message box with its count, and sends ticks and removals", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const list = page.getByRole("region", { name: "Task list" });
    assert.equal(await page.locator(".task-list").isVisible(), false, "no list: nothing shown");

    await panel.sendPatch({ kind: "fields", fields: { tasks } });
    assert.ok(await list.isVisible());
    assert.ok(await page.locator(".bottom .task-list + .composer-area").count(), "right above the message box");
    assert.match((await list.locator(".task-list-toggle").textContent()) ?? "", /Tasks\s*1\/3 done/);
    const boxes = list.getByRole("checkbox");
    assert.equal(await boxes.count(), 3);
    assert.deepEqual(await boxes.evaluateAll((nodes) => nodes.map((node) => ((node as HTMLInputElement).indeterminate ? "mixed" : (node as HTMLInputElement).checked ? "checked" : "empty"))), ["checked", "mixed", "empty"]);

    await panel.clearPosted();
    await list.getByRole("checkbox", { name: "Run npm test" }).check();
    await list.getByRole("button", { name: "Remove task Read src/relay/client.ts and its tests" }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "editTask", action: "toggle", index: 2, text: "Run npm test" },
      { type: "editTask", action: "remove", index: 0, text: "Read src/relay/client.ts and its tests" },
    ]);

    // Folded: the header keeps the count and the item in progress.
    const toggle = list.locator(".task-list-toggle");
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await boxes.first().isVisible(), false);
    assert.match((await toggle.textContent()) ?? "", /1\/3 done.*Propose the retry change/);
    await toggle.press("Enter");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");

    await panel.sendPatch({ kind: "fields", fields: { tasks: [] } });
    assert.equal(await page.locator(".task-list").isVisible(), false, "an emptied list goes away");
  });

  it("shows the switch in Chinese", async () => {
    await panel.sendState(planConversation(), { Plan: "计划", Act: "执行", Mode: "模式", "Act on this plan": "按此计划执行", "{0}/{1} done": "已完成 {0}/{1}" }, "zh-cn");
    const group = panel.page.getByRole("group", { name: "模式" });
    assert.equal(await group.getByRole("button", { name: "计划" }).getAttribute("aria-pressed"), "true");
    assert.ok(await panel.page.getByRole("button", { name: "按此计划执行" }).isVisible());
    assert.match((await panel.page.locator(".task-count").textContent()) ?? "", /已完成 1\/3/);
  });

  it("fits the narrowest side bar and a wide one in dark, light and high contrast", async () => {
    mkdirSync(screenshots, { recursive: true });
    const harness = current.harness();
    const themes: ThemeName[] = ["dark", "light", "high-contrast"];
    for (const width of [260, 480]) {
      for (const theme of themes) {
        const page = await harness.open({ width, height: 760, theme });
        try {
          await page.sendState(planConversation({ attachments: [{ id: "a1", label: "src/relay/client.ts", kind: "file" }] }));
          await page.page.locator(".scroller").evaluate((node) => (node.scrollTop = node.scrollHeight));
          await page.page.waitForTimeout(100);
          assert.deepEqual(await page.page.evaluate(panelLayoutProblems), [], `${theme} at ${width} px`);
          if (theme !== "high-contrast") await page.page.screenshot({ path: join(screenshots, `plan-mode-${width}-${theme}.png`) });
          assert.deepEqual(page.pageErrors, []);
        } finally {
          await page.page.close();
        }
      }
    }
  });
});
