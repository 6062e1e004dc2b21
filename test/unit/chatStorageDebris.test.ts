import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Conversation } from "../../src/chat/conversation";
import { createConversation, newestLeafFrom } from "../../src/chat/conversation";
import { conversationTotals } from "../../src/chat/conversationTotals";
import type { RequestRecord } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { RequestLedger, totalsOf } from "../../src/chat/requestLedger";
import type { LedgerRow } from "../../src/chat/requestLedger";
import { totalsViewOf } from "../../src/panel/panelPresenter";
import { sampleConversation, sampleConversationId } from "../fixtures/chat/sampleConversations";

// Storage that never leaves debris or freezes, and one rule for totals (issue 18, parts 3 and 4).

describe("storage without debris, torn lines or endless walks", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-debris-"));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("removes the temporary file of a write that fails part way (a full disk)", function () {
    this.timeout(30_000);
    const script = path.resolve(__dirname, "../fixtures/chat/writeUntilFull.ts");
    // SIGXFSZ ignored, so the write fails with EFBIG instead of killing the process.
    const result = spawnSync("bash", ["-c", `trap '' XFSZ; ulimit -f 64; exec "${process.execPath}" --require tsx/cjs "${script}" "${folder}"`], { cwd: path.resolve(__dirname, "../.."), encoding: "utf8" });
    assert.match(result.stdout, /^failed (EFBIG|ENOSPC)/, result.stderr);
    return readdir(path.join(folder, "conversations")).then((names) => assert.deepEqual(names, [], "no temporary file is left"));
  });

  it("cleans temporary files left by earlier runs at start, but not one another window is writing", async () => {
    await mkdir(path.join(folder, "conversations"), { recursive: true });
    const old = path.join(folder, "conversations", "conv_a.json.tmp-123-abcd");
    const young = path.join(folder, "index.json.tmp-456-ef01");
    await writeFile(old, "half");
    await writeFile(young, "half");
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(old, longAgo, longAgo);
    assert.equal(await new FileStorage(folder).removeLeftovers(), 1);
    assert.deepEqual(await readdir(path.join(folder, "conversations")), []);
    assert.deepEqual(await readdir(folder), ["conversations", "index.json.tmp-456-ef01"]);
  });

  it("takes over a compaction lock a killed writer left empty, and loses nothing", async () => {
    const store = new HistoryStore(new FileStorage(folder), undefined, { compactAtBytes: 1 });
    await store.save(sampleConversation(0, 2, 100));
    // Killed between creating the lock and writing its holder's name: an empty file.
    await writeFile(path.join(folder, "conversations", `${sampleConversationId(0)}.lock`), "");
    await store.save(sampleConversation(0, 3, 100));
    await store.save(sampleConversation(0, 4, 100));
    const reopened = await new HistoryStore(new FileStorage(folder)).open(sampleConversationId(0));
    assert.ok(reopened.ok);
    assert.deepEqual(reopened.conversation, sampleConversation(0, 4, 100));
    assert.ok(!(await readdir(path.join(folder, "conversations"))).some((name) => name.endsWith(".lock")), "the stale lock is gone");
  });

  it("starts each ledger row on a new line, so a torn last line does not swallow the next row", async () => {
    const storage = new FileStorage(folder);
    const ledger = new RequestLedger(storage);
    const row: LedgerRow = { time: "2026-01-01T00:00:00.000Z", conversationId: "conv_1", turnId: "turn_1", purpose: "send", model: "echo", streamed: true, outcome: "completed", httpStatus: 200, requestId: "req_1", responseId: null, inputTokens: 1, cachedTokens: 0, outputTokens: 2, reasoningTokens: 0, firstByteMs: 1, totalMs: 2, bytesReceived: 3 };
    await ledger.record(row);
    // A row cut short by a crash or a full disk (its own line break written, the rest not).
    await storage.append("ledger.jsonl", '\n{"time":"2026-01-01T00:00:01');
    await ledger.record({ ...row, requestId: "req_2" });
    assert.deepEqual((await ledger.rows()).map((each) => each.requestId), ["req_1", "req_2"]);
  });

  it("treats a conversation whose turn is its own parent as damaged, and never loops on it", async () => {
    const looped: Conversation = sampleConversation(1, 3);
    looped.turns[0].parentId = looped.turns[2].id;
    await mkdir(path.join(folder, "conversations"), { recursive: true });
    await writeFile(path.join(folder, "conversations", `${looped.id}.json`), JSON.stringify(looped));
    const opened = await new HistoryStore(new FileStorage(folder)).open(sampleConversationId(1));
    assert.equal(opened.ok, false);
    assert.match(!opened.ok ? opened.problem : "", /is its own parent.*moved to damaged\//);

    const selfParent = sampleConversation(2, 2);
    selfParent.turns[1].parentId = selfParent.turns[1].id;
    assert.equal(newestLeafFrom(selfParent, selfParent.turns[1].id), selfParent.turns[1].id, "a walk in memory stops too");
  });
});

describe("one rule for the totals", () => {
  it("the panel's totals (from the conversation) and the ledger's totals agree on HTTP and network errors", async () => {
    const records: RequestRecord[] = [
      { purpose: "send", startedAt: 0, model: "echo", streamed: true, maxOutputTokens: null, outcome: { kind: "completed" }, explanation: null, httpStatus: 200, requestId: "a", responseId: null, usage: { input_tokens: 5, output_tokens: 7 } as RequestRecord["usage"], input: [], output: [] },
      { purpose: "send", startedAt: 0, model: "echo", streamed: true, maxOutputTokens: null, outcome: { kind: "http_error", status: 401, body: "" } as unknown as RequestRecord["outcome"], explanation: null, httpStatus: 401, requestId: "b", responseId: null, usage: null, input: [], output: [] },
      { purpose: "send", startedAt: 0, model: "echo", streamed: true, maxOutputTokens: null, outcome: { kind: "network_error", cause: "refused" } as unknown as RequestRecord["outcome"], explanation: null, httpStatus: null, requestId: null, responseId: null, usage: null, input: [], output: [] },
      { purpose: "send", startedAt: 0, model: "echo", streamed: true, maxOutputTokens: null, outcome: { kind: "interrupted", bytes: 1, events: 1, reason: "client_stopped" } as unknown as RequestRecord["outcome"], explanation: null, httpStatus: 200, requestId: "d", responseId: null, usage: null, input: [], output: [] },
    ];
    const conversation = createConversation("c", "echo", 0);
    conversation.turns.push({ id: "t", parentId: null, userText: "hi", createdAt: 0, requests: records, toolCalls: [], outcome: { kind: "completed" }, notice: null });
    const ledgerTotals = totalsOf(records.map((record) => ({ outcome: record.outcome.kind, inputTokens: record.usage?.input_tokens ?? null, cachedTokens: null, outputTokens: record.usage?.output_tokens ?? null, reasoningTokens: null, bytesReceived: 0 })));
    assert.equal(ledgerTotals.requestsWithoutUsage, 1, "only the interrupted request may have been billed without usage");
    assert.equal(ledgerTotals.cost.requestsWithoutCost, 2, "nor did an HTTP or network error cost anything: two requests of unknown cost");
    assert.deepEqual(totalsViewOf(conversationTotals(conversation, false)), {
      requests: 4,
      inputTokens: 5,
      cachedTokens: 0,
      outputTokens: 7,
      requestsWithoutUsage: ledgerTotals.requestsWithoutUsage,
      requestsWithUsage: ledgerTotals.requestsWithUsage,
      cost: null,
      requestsWithoutCost: ledgerTotals.cost.requestsWithoutCost,
    });
  });
});
