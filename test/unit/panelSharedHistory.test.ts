import assert from "node:assert/strict";
import type { Turn } from "../../src/chat/conversation";
import { createConversation } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// The panel of one window while another window on the same folder works on the same history (issue 18,
// part 2): a conversation the other window is answering opens read-only, sends nothing, and unlocks with
// the other window's answer once it ends; the other window's new conversation shows in the list.

describe("panel with a second window on the same history folder", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  let other: HistoryStore;

  afterEach(async () => {
    other?.dispose();
    await harness?.close();
  });

  it("opens a conversation the other window is answering read-only, then shows its answer when it ends", async () => {
    harness = await startPanelHostHarness();
    const { controller } = harness;
    const watch = harness.store.watch((change) => void controller.conversations.onHistoryChanged(change), 20);
    await watch.ready;
    controller.handle({ type: "ready" });
    other = new HistoryStore(new FileStorage(harness.folder));
    const conversation = createConversation("conv_other_window", "echo", Date.now());
    const turn: Turn = { id: "turn_other", parentId: null, userText: "asked in the other window", createdAt: Date.now(), requests: [], toolCalls: [], outcome: { kind: "in_progress" }, notice: null };
    conversation.turns.push(turn);
    conversation.activeTurnId = turn.id;
    await other.save(conversation, [turn.id]);
    await harness.waitFor((state) => state.conversations.some((entry) => entry.id === conversation.id), "the other window's conversation in the list", 2000);

    controller.handle({ type: "switchConversation", conversationId: conversation.id });
    let state = await harness.waitFor((current) => current.conversationId === conversation.id, "the conversation opened");
    assert.match(String(state.notice), /still being answered in another window.*read-only/);
    assert.equal(state.turns[0].outcome, "in_progress", "not marked stopped");
    controller.handle({ type: "send", text: "a send from the read-only window" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(harness.emulator.received.filter((request) => request.method === "POST").length, 0, "nothing was sent");
    assert.equal(controller.state().turns.length, 1);

    turn.outcome = { kind: "completed" };
    await other.save(conversation, [turn.id]);
    state = await harness.waitFor((current) => current.turns[0]?.outcome === "completed", "the other window's answer, without a reload");
    assert.equal(state.notice, null);
    watch.dispose();
  });
});
