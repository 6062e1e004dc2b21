import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { answerTextOf } from "../../src/chat/answerText";
import type { TurnResult } from "../../src/chat/chatSession";
import { CONVERSATION_SCHEMA_VERSION } from "../../src/chat/conversation";
import { parseConversation, serializeConversation } from "../../src/chat/conversationSchema";
import { activeHistoryItems } from "../../src/chat/historyItems";
import { outputTextOf } from "../../src/relay/accumulate";
import { userMessage } from "../../src/relay/requestBuilder";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { startChatHarness } from "../fixtures/chat/chatHarness";

// Conversation files written by earlier versions (issue 12): version 1 kept every completed request's
// output twice (in `turn.items` and in `requests[].output`); version 2 keeps each item once. The fixtures
// were recorded by the version-1 code itself (a reasoning turn, a tool round trip, Continue, Retry with a
// larger budget, a failed turn and a regenerated branch), with the exact input it would send next.

const fixtures = path.resolve(__dirname, "../fixtures/chat");
const versionOneText = readFileSync(path.join(fixtures, "conversation-v1.json"), "utf8");
const versionZeroText = readFileSync(path.join(fixtures, "conversation-v0.json"), "utf8");
const expectedInput = readFileSync(path.join(fixtures, "conversation-v1.expected-input.json"), "utf8");

interface VersionOneTurn {
  id: string;
  items: Array<Record<string, unknown>>;
  partialText: string;
  requests: Array<{ output: Array<{ id?: string }> }>;
}

function migrated(text: string) {
  const parsed = parseConversation(text);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.problem);
  return parsed;
}

describe("conversation schema migration", () => {
  for (const [version, text] of [
    [1, versionOneText],
    [0, versionZeroText],
  ] as const) {
    it(`loads a version ${version} file and would send byte-identical history`, () => {
      const parsed = migrated(text);
      assert.equal(parsed.migratedFrom, version);
      assert.equal(parsed.conversation.schemaVersion, CONVERSATION_SCHEMA_VERSION);
      assert.equal(JSON.stringify(activeHistoryItems(parsed.conversation)), expectedInput);
    });
  }

  it("stores every output item once, each request keeping what it added to the history", () => {
    const { conversation } = migrated(versionOneText);
    const saved = serializeConversation(conversation);
    const original = JSON.parse(versionOneText) as { turns: VersionOneTurn[] };
    for (const turn of original.turns) {
      for (const item of turn.requests.flatMap((request) => request.output)) {
        if (typeof item.id !== "string") continue;
        assert.equal(saved.split(`"id":"${item.id}"`).length - 1, 1, `${item.id} is stored once`);
      }
    }
    assert.equal(saved.includes('"items"'), false);
    assert.equal(saved.includes('"partialText"'), false);
    assert.ok(saved.length < versionOneText.replace(/\n\s*/g, "").length, "smaller than the version 1 file");
    const byId = new Map(conversation.turns.map((turn) => [turn.id, turn]));
    assert.deepEqual(byId.get("turn_v1_3")?.requests.map((request) => request.input.map((item) => item.type)), [["message"], ["function_call_output"]]);
    assert.deepEqual(byId.get("turn_v1_4")?.requests.map((request) => request.input.length), [1, 2], "Continue added the partial answer and the prompt");
    assert.deepEqual(byId.get("turn_v1_5")?.requests.map((request) => request.input.length), [1, 0], "Retry added nothing");
    assert.ok(conversation.turns.every((turn) => turn.legacyItems === undefined));
  });

  it("shows the same answers as version 1 did, and the partial text of the failed turn", () => {
    const { conversation } = migrated(versionOneText);
    const original = JSON.parse(versionOneText) as { turns: VersionOneTurn[] };
    for (const turn of original.turns) {
      const now = conversation.turns.find((candidate) => candidate.id === turn.id)!;
      // Version 1 showed a completed turn's text from its items, and a failed one's from partialText.
      const before = turn.items.map((item) => (typeof item.content === "string" && item.role === "assistant" ? item.content : outputTextOf([item as never]))).join("") + turn.partialText;
      assert.equal(answerTextOf(now), before, turn.id);
    }
  });

  it("keeps the items verbatim when a hand-edited turn cannot be matched to its requests", () => {
    const edited = JSON.parse(versionOneText) as { turns: VersionOneTurn[] };
    edited.turns[0].items.push({ type: "message", role: "user", content: "added by hand" });
    const { conversation } = migrated(JSON.stringify(edited));
    assert.deepEqual(conversation.turns[0].legacyItems, edited.turns[0].items);
    assert.ok(JSON.stringify(activeHistoryItems(conversation)).includes("added by hand"), "what is resent never changes");
  });

  describe("through a real send", () => {
    let harness: ChatHarness;
    beforeEach(async () => {
      harness = await startChatHarness();
    });
    afterEach(async () => {
      await harness.close();
    });

    for (const [version, text] of [
      [1, versionOneText],
      [0, versionZeroText],
    ] as const) {
      it(`continues a version ${version} conversation: the relay receives the old history byte for byte`, async () => {
        const id = (JSON.parse(text) as { id: string }).id;
        await mkdir(path.join(harness.folder, "conversations"), { recursive: true });
        await writeFile(path.join(harness.folder, "conversations", `${id}.json`), text);
        const opened = await harness.store.open(id);
        assert.ok(opened.ok, opened.ok ? "" : opened.problem);
        assert.match(String(opened.notice), new RegExp(`upgraded from an older format \\(version ${version}\\)`));
        const session = harness.newSession({ conversation: opened.conversation });
        const result: TurnResult = await session.send("next question");
        assert.equal(result.status === "finished" && result.turn.outcome.kind, "completed");
        const raw = harness.emulator.received.filter((request) => request.method === "POST")[0].rawBody;
        assert.equal(JSON.stringify((JSON.parse(raw) as { input: unknown[] }).input), JSON.stringify([...(JSON.parse(expectedInput) as unknown[]), userMessage("next question")]));
        assert.ok(raw.includes(expectedInput.slice(1, -1)), "the old items appear in the raw body exactly as stored");
        // Saved again in the new format, and it still reads the same.
        const reopened = await harness.store.open(id);
        assert.ok(reopened.ok);
        assert.equal(reopened.notice, null);
        assert.equal(JSON.stringify(activeHistoryItems(reopened.conversation).slice(0, -2)), expectedInput);
      });
    }
  });
});
