import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { conversationToJson } from "../../src/chat/exportJson";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import { csvField, ledgerToCsv } from "../../src/chat/ledgerCsv";
import type { LedgerRow } from "../../src/chat/requestLedger";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { allFilesUnder, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

describe("chat request ledger", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("records every request once, follow-ups included, with ids, usage and timing", async () => {
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve") });
    const result = await session.send("weather?");
    assert.equal(result.status, "finished");
    harness.emulator.queueFault({ kind: "failed" });
    await session.send("again");

    const rows = await harness.ledger.rows();
    assert.equal(rows.length, 3);
    assert.equal(harness.emulator.postCount(), 3);
    assert.deepEqual(rows.map((row) => [row.purpose, row.outcome]), [["send", "completed"], ["tool_follow_up", "completed"], ["send", "failed"]]);
    const usageLog = harness.emulator.usageLog;
    assert.deepEqual(rows.map((row) => row.requestId), usageLog.map((entry) => entry.requestId), "request ids match the relay's usage log");
    for (const [index, row] of rows.entries()) {
      assert.equal(row.conversationId, session.conversation.id);
      assert.equal(row.model, "tools");
      assert.equal(row.streamed, true);
      assert.equal(row.httpStatus, 200);
      assert.match(String(row.responseId), /^resp_/);
      assert.ok(row.bytesReceived > 0);
      assert.ok(row.firstByteMs !== null && row.totalMs >= row.firstByteMs);
      assert.ok(!Number.isNaN(Date.parse(row.time)));
      if (row.outcome === "completed") {
        assert.equal(row.inputTokens, usageLog[index].inputTokens);
        assert.equal(row.outputTokens, usageLog[index].outputTokens);
        assert.equal(row.cachedTokens, 0);
        assert.equal(row.reasoningTokens, 0);
      }
    }
    assert.equal(rows[0].turnId, rows[1].turnId);
    const totals = await harness.ledger.totalsFor(session.conversation.id);
    assert.equal(totals.requests, 3);
    assert.equal(totals.inputTokens, rows.reduce((sum, row) => sum + (row.inputTokens ?? 0), 0));
    assert.deepEqual(await harness.ledger.totalsFor("conv_other"), {
      requests: 0,
      requestsWithoutUsage: 0,
      requestsWithUsage: 0,
      inputTokens: 0,
      cachedTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      bytesReceived: 0,
      cost: { amount: null, currency: null, estimated: false, requestsWithoutCost: 0 },
    });
  });

  it("skips a line cut short by a crash", async () => {
    const session = harness.newSession();
    await session.send("hello");
    await writeFile(path.join(harness.folder, "ledger.jsonl"), `${(await harness.storage.read("ledger.jsonl")) ?? ""}{"time":"2024-`);
    assert.equal((await harness.ledger.rows()).length, 1);
  });

  it("exports CSV with proper quoting", () => {
    assert.equal(csvField("plain"), "plain");
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField("a,b"), '"a,b"');
    assert.equal(csvField("line\nbreak"), '"line\nbreak"');
    assert.equal(csvField("cr\rhere"), '"cr\rhere"');
    assert.equal(csvField(null), "");
    assert.equal(csvField(false), "false");
    const row: LedgerRow = {
      time: "2024-01-01T00:00:00.000Z",
      conversationId: "conv_1",
      turnId: "turn_1",
      purpose: "send",
      model: 'odd,"model"\nname',
      streamed: true,
      outcome: "completed",
      httpStatus: 200,
      requestId: "req_1",
      responseId: null,
      inputTokens: 10,
      cachedTokens: 0,
      outputTokens: 5,
      reasoningTokens: null,
      firstByteMs: 12,
      totalMs: 34,
      bytesReceived: 567,
    };
    const csv = ledgerToCsv([row]);
    assert.equal(
      csv,
      "time,conversationId,turnId,purpose,model,streamed,outcome,httpStatus,requestId,requestIds,responseId,inputTokens,cachedTokens,outputTokens,reasoningTokens,firstByteMs,totalMs,bytesReceived,relay,estimatedCost,billedCost,costCurrency\r\n" +
        '2024-01-01T00:00:00.000Z,conv_1,turn_1,send,"odd,""model""\nname",true,completed,200,req_1,,,10,0,5,,12,34,567,,,,\r\n',
    );
  });

  it("never writes the API key: history, ledger and exports are free of it", async () => {
    const key = harness.emulator.defaultKey;
    const session = harness.newSession({ settings: { model: "tools" }, tools: weatherTools("approve") });
    await session.send("weather?");
    harness.emulator.queueFault({ kind: "status", status: 500, message: `upstream rejected Bearer ${key} for key ${key}` });
    const failed = await session.send("again");
    assert.equal(failed.status === "finished" && failed.turn.outcome.kind, "http_error");
    harness.emulator.queueFault({ kind: "error_event", message: `stream broke for ${key}` });
    await session.send("once more");
    harness.emulator.queueFault({ kind: "disconnect", afterBytes: 500 });
    await session.send("and again");

    await writeFile(path.join(harness.folder, "export.md"), conversationToMarkdown(session.conversation));
    await writeFile(path.join(harness.folder, "export.json"), conversationToJson(session.conversation));
    await writeFile(path.join(harness.folder, "ledger.csv"), ledgerToCsv(await harness.ledger.rows()));

    const files = await allFilesUnder(harness.folder);
    assert.ok(files.length >= 6, files.map((file) => file.file).join(", "));
    const keyBytes = Buffer.from(key, "utf8");
    for (const file of files) assert.equal(file.bytes.indexOf(keyBytes), -1, `${file.file} contains the key`);
    // The error itself was kept (redacted), so the check above is not vacuous.
    assert.ok(files.some((file) => file.bytes.includes("upstream rejected")));
  });

  it("writes a pending row with the request id when the relay answers with headers, and completes it at the end", async () => {
    harness.emulator.queueFault({ kind: "drip", intervalMs: 20 });
    let seenWhileStreaming: Awaited<ReturnType<typeof harness.ledger.rows>> | null = null;
    let reading: Promise<void> | null = null;
    const session = harness.newSession({
      listener: {
        onAnswerDelta: () => {
          reading ??= harness.ledger.rows().then((rows) => {
            seenWhileStreaming = rows;
          });
        },
      },
    });
    await session.send("a slow answer of several words");
    await reading;
    const requestId = harness.emulator.usageLog[0].requestId;
    assert.deepEqual(
      (seenWhileStreaming as Awaited<ReturnType<typeof harness.ledger.rows>> | null)?.map((row) => [row.outcome, row.requestId, row.httpStatus]),
      [["pending", requestId, 200]],
    );
    const rows = await harness.ledger.rows();
    assert.deepEqual(rows.map((row) => [row.outcome, row.requestId]), [["completed", requestId]], "the final row replaces the pending one");
    assert.equal(((await harness.storage.read("ledger.jsonl")) ?? "").trim().split("\n").length, 2, "both were appended");
    assert.equal((await harness.ledger.totalsFor(session.conversation.id)).requests, 1);
  });
});

