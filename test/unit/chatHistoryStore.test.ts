import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { answerTextOf } from "../../src/chat/answerText";
import { conversationToJson } from "../../src/chat/exportJson";
import { activeHistoryItems, historyItemsBefore } from "../../src/chat/historyItems";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { sampleConversation, sampleConversationId } from "../fixtures/chat/sampleConversations";

describe("chat history store", () => {
  let folder: string;
  let store: HistoryStore;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-store-"));
    // Every settled save folds the journal into the snapshot, so the tests can damage the snapshot file.
    store = new HistoryStore(new FileStorage(folder), { now: () => 1_800_000_000_000 }, { compactAtBytes: 0 });
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const conversationFile = (index: number) => path.join(folder, "conversations", `${sampleConversationId(index)}.json`);

  it("lists, opens, renames and deletes conversations, titled by the first user message", async () => {
    for (let index = 1; index <= 3; index += 1) await store.save(sampleConversation(index, index));
    const listing = await new HistoryStore(new FileStorage(folder)).list();
    assert.deepEqual(listing.problems, []);
    assert.deepEqual(listing.conversations.map((entry) => entry.id), [3, 2, 1].map(sampleConversationId), "newest first");
    assert.deepEqual(listing.conversations[0], {
      id: sampleConversationId(3),
      title: "Question 0 of conversation 3",
      createdAt: sampleConversation(3, 3).createdAt,
      updatedAt: sampleConversation(3, 3).updatedAt,
      model: "echo",
      turnCount: 3,
    });

    const opened = await store.open(sampleConversationId(2));
    assert.ok(opened.ok);
    assert.deepEqual(opened.conversation, sampleConversation(2, 2));

    await store.rename(sampleConversationId(2), "  Renamed, with \"quotes\"  ");
    const renamed = (await new HistoryStore(new FileStorage(folder)).list()).conversations.find((entry) => entry.id === sampleConversationId(2));
    assert.equal(renamed?.title, 'Renamed, with "quotes"');

    await store.delete(sampleConversationId(1));
    const afterDelete = await new HistoryStore(new FileStorage(folder)).list();
    assert.deepEqual(afterDelete.conversations.map((entry) => entry.id).sort(), [2, 3].map(sampleConversationId));
    assert.equal((await store.open(sampleConversationId(1))).ok, false);
  });

  for (const damage of ["truncated", "garbage"] as const) {
    it(`sets a ${damage} conversation file aside with a clear message; the others still load`, async () => {
      for (let index = 1; index <= 3; index += 1) await store.save(sampleConversation(index, 2));
      if (damage === "truncated") await truncate(conversationFile(2), 100);
      else await writeFile(conversationFile(2), "\u0000\u0001garbage{{{");

      const fresh = new HistoryStore(new FileStorage(folder));
      const opened = await fresh.open(sampleConversationId(2));
      assert.equal(opened.ok, false);
      assert.match(!opened.ok ? opened.problem : "", /could not be read because it is not valid JSON.*moved to damaged\/.*other conversations are unaffected/);
      const setAside = await readdir(path.join(folder, "damaged"));
      assert.equal(setAside.length, 1);
      assert.match(setAside[0], new RegExp(`^${sampleConversationId(2)}\\.json\\.\\d+\\.damaged$`));
      const listing = await fresh.list();
      assert.deepEqual(listing.conversations.map((entry) => entry.id).sort(), [1, 3].map(sampleConversationId));
      for (const index of [1, 3]) assert.ok((await fresh.open(sampleConversationId(index))).ok);
    });
  }

  it("leaves out a damaged file found while rebuilding, and reports it at list time", async () => {
    for (let index = 1; index <= 3; index += 1) await store.save(sampleConversation(index, 2));
    await writeFile(conversationFile(3), '{"id": "conv_sample_00003", "turns": "not a list"}');
    await rm(path.join(folder, "index.json"), { force: true });
    const listing = await new HistoryStore(new FileStorage(folder)).list();
    assert.deepEqual(listing.conversations.map((entry) => entry.id).sort(), [1, 2].map(sampleConversationId));
    assert.equal(listing.problems.length, 1);
    assert.match(listing.problems[0], /conv_sample_00003\.json could not be read because .*moved to damaged\//);
  });

  it("rebuilds a garbage index from the conversation files and says so", async () => {
    for (let index = 1; index <= 4; index += 1) await store.save(sampleConversation(index, 2));
    await writeFile(path.join(folder, "index.json"), "this is not json");
    const fresh = new HistoryStore(new FileStorage(folder));
    const listing = await fresh.list();
    assert.deepEqual(listing.conversations.map((entry) => entry.id), [4, 3, 2, 1].map(sampleConversationId));
    assert.equal(listing.problems.length, 1);
    assert.match(listing.problems[0], /conversation list could not be read.*rebuilt from the conversation files/);
    const rebuilt = JSON.parse(await readFile(path.join(folder, "index.json"), "utf8")) as { conversations: unknown[] };
    assert.equal(rebuilt.conversations.length, 4);
    assert.deepEqual((await fresh.list()).problems, [], "reported once");
  });

  it("picks up a conversation saved just before the index was updated", async () => {
    await store.save(sampleConversation(1, 1));
    await writeFile(conversationFile(2), JSON.stringify(sampleConversation(2, 1)));
    const listing = await new HistoryStore(new FileStorage(folder)).list();
    assert.deepEqual(listing.conversations.map((entry) => entry.id).sort(), [1, 2].map(sampleConversationId));
  });

  it("migrates a version 0 file and refuses, without moving, a file from a newer version", async () => {
    await store.save(sampleConversation(2, 1));
    const versionZero = JSON.parse(await readFile(path.resolve(__dirname, "../fixtures/chat/conversation-v0.json"), "utf8")) as { id: string; turns: Array<{ id: string }> };
    await writeFile(path.join(folder, "conversations", `${versionZero.id}.json`), JSON.stringify(versionZero));
    const opened = await store.open(versionZero.id);
    assert.ok(opened.ok, opened.ok ? "" : opened.problem);
    assert.equal(opened.conversation.schemaVersion, 2);
    assert.equal(opened.conversation.activeTurnId, versionZero.turns[versionZero.turns.length - 1].id);
    assert.match(String(opened.notice), /upgraded from an older format \(version 0\)/);

    await writeFile(conversationFile(3), JSON.stringify({ ...sampleConversation(3, 1), schemaVersion: 99 }));
    const newer = await store.open(sampleConversationId(3));
    assert.equal(newer.ok, false);
    assert.match(!newer.ok ? newer.problem : "", /newer version of Relay Chat/);
    assert.ok((await readFile(conversationFile(3), "utf8")).includes('"schemaVersion":99'), "left where it was");
  });

  it("shows a turn saved while its request ran as interrupted after a restart, with what had arrived and the request id", async () => {
    const conversation = sampleConversation(1, 2);
    conversation.turns[1].outcome = { kind: "in_progress" };
    conversation.turns[1].requests[0].outcome = { kind: "in_progress" };
    conversation.turns[1].requests[0].received = { bytes: 1234, events: 17 };
    await store.save(conversation);
    // After a restart the process that wrote it is gone.
    const opened = await new HistoryStore(new FileStorage(folder), undefined, { processAlive: () => false }).open(sampleConversationId(1));
    assert.ok(opened.ok);
    const turn = opened.conversation.turns[1];
    assert.deepEqual(turn.outcome, { kind: "interrupted", bytes: 1234, events: 17, reason: "client_stopped" });
    assert.deepEqual(turn.requests[0].outcome, turn.outcome);
    assert.match(String(turn.notice), /^Relay Chat stopped during this request\..*request id req_1_1/);
    assert.equal(answerTextOf(turn), answerTextOf(sampleConversation(1, 2).turns[1]), "the text that was saved is shown");
    assert.deepEqual(activeHistoryItems(opened.conversation), historyItemsBefore(sampleConversation(1, 2), "turn_1_0"), "and it is never sent again");
  });

  it("exports Markdown for reading and JSON with the exact items", async () => {
    const conversation = sampleConversation(1, 2);
    conversation.turns[1].outcome = { kind: "incomplete", reason: "max_output_tokens" };
    conversation.turns[1].requests[0].outcome = { kind: "incomplete", reason: "max_output_tokens" };
    conversation.turns[0].toolCalls.push({ callId: "c1", name: "get_weather", arguments: '{"city":"Paris"}', status: "ready", output: { type: "function_call_output", call_id: "c1", output: "``` sunny ```" } });
    const markdown = conversationToMarkdown(conversation);
    assert.match(markdown, /^# Question 0 of conversation 1\n/);
    assert.match(markdown, /## You\n\nQuestion 1 of conversation 1/);
    assert.match(markdown, /Not completed: incomplete \(max_output_tokens\)/);
    assert.match(markdown, /````\n``` sunny ```\n````/, "a fence longer than the output's own backticks");
    const exported = JSON.parse(conversationToJson(conversation)) as { input: unknown[]; turns: unknown[] };
    assert.deepEqual(exported.input, [...conversation.turns[0].requests[0].input, ...conversation.turns[0].requests[0].output], "only the completed turn is in the sent items");
    assert.equal(exported.turns.length, 2);
  });

  it("keeps every earlier conversation intact when a writer is killed mid-write, again and again", async function () {
    this.timeout(60_000);
    const script = path.resolve(__dirname, "../fixtures/chat/saveConversationsUntilKilled.ts");
    let nextIndex = 1;
    const confirmed = new Map<number, number>();
    let lastRewriteTurns = 0;
    for (let round = 0; round < 6; round += 1) {
      const child = spawn(process.execPath, ["--require", "tsx/cjs", script, folder, String(nextIndex)], { cwd: path.resolve(__dirname, "../.."), stdio: ["ignore", "pipe", "pipe"] });
      let buffered = "";
      let savesThisRound = 0;
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const killDelayMs = 5 + ((round * 37) % 60);
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          buffered += chunk.toString();
          let newline;
          while ((newline = buffered.indexOf("\n")) !== -1) {
            const [, index, turns] = buffered.slice(0, newline).split(" ").map(Number);
            buffered = buffered.slice(newline + 1);
            confirmed.set(index, 20);
            lastRewriteTurns = turns;
            nextIndex = index + 1;
            savesThisRound += 1;
            // Let it get going, then kill it at a moment that varies from round to round.
            if (savesThisRound === 2 + round) setTimeout(() => resolve(), killDelayMs);
          }
        });
        child.once("exit", (code) => (savesThisRound < 2 + round ? reject(new Error(`writer exited early (${code}): ${stderr}`)) : resolve()));
      });
      child.kill("SIGKILL");
      await exited;
    }
    assert.ok(confirmed.size >= 10);

    const fresh = new HistoryStore(new FileStorage(folder));
    const listing = await fresh.list();
    assert.deepEqual(listing.problems, []);
    const listed = new Set(listing.conversations.map((entry) => entry.id));
    for (const [index, turns] of confirmed) {
      assert.ok(listed.has(sampleConversationId(index)), `conversation ${index} is listed`);
      const opened = await fresh.open(sampleConversationId(index));
      assert.ok(opened.ok, `conversation ${index} opens`);
      assert.deepEqual(opened.conversation, sampleConversation(index, turns, 4000));
    }
    const rewritten = await fresh.open(sampleConversationId(0));
    assert.ok(rewritten.ok);
    const turnCount = rewritten.conversation.turns.length;
    // Either the last confirmed save or the one that was in flight, never a mix, and no turn lost.
    assert.ok(turnCount === lastRewriteTurns || turnCount === lastRewriteTurns + 1, `conversation 0 has ${turnCount} turns, ${lastRewriteTurns} confirmed`);
    assert.deepEqual(rewritten.conversation, sampleConversation(0, turnCount, 4000));
  });
});
