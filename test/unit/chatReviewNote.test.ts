// The model is told how the person's review of its proposed edits went: one note before the next message,
// kept in the history that is resent, shown with the message and exported.
import assert from "node:assert/strict";
import { activePath } from "../../src/chat/conversation";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import { changedFilesOnBranch, ReviewNotes, reviewNoteText } from "../../src/chat/reviewNote";
import { turnViewsOf } from "../../src/panel/turns/turnView";
import type { JsonObject } from "../../src/relay/types";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";
import type { ToolLog } from "../fixtures/chat/chatHarness";
import { validateResponseRequest } from "../support/openResponsesSchema";

function userTexts(body: JsonObject): string[] {
  return (body.input as JsonObject[]).filter((item) => item.role === "user").map((item) => String(item.content));
}

describe("the model is told how the review of its proposed edits went", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("says per file what was kept, undone, partly kept, changed by the person or still in review", () => {
    assert.equal(reviewNoteText([]), null);
    const note = reviewNoteText([
      { path: "src/a.ts", result: "kept" },
      { path: "src/b.ts", result: "undone" },
      { path: "src/c.ts", result: "partly_kept", kept: 1, total: 3 },
      { path: "src/d.ts", result: "changed_by_person" },
      { path: "src/e.ts", result: "in_review" },
      { path: "out.txt", result: "restored" },
      { path: "src/f.ts", result: "restore_undone" },
    ]);
    assert.equal(
      note,
      [
        "[Relay Chat: what the user did with your changes to files since the last message]",
        "- src/a.ts: kept; the file is saved with your change.",
        "- src/b.ts: undone; the file is as it was before your change.",
        "- src/c.ts: 1 of 3 changed parts kept, the others undone; read the file before editing it again.",
        "- src/d.ts: the user edited the file themselves during the review; read it before editing it again.",
        "- src/e.ts: still in review: your change is in the editor, not yet kept or undone.",
        "- out.txt: restored by the user to before the turn that changed it; your changes to it are gone.",
        "- src/f.ts: the user undid a restore: the file is as it was after your changes again.",
      ].join("\n"),
    );
  });

  it("keeps each file's latest outcome until a note carried it, and reads the files in review at each send", () => {
    const notes = new ReviewNotes();
    let inReview = [{ path: "src/e.ts", result: "in_review" as const, conversationIds: ["A"] }];
    notes.setLive(() => inReview);
    notes.settle("A", { path: "src/a.ts", result: "kept" });
    notes.settle("A", { path: "src/b.ts", result: "undone" });
    notes.settle("A", { path: "src/a.ts", result: "restored" });
    const first = notes.outcomes("A");
    assert.deepEqual(first, [{ path: "src/b.ts", result: "undone" }, { path: "src/a.ts", result: "restored" }, { path: "src/e.ts", result: "in_review" }]);
    notes.settle("A", { path: "src/c.ts", result: "kept" });
    notes.told("A", first);
    inReview = [];
    assert.deepEqual(notes.outcomes("A"), [{ path: "src/c.ts", result: "kept" }], "what settled after the read waits for the next message");
  });

  it("tells each conversation only what became of the changes its own model proposed", async () => {
    // Conversation A's model calls a tool (as propose_edit, run_command do); the tool learns whose call it is.
    const log: ToolLog = { runs: [], approvals: [], callers: [] };
    const a = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log) });
    const aTurn = finishedTurn(await a.send("weather in Paris?"));
    assert.deepEqual(log.callers, [{ conversationId: a.conversation.id, turnId: aTurn.id }], "the call carries the conversation and turn that proposed it");

    // What the person did with A's changes (Undo in the review, Restore, Undo restore) is kept for A.
    const notes = new ReviewNotes();
    notes.setLive(() => [{ path: "d.js", result: "in_review", conversationIds: [a.conversation.id] }]);
    notes.settle(a.conversation.id, { path: "c.js", result: "undone" });
    notes.settle(a.conversation.id, { path: "test-output.txt", result: "restored" });

    // Conversation B ran its own command since: its next message carries none of A's notes.
    const b = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve", log) });
    finishedTurn(await b.send("weather in Oslo?"));
    assert.equal(log.callers?.[1]?.conversationId, b.conversation.id);
    assert.deepEqual(notes.outcomes(b.conversation.id), [], "B hears nothing of A's files");
    assert.equal(reviewNoteText(notes.outcomes(b.conversation.id)), null);

    // A's next message carries them, once.
    const forA = notes.outcomes(a.conversation.id);
    assert.deepEqual(forA, [
      { path: "c.js", result: "undone" },
      { path: "test-output.txt", result: "restored" },
      { path: "d.js", result: "in_review" },
    ]);
    finishedTurn(await a.send("and now?", { reviewNote: reviewNoteText(forA) }));
    assert.ok(userTexts(harness.postedBodies().at(-2) as JsonObject).some((text) => text.includes("- c.js: undone")), "A's request carries its notes");
    notes.told(a.conversation.id, forA);
    assert.deepEqual(notes.outcomes(a.conversation.id), [{ path: "d.js", result: "in_review" }], "told once; a file still in review is told until decided");
  });

  it("sends the note before the message, resends it with the history, keeps it on regenerate, and shows and exports it", async () => {
    const session = harness.newSession({ settings: { model: "echo" } });
    finishedTurn(await session.send("first"));
    assert.equal(changedFilesOnBranch(session.conversation), false, "nothing on the branch changed files: nothing to tell");
    const note = reviewNoteText([{ path: "src/b.ts", result: "undone" }]) as string;
    const turn = finishedTurn(await session.send("second", { reviewNote: note }));
    const sent = harness.postedBodies().at(-1) as JsonObject;
    assert.ok(validateResponseRequest(sent).valid);
    assert.deepEqual(userTexts(sent), ["first", note, "second"], "the note is its own message, before the typed text, which stays as typed");
    assert.equal(turn.userText, "second");

    finishedTurn(await session.send("third"));
    assert.deepEqual(userTexts(harness.postedBodies().at(-1) as JsonObject), ["first", note, "second", "third"], "resent with the history, byte for byte");

    finishedTurn(await session.regenerate(turn.id));
    assert.deepEqual(userTexts(harness.postedBodies().at(-1) as JsonObject), ["first", note, "second"], "a regenerated message still carries it");

    const view = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null }).find((each) => each.userText === "second");
    assert.equal(view?.reviewNote, note);
    assert.ok(conversationToMarkdown(session.conversation).includes(note));
    assert.equal(activePath(session.conversation).length, 2);

    // The spend guard's estimate counts the note with the text.
    const asked: number[] = [];
    const guarded = harness.newSession({ settings: { model: "echo", expensiveSendThresholdTokens: 1 }, confirmExpensiveSend: async (estimate) => (asked.push(estimate.inputTokens), true) });
    finishedTurn(await guarded.send("x", { reviewNote: note }));
    assert.ok((asked[0] ?? 0) > Math.ceil(note.length / 4), `the estimate counts the note (${asked[0]})`);
  });
});