describe("chat request ledger with real relays' headers and usage", () => {
  it("keeps every request id seen, the relay's own first", async () => {
    const harness = await startChatHarness({ profile: "new-api", proxyRequestId: true });
    try {
      await harness.newSession().send("hello");
      const [row] = await harness.ledger.rows();
      const received = harness.emulator.received[harness.emulator.received.length - 1];
      assert.equal(row.requestId, received.requestId);
      assert.equal(row.requestIds?.length, 2);
      assert.equal(row.requestIds?.[0], received.requestId);
      assert.match(String(row.requestIds?.[1]), /^proxy_/, "the proxy's own x-request-id");
      assert.ok(ledgerToCsv([row]).includes(`${row.requestId} ${row.requestIds?.[1]}`), "the CSV lists them all");
    } finally {
      await harness.close();
    }
  });

  it("never counts usage the relay did not report as 0: the tokens are unknown and the totals say so", async () => {
    const harness = await startChatHarness({ profile: "translated" });
    try {
      const session = harness.newSession();
      await session.send("hello");
      await session.send("again");
      // A request refused with an HTTP error produced nothing to bill: it does not make the totals unknown.
      harness.emulator.queueFault({ kind: "status", status: 401 });
      await session.send("refused");
      const rows = await harness.ledger.rows();
      assert.deepEqual(rows.map((row) => [row.inputTokens, row.outputTokens]), [[null, null], [null, null], [null, null]]);
      const totals = await harness.ledger.totalsFor(session.conversation.id);
      assert.deepEqual([totals.requests, totals.requestsWithoutUsage], [3, 2]);
      const record = session.conversation.turns[0].requests[0];
      assert.equal(record.usage, null);
      assert.deepEqual(record.reportedUsage?.output_tokens, 0, "what the relay sent is kept for the record");
    } finally {
      await harness.close();
    }
  });
});
