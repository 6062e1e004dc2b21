import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConversationOnScreenMemory } from "../../src/panel/panelServices";
import type { PanelState } from "../../src/panel/protocol";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Reload Window builds the panel's controller again over the same history: it comes back to the conversation
// that was on screen (it showed an empty New chat), in its first snapshot, and to a new chat when that
// conversation cannot be opened any more, without a word on screen (nobody asked to open anything).

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state)?.outcome !== "in_progress";

/** workspaceState's part, in memory. */
function screenMemory(): ConversationOnScreenMemory & { value: string | undefined } {
  const memory = {
    value: undefined as string | undefined,
    get: () => memory.value,
    set: async (conversationId: string | undefined) => {
      memory.value = conversationId;
    },
  };
  return memory;
}

describe("panel controller: the conversation on screen across a window reload (Node, relay emulator)", function () {
  this.timeout(30_000);
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-reload-"));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  it("opens the conversation that was on screen before the first snapshot, and forgets it on New Chat", async () => {
    const screen = screenMemory();
    const before = await startPanelHostHarness({ folder, conversationOnScreen: screen });
    let conversationId: string | null;
    try {
      await before.controller.ready();
      before.controller.handle({ type: "send", text: "Remember where I was" });
      conversationId = (await before.waitFor(settled, "the answer")).conversationId;
      assert.ok(conversationId !== null);
      assert.equal(screen.value, conversationId, "remembered once it is on screen");
    } finally {
      await before.close();
    }

    const after = await startPanelHostHarness({ folder, conversationOnScreen: screen });
    try {
      await after.controller.ready();
      const snapshots = after.view.ofType("snapshot");
      assert.equal(snapshots.length, 1);
      assert.equal(snapshots[0]?.state.conversationId, conversationId, "the first snapshot is the conversation, not a New chat");
      assert.deepEqual(snapshots[0]?.state.turns.map((turn) => turn.userText), ["Remember where I was"]);
      await after.controller.newChat();
      assert.equal(screen.value, undefined, "a new chat is what comes back next time");
    } finally {
      await after.close();
    }
  });

  it("starts a new chat, saying nothing on screen, when the remembered conversation is gone", async () => {
    const screen = screenMemory();
    screen.value = "conv_deleted_in_another_window";
    const harness = await startPanelHostHarness({ folder, conversationOnScreen: screen });
    try {
      await harness.controller.ready();
      const state = harness.view.ofType("snapshot")[0]?.state;
      assert.equal(state?.conversationId, null);
      assert.deepEqual(state?.turns, []);
      assert.equal(state?.notice, null);
    } finally {
      await harness.close();
    }
  });
});
