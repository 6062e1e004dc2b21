import assert from "node:assert/strict";
import type { Turn } from "../../src/chat/conversation";
import { turnById, turnsWithParent } from "../../src/chat/turnIndex";
import { sampleConversation } from "../fixtures/chat/sampleConversations";

// The index behind findTurn and childrenOf: a conversation's turn list is changed in place, and every answer
// must be what a scan of the list as it is now would give.

function scanById(turns: readonly Turn[], id: string): Turn | undefined {
  return turns.find((turn) => turn.id === id);
}

function scanChildren(turns: readonly Turn[], parentId: string | null): Turn[] {
  return turns.filter((turn) => turn.parentId === parentId);
}

function assertLikeScan(turns: readonly Turn[], ids: readonly string[]): void {
  for (const id of ids) assert.equal(turnById(turns, id), scanById(turns, id), `turn ${id}`);
  for (const parentId of [null, ...ids]) assert.deepEqual(turnsWithParent(turns, parentId), scanChildren(turns, parentId), `children of ${parentId}`);
}

describe("turnIndex: finding turns and their children in a list changed in place", () => {
  it("answers as a scan does after a push, a replacement where a turn was, a removal and a branch", () => {
    const turns = sampleConversation(1, 6).turns;
    const ids = () => [...turns.map((turn) => turn.id), "missing"];
    assertLikeScan(turns, ids());
    const last = turns[turns.length - 1] as Turn;
    turns.push({ ...last, id: "pushed", parentId: last.id });
    assertLikeScan(turns, ids());
    // Replaced where it was (the journal does this): the new object is the one found.
    turns[2] = { ...(turns[2] as Turn), userText: "replaced" };
    assert.equal(turnById(turns, (turns[2] as Turn).id)?.userText, "replaced");
    assertLikeScan(turns, ids());
    // A removal and a push of the same length, with another last turn.
    const removed = turns.splice(1, 1)[0] as Turn;
    turns.push({ ...removed, id: "branch", parentId: (turns[0] as Turn).id });
    assertLikeScan(turns, [...ids(), removed.id]);
    // Same length, same last turn, one turn moved: a miss is checked against the list again.
    const [moved] = turns.splice(0, 1);
    turns.splice(2, 0, moved as Turn);
    assertLikeScan(turns, ids());
  });
});
