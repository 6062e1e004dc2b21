import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { askingTools, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Tool settings reach an open conversation at once (issue 19): the tools a request offers and the check
// before a call runs both read the settings as they are now, through the panel's controller and the relay
// emulator's "tools" model (which calls get_weather when it is offered, else the first tool offered).

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1]!;
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

describe("tool settings apply to an open conversation at once", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  const disabled = new Set<string>();
  const allowances = new SessionAllowances();

  beforeEach(async () => {
    disabled.clear();
    allowances.clear();
    harness = await startPanelHostHarness({
      settings: { model: "tools" },
      tools: (askUser) => askingTools(askUser, () => ({ trusted: true, disabledToolNames: new Set(disabled) }), allowances),
    });
    harness.controller.handle({ type: "ready" });
  });

  afterEach(async () => {
    await harness?.close();
  });

  const offeredTools = (requestIndex: number) => {
    const posts = harness.emulator.received.filter((request) => request.method === "POST");
    return ((posts[requestIndex]?.body as { tools?: { name: string }[] }).tools ?? []).map((tool) => tool.name);
  };

  it("does not run a call approved after its tool was turned off, and no longer offers the tool", async () => {
    const { controller } = harness;
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval card");
    assert.equal(asking.approvals[0]!.toolName, "get_weather");
    // The user turns the tool off while its card is open, then clicks Allow for this session.
    disabled.add("get_weather");
    controller.handle({ type: "approval", callId: asking.approvals[0]!.callId, answer: "allow_session" });
    const state = await harness.waitFor(settled, "the answer after the refused call");
    const call = lastTurn(state).toolCalls[0]!;
    assert.equal(call.outcome, "unavailable");
    assert.match(call.output, /"get_weather" is turned off in the Relay Chat settings, so it was not run/);
    assert.doesNotMatch(call.output, /Sunny/, "the tool did not run");
    assert.equal(allowances.has("get_weather"), false, "a tool turned off is not allowed for the session");
    assert.deepEqual(offeredTools(0), ["get_weather", "get_time"]);
    assert.deepEqual(offeredTools(1), ["get_time"], "the follow-up request of the same turn offers only what is on now");
  });

  it("stops offering a tool allowed for the session once it is turned off", async () => {
    const { controller } = harness;
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval card");
    controller.handle({ type: "approval", callId: asking.approvals[0]!.callId, answer: "allow_session" });
    await harness.waitFor(settled, "the first answer");
    controller.handle({ type: "send", text: "again" });
    const allowed = await harness.waitFor((state) => settled(state) && state.turns.length === 2, "the second answer, without a card");
    assert.equal(lastTurn(allowed).toolCalls[0]?.outcome, "ran");

    disabled.add("get_weather");
    controller.handle({ type: "send", text: "and now?" });
    const other = await harness.waitFor((state) => state.approvals.length === 1, "a card for the other tool");
    assert.equal(other.approvals[0]!.toolName, "get_time", "get_weather is not offered, so the model calls the other tool");
    assert.deepEqual(offeredTools(4), ["get_time"]);
    controller.handle({ type: "approval", callId: other.approvals[0]!.callId, answer: "deny" });
    await harness.waitFor((state) => settled(state) && state.turns.length === 3, "the third answer");
  });
});
