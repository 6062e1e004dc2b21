import assert from "node:assert/strict";
import { mkdtemp, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import type { Conversation, Turn } from "../../src/chat/conversation";
import { createConversation } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { sharedHistoryFolder } from "../../src/host/historyFolder";

// Two windows on one folder share one history folder (issue 18, part 2). Two HistoryStores on one real
// temp folder stand for the two windows; each window holds the conversation it shows in memory, as the
// panel does, and saves what it changes. Whatever they do, in any order: no turn is ever lost, nothing
// deleted comes back, and a turn one window is answering is never marked stopped by the other.

type Command =
  | { kind: "new"; window: number }
  | { kind: "open"; window: number; pick: number }
  | { kind: "addTurn"; window: number }
  | { kind: "stream"; window: number }
  | { kind: "finish"; window: number }
  | { kind: "delete"; window: number; pick: number }
  | { kind: "rename"; window: number; pick: number }
  /** Shows another branch: saves the conversation with no turn changed, read-only or not (ChatSession.showBranch). */
  | { kind: "branch"; window: number };

const window = fc.integer({ min: 0, max: 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("new" as const), window }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("open" as const), window, pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("addTurn" as const), window }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("stream" as const), window }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("finish" as const), window }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), window, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rename" as const), window, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("branch" as const), window }) },
);

interface Window {
  store: HistoryStore;
  shown: Conversation | null;
  readOnly: boolean;
  streaming: Turn | null;
}

/** What the two windows did, as far as the disk must keep it. */
class Expected {
  readonly saved = new Set<string>();
  readonly deleted = new Set<string>();
  /** Deletions started (the other window may see the tombstone before the deletion returns). */
  readonly deleting = new Set<string>();
  /** Every turn saved, by conversation, with the last text its window saved. */
  readonly turns = new Map<string, Map<string, string>>();

  pick(index: number): string | undefined {
    const ids = [...this.saved];
    return ids[index % Math.max(1, ids.length)];
  }
}

let nextId = 0;

async function run(commands: Command[], windows: Window[], expected: Expected, ticks: { now: number }): Promise<void> {
  for (const step of commands) {
    const window = windows[step.window];
    switch (step.kind) {
      case "new":
        if (window.streaming) break;
        window.shown = createConversation(`conv_${(nextId += 1)}`, "echo", (ticks.now += 1));
        window.readOnly = false;
        break;
      case "open": {
        const id = expected.pick(step.pick);
        if (!id || window.streaming) break;
        const wasDeleted = expected.deleted.has(id);
        const opened = await window.store.open(id);
        if (wasDeleted) {
          assert.equal(opened.ok, false, `deleted ${id} opened again`);
          break;
        }
        if (!opened.ok) {
          // Deleted by the other window while this sequence ran concurrently.
          assert.ok(expected.deleting.has(id), `${id} did not open: ${opened.problem}`);
          break;
        }
        for (const turn of opened.conversation.turns) assert.notEqual(turn.outcome.kind, "interrupted", "a turn answered in a live window is never marked stopped");
        window.shown = opened.conversation;
        window.readOnly = opened.runningElsewhere;
        break;
      }
      case "addTurn": {
        const conversation = window.shown;
        if (!conversation || window.streaming || window.readOnly || expected.deleted.has(conversation.id)) break;
        const turn: Turn = {
          id: `turn_${(nextId += 1)}`,
          parentId: conversation.activeTurnId,
          userText: `message ${nextId}`,
          createdAt: (ticks.now += 1),
          requests: [{ purpose: "send", startedAt: ticks.now, model: "echo", streamed: true, maxOutputTokens: null, outcome: { kind: "in_progress" }, explanation: null, httpStatus: null, requestId: null, responseId: null, usage: null, input: [], output: [] }],
          toolCalls: [],
          outcome: { kind: "in_progress" },
          notice: null,
        };
        conversation.turns.push(turn);
        conversation.activeTurnId = turn.id;
        conversation.updatedAt = ticks.now;
        window.streaming = turn;
        await window.store.save(conversation, [turn.id]);
        expected.saved.add(conversation.id);
        if (!expected.turns.has(conversation.id)) expected.turns.set(conversation.id, new Map());
        expected.turns.get(conversation.id)?.set(turn.id, "");
        break;
      }
      case "stream":
      case "finish": {
        const turn = window.streaming;
        const conversation = window.shown;
        if (!turn || !conversation) break;
        const text = `${textOf(turn)}part${(nextId += 1)} `;
        turn.requests[0].output = [{ type: "message", id: `msg_${turn.id}`, role: "assistant", status: "in_progress", content: [{ type: "output_text", text, annotations: [] }] }];
        if (step.kind === "finish") {
          turn.requests[0].outcome = { kind: "completed" };
          turn.outcome = { kind: "completed" };
          window.streaming = null;
        }
        conversation.updatedAt = ticks.now += 1;
        await window.store.save(conversation, [turn.id]);
        expected.turns.get(conversation.id)?.set(turn.id, text);
        break;
      }
      case "delete": {
        const id = expected.pick(step.pick);
        if (!id) break;
        expected.deleting.add(id);
        await window.store.delete(id);
        expected.deleted.add(id);
        break;
      }
      case "branch": {
        const conversation = window.shown;
        if (!conversation || !expected.saved.has(conversation.id) || (window.streaming && !window.readOnly)) break;
        conversation.updatedAt = ticks.now += 1;
        await window.store.save(conversation, []);
        break;
      }
      case "rename": {
        const id = expected.pick(step.pick);
        if (!id || (window.streaming && window.shown?.id === id)) break;
        await window.store.rename(id, `renamed ${(nextId += 1)}`);
        break;
      }
    }
  }
}

