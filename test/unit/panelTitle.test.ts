import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Issue 27: a message with only an image kept the title "New chat", in the title line and in the history.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1]!;
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";
const png = { mediaType: "image/png" as const, data: "iVBORw0KGgo=" };
const jpeg = { mediaType: "image/jpeg" as const, data: "/9j/4AAQSkZJRg==" };

describe("a conversation's title (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("names a conversation whose first message is an image alone after it, in the title line and the history", async () => {
    harness = await startPanelHostHarness();
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "", images: [png] });
    const state = await harness.waitFor(settled, "the answer");
    assert.equal(state.title, "Image");
    const listed = await harness.waitFor((candidate) => candidate.conversations.length === 1, "the history entry");
    assert.equal(listed.conversations[0]!.title, "Image");
  });

  it("counts several images, and a message with text keeps its text as the title", async () => {
    harness = await startPanelHostHarness();
    const { controller } = harness;
    controller.handle({ type: "send", text: "  ", images: [png, jpeg] });
    assert.equal((await harness.waitFor(settled, "the answer")).title, "2 images");
    await controller.newChat();
    controller.handle({ type: "send", text: "What is this?", images: [png] });
    assert.equal((await harness.waitFor(settled, "the second answer")).title, "What is this?");
  });
});
