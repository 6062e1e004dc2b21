import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Several relays through the panel's controller on Node, each relay an emulator of its own: the picker
// lists every relay's models grouped by relay, picking a model of another relay sends the next request
// there, and a model is remembered per relay, so an id typed for one relay never follows to another.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1]!;
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

function posts(harness: PanelHostHarness, relay: string): number {
  const emulator = relay === "emulator" ? harness.emulator : harness.otherRelays.get(relay)!;
  return emulator.received.filter((request) => request.method === "POST" && request.path === "/v1/responses").length;
}

describe("several relays in the panel (Node, two relay emulators)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  it("lists each relay's models in its own group and sends to the relay whose model was picked", async () => {
    harness = await startPanelHostHarness({ otherRelays: [{ name: "Cheap relay", emulator: { profile: "new-api", models: ["echo", "cheap-mini"] } }] });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    await controller.refreshModels();
    let state = controller.state();
    assert.deepEqual(state.relayModels.map((entry) => entry.relay), ["emulator", "Cheap relay"]);
    assert.deepEqual(state.relayModels[1]!.models, ["cheap-mini", "echo"]);
    assert.equal(state.relay, "emulator");

    controller.handle({ type: "selectModel", relay: "Cheap relay", model: "echo" });
    state = await harness.waitFor((candidate) => candidate.relay === "Cheap relay", "the other relay to be active");
    assert.equal(state.model, "echo");
    assert.deepEqual(state.models, ["cheap-mini", "echo"], "the active relay's own list");
    controller.handle({ type: "send", text: "which relay answers?" });
    state = await harness.waitFor(settled, "the answer");
    assert.equal(lastTurn(state).outcome, "completed", lastTurn(state).explanation ?? "");
    assert.equal(posts(harness, "Cheap relay"), 1, "the picked relay received the request");
    assert.equal(posts(harness, "emulator"), 0, "the other relay received nothing");
    assert.equal(harness.view.mirror.state?.relay, "Cheap relay", "the webview knows which relay is active");
  });

  it("remembers a model per relay: an id typed for one relay does not follow to another, and a model the relay no longer lists is marked", async () => {
    harness = await startPanelHostHarness({ otherRelays: [{ name: "Official", emulator: { models: ["echo", "gpt-official"] } }] });
    const { controller } = harness;
    await controller.refreshModels();
    await controller.setModel("typed-for-emulator");
    assert.equal(controller.model(), "typed-for-emulator");
    await controller.setModel("gpt-official", "Official");
    assert.equal(controller.state().relay, "Official");
    assert.equal(controller.model(), "gpt-official", "the other relay's own model, not the id typed for the first");
    await controller.setModel("echo", "emulator");
    assert.equal(controller.model(), "echo");
    await controller.setModel("typed-for-emulator", "emulator");
    const marked = controller.state().relayModels.find((entry) => entry.relay === "emulator")!;
    assert.equal(marked.unlisted, "typed-for-emulator", "the remembered model is not in the relay's list");
    assert.equal(controller.state().relayModels.find((entry) => entry.relay === "Official")!.unlisted, null);
  });
});