function textOf(turn: Turn): string {
  const item = turn.requests[0]?.output[0] as { content?: Array<{ text?: string }> } | undefined;
  return item?.content?.[0]?.text ?? "";
}

async function checkDisk(folder: string, expected: Expected): Promise<void> {
  const reader = new HistoryStore(new FileStorage(folder));
  const listing = await reader.list();
  assert.deepEqual(listing.problems, []);
  const alive = [...expected.saved].filter((id) => !expected.deleting.has(id)).sort();
  assert.deepEqual(listing.conversations.map((entry) => entry.id).sort(), alive, "the list holds exactly the saved conversations that were not deleted");
  for (const id of expected.deleted) assert.equal((await reader.open(id)).ok, false, `deleted ${id} came back`);
  for (const id of alive) {
    const opened = await reader.open(id);
    assert.ok(opened.ok, `${id} opens`);
    const turns = new Map(opened.conversation.turns.map((turn) => [turn.id, turn]));
    for (const [turnId, text] of expected.turns.get(id) ?? []) {
      const turn = turns.get(turnId);
      assert.ok(turn, `turn ${turnId} of ${id} is kept`);
      assert.equal(textOf(turn), text, `turn ${turnId} has the last text its window saved`);
    }
  }
}

describe("history shared by two windows", function () {
  this.timeout(120_000);
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-shared-"));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  function windowsOn(root: string, compactAtBytes: number, ticks: { now: number }): Window[] {
    const clock = { now: () => (ticks.now += 1) };
    return [0, 1].map(() => ({ store: new HistoryStore(new FileStorage(root), clock, { compactAtBytes }), shown: null, readOnly: false, streaming: null }));
  }

  it("loses no turn and brings nothing deleted back, one window's step after the other's in random order", async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 80 }), fc.constantFrom(0, 400, 1 << 20), async (commands, compactAtBytes) => {
        const root = path.join(folder, `sequential-${(round += 1)}`);
        const ticks = { now: 1_800_000_000_000 };
        const windows = windowsOn(root, compactAtBytes, ticks);
        const expected = new Expected();
        try {
          await run(commands, windows, expected, ticks);
          await checkDisk(root, expected);
        } finally {
          for (const window of windows) window.store.dispose();
        }
      }),
      { numRuns: 60 },
    );
  });

  it("loses no turn and brings nothing deleted back when both windows act at the same time", async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 50 }), fc.array(command, { minLength: 10, maxLength: 50 }), fc.constantFrom(0, 1 << 20), async (first, second, compactAtBytes) => {
        const root = path.join(folder, `concurrent-${(round += 1)}`);
        const ticks = { now: 1_800_000_000_000 };
        const windows = windowsOn(root, compactAtBytes, ticks);
        const expected = new Expected();
        try {
          await Promise.all([run(first.map((step) => ({ ...step, window: 0 })), windows, expected, ticks), run(second.map((step) => ({ ...step, window: 1 })), windows, expected, ticks)]);
          await checkDisk(root, expected);
        } finally {
          for (const window of windows) window.store.dispose();
        }
      }),
      { numRuns: 30 },
    );
  });

  it("opens a conversation another window is answering read-only, and marks it stopped once that window's lease ran out", async () => {
    const ticks = { now: 1_800_000_000_000 };
    const [streaming, other] = windowsOn(folder, 0, ticks);
    const expected = new Expected();
    await run([{ kind: "new", window: 0 }, { kind: "addTurn", window: 0 }, { kind: "stream", window: 0 }], [streaming, other], expected, ticks);
    const id = [...expected.saved][0];
    const live = await other.store.open(id);
    assert.ok(live.ok);
    assert.equal(live.runningElsewhere, true);
    assert.match(String(live.notice), /still being answered in another window.*read-only/);
    assert.equal(live.conversation.turns[0].outcome.kind, "in_progress");

    // The streaming window stops without a word (its process is alive, but its journal is not touched any more).
    streaming.store.dispose();
    const journal = path.join(folder, "conversations", `${id}.${streaming.store.writer}.jsonl`);
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(journal, longAgo, longAgo);
    const stale = await other.store.open(id);
    assert.ok(stale.ok);
    assert.equal(stale.runningElsewhere, false);
    assert.equal(stale.conversation.turns[0].outcome.kind, "interrupted");
    assert.match(String(stale.conversation.turns[0].notice), /^Relay Chat stopped during this request/);
  });

  it("tells a window about the other window's new conversation and deletion through the folder watch", async () => {
    const ticks = { now: 1_800_000_000_000 };
    const [first, second] = windowsOn(folder, 0, ticks);
    const changes: string[][] = [];
    const watch = first.store.watch((change) => changes.push([...change.conversationIds]), 20);
    try {
      await watch.ready;
      const expected = new Expected();
      await run([{ kind: "new", window: 1 }, { kind: "addTurn", window: 1 }, { kind: "finish", window: 1 }], [first, second], expected, ticks);
      const id = [...expected.saved][0];
      await waitFor(() => changes.some((ids) => ids.includes(id)));
      assert.deepEqual((await first.store.list()).conversations.map((entry) => entry.id), [id]);
      changes.length = 0;
      const opened = await first.store.open(id);
      assert.ok(opened.ok);
      await second.store.delete(id);
      await waitFor(() => changes.some((ids) => ids.includes(id)));
      assert.deepEqual((await first.store.list()).conversations, []);
      // The first window still had it open and saves a new turn into it: it stays deleted, in the list too.
      const late = structuredClone(opened.conversation.turns[0]);
      late.id = "turn_late";
      opened.conversation.turns.push(late);
      await first.store.save(opened.conversation, [late.id]);
      assert.deepEqual((await first.store.list()).conversations, []);
      assert.equal((await second.store.open(id)).ok, false);
    } finally {
      watch.dispose();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a change to be reported");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the history folder of a second window on the same folder", () => {
  it("is the first window's: VS Code gives the second extension host `<id>-1`", () => {
    const first = path.join("/data", "User", "workspaceStorage", "683bc2ea", "relay-chat.relay-chat");
    const second = path.join("/data", "User", "workspaceStorage", "683bc2ea-1", "relay-chat.relay-chat");
    assert.equal(sharedHistoryFolder(second, (folder) => folder === first), first);
    assert.equal(sharedHistoryFolder(first, () => true), first);
    assert.equal(sharedHistoryFolder(second, () => false), second, "its own folder when the first window's has no history");
  });
});
