import assert from "node:assert/strict";
import type { PanelSyncTimers } from "../../src/panel/panelSync";
import type { PanelState } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// A turn's end is one patch: the request's receipt, the settled turn, the busy flag and the conversation list
// go together, not as three patches (each one computes every field of the panel and is copied to the page).
// The frame is long here, so the test does not depend on how fast the machine writes the turn's files.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

const slowFrames: PanelSyncTimers = {
  soon: (work) => queueMicrotask(work),
  afterFrame: (work) => {
    const timer = setTimeout(work, 3_000);
    return { cancel: () => clearTimeout(timer) };
  },
  now: () => performance.now(),
};

describe("the end of a turn in the panel (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("posts the receipt, the settled turn, the busy flag and the list in one patch", async () => {
    harness = await startPanelHostHarness({ timers: slowFrames });
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    await harness.waitForMirror();
    const before = view.posted.length;
    controller.handle({ type: "send", text: "hello" });
    await harness.waitFor(settled, "the answer");
    await harness.waitForMirror();
    const patches = view.posted.slice(before).flatMap((message) => (message.type === "patch" ? [message] : []));
    const withReceipt = patches.filter((patch) => patch.changes.some((change) => change.kind === "receipt"));
    assert.equal(withReceipt.length, 1);
    const kinds = withReceipt[0].changes.map((change) => change.kind);
    assert.ok(kinds.includes("turn"), `the settled turn goes with the receipt: ${kinds.join(", ")}`);
    const fields = withReceipt[0].changes.flatMap((change) => (change.kind === "fields" ? [change.fields] : []))[0];
    assert.equal(fields?.busy, false, "and the busy flag");
    assert.ok(fields?.conversations !== undefined, "and the list");
    assert.equal(patches.indexOf(withReceipt[0]), patches.length - 1, "nothing after it");
    assert.deepEqual(view.mirror.state, controller.state());
  });
});
