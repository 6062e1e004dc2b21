import assert from "node:assert/strict";
import { PanelStore } from "../../media/panel/panelStore";
import { panelState, receipt, turn } from "../webview/fixtures/panelStates";

// The webview's copy of the state, patched as the host's changes arrive (media/panel/panelStore.ts has
// no DOM, so it is checked here on Node).

describe("webview panel store", () => {
  it("applies fields, turns, order, receipts and approvals, and says what it touched", () => {
    const store = new PanelStore(panelState({ turns: [turn("a"), turn("b")] }));
    const applied = store.apply([
      { kind: "fields", fields: { busy: true, notice: "n" } },
      { kind: "turn", turn: turn("c", { streaming: true, answerText: "" }) },
      { kind: "turn", turn: turn("a", { answerText: "changed" }) },
      { kind: "turnOrder", turnIds: ["a", "c"] },
      { kind: "receipt", turnId: "c", index: 1, receipt: receipt({ requestId: "second" }) },
      { kind: "approvals", approvals: [{ callId: "x", toolName: "t", toolDescription: "", risk: "read", argumentsJson: "{}", canAllowForSession: false }] },
    ]);
    const state = store.state;
    assert.equal(state.busy, true);
    assert.equal(state.notice, "n");
    assert.deepEqual(state.turns.map((each) => each.id), ["a", "c"]);
    assert.equal(state.turns[0].answerText, "changed");
    assert.deepEqual(state.turns[1].receipts.map((each) => each.requestId), ["req_c", "second"]);
    assert.equal(state.approvals.length, 1);
    assert.deepEqual([...applied.fields], ["busy", "notice"]);
    assert.deepEqual([...applied.turns].sort(), ["a", "c"]);
    assert.equal(applied.orderChanged, true);
    assert.equal(applied.approvalsChanged, true);
    assert.equal(store.turn("b"), undefined, "a turn that left the order is gone");
  });

  it("keeps the order when a patch changes turns only", () => {
    const store = new PanelStore(panelState({ turns: [turn("a"), turn("b")] }));
    const applied = store.apply([{ kind: "turn", turn: turn("a", { outcome: "cancelled" }) }]);
    assert.deepEqual(store.state.turns.map((each) => [each.id, each.outcome]), [["a", "cancelled"], ["b", "completed"]]);
    assert.equal(applied.orderChanged, false);
    assert.equal(applied.fields.size, 0);
  });
});
