import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { answerTextOf } from "../../src/chat/answerText";
import type { TurnResult } from "../../src/chat/chatSession";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { PENDING_OUTCOME, RequestLedger } from "../../src/chat/requestLedger";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { startChatHarness } from "../fixtures/chat/chatHarness";
import { FIRST_MESSAGE, LONG_TOOL_RESULT } from "../fixtures/chat/runTurnUntilKilled";

// Turns that survive a crash, a kill and a delete (issue 10, §4). A real child process runs a real chat
// turn against the emulator and is killed with SIGKILL while the answer streams; a fresh store then reads
// what it left on disk, as VS Code would after a restart.

const script = path.resolve(__dirname, "../fixtures/chat/runTurnUntilKilled.ts");

interface SavedRequest {
  outcome: { kind: string };
  requestId: string | null;
  output: Array<{ type: string; content?: Array<{ text?: string }> }>;
}

/**
 * Polls the conversation, as another window reads it while the child streams (its turn stays running
 * there, since the child is alive), until `ready` holds for its last request.
 */
async function waitForSaved(folder: string, conversationId: string, ready: (request: SavedRequest, requestCount: number) => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const reader = new HistoryStore(new FileStorage(folder));
  for (;;) {
    const opened = await reader.open(conversationId);
    if (opened.ok) {
      const { turns } = opened.conversation;
      const requests = (turns[turns.length - 1]?.requests ?? []) as unknown as SavedRequest[];
      const last = requests[requests.length - 1];
      if (last && ready(last, requests.length)) return;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for conversation ${conversationId} in ${folder}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const hasPartialText = (request: SavedRequest) => request.output.some((item) => (item.content ?? []).some((part) => (part.text ?? "").length > 0));

describe("turns that survive a crash, a kill and a delete", function () {
  this.timeout(90_000);
  let emulator: RelayEmulator;
  let folder: string;
  beforeEach(async () => {
    emulator = await startRelayEmulator();
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-crash-"));
  });
  afterEach(async () => {
    await emulator.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function runUntil(scenario: "first" | "after-tool", ready: (request: SavedRequest, requestCount: number) => boolean): Promise<string> {
    const child = spawn(process.execPath, ["--require", "tsx/cjs", script, folder, emulator.baseUrl, emulator.defaultKey, scenario], { cwd: path.resolve(__dirname, "../.."), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const conversationId = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^conversation (\S+)$/m.exec(stdout);
        if (match) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`the chat process exited early (${code}): ${stderr}`)));
    });
    try {
      await waitForSaved(folder, conversationId, ready);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    return conversationId;
  }

  it("after a SIGKILL during the first request of a new conversation: the message, the partial answer and the request id are on disk, the ledger has the row", async () => {
    emulator.queueFault({ kind: "drip", intervalMs: 120 });
    const conversationId = await runUntil("first", (request) => request.outcome.kind === "in_progress" && request.requestId !== null && hasPartialText(request));
    const requestId = emulator.received.filter((request) => request.method === "POST")[0].requestId;

    const opened = await new HistoryStore(new FileStorage(folder)).open(conversationId);
    assert.ok(opened.ok, opened.ok ? "" : opened.problem);
    const [turn] = opened.conversation.turns;
    assert.equal(turn.userText, FIRST_MESSAGE, "the user's message survived");
    assert.deepEqual(turn.requests[0].input, [{ type: "message", role: "user", content: FIRST_MESSAGE }]);
    assert.equal(turn.outcome.kind, "interrupted");
    assert.equal(turn.outcome.kind === "interrupted" && turn.outcome.reason, "client_stopped");
    assert.match(String(turn.notice), new RegExp(`^Relay Chat stopped during this request\\..*request id ${requestId}`));
    assert.equal(turn.requests[0].requestId, requestId);
    const partial = answerTextOf(turn);
    assert.ok(partial.length > 0 && `You said: ${FIRST_MESSAGE}`.startsWith(partial), `partial text kept: ${JSON.stringify(partial)}`);
    assert.ok(partial.length < `You said: ${FIRST_MESSAGE}`.length, "killed mid-stream");
    assert.equal(opened.conversation.activeTurnId, turn.id);

    const rows = await new RequestLedger(new FileStorage(folder)).rows();
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0].requestId, rows[0].outcome, rows[0].conversationId, rows[0].httpStatus], [requestId, PENDING_OUTCOME, conversationId, 200]);
    const listed = await new HistoryStore(new FileStorage(folder)).list();
    assert.deepEqual(listed.conversations.map((entry) => entry.id), [conversationId]);
  });

  it("after a SIGKILL during the follow-up after a tool call: the call, its result and the partial follow-up are kept, the ledger has both rows", async () => {
    emulator.queueFault({ kind: "none" });
    emulator.queueFault({ kind: "drip", intervalMs: 120 });
    const conversationId = await runUntil("after-tool", (request, count) => count === 2 && request.outcome.kind === "in_progress" && request.requestId !== null && hasPartialText(request));
    const posts = emulator.received.filter((request) => request.method === "POST");
    assert.equal(posts.length, 2);

    const opened = await new HistoryStore(new FileStorage(folder)).open(conversationId);
    assert.ok(opened.ok, opened.ok ? "" : opened.problem);
    const [turn] = opened.conversation.turns;
    assert.deepEqual(turn.requests.map((request) => [request.purpose, request.outcome.kind]), [["send", "completed"], ["tool_follow_up", "interrupted"]]);
    assert.equal(turn.outcome.kind, "interrupted");
    assert.match(String(turn.notice), new RegExp(`^Relay Chat stopped during this request\\..*request id ${posts[1].requestId}`));
    assert.equal(turn.toolCalls.length, 1);
    assert.equal(turn.toolCalls[0].output.output, LONG_TOOL_RESULT);
    assert.deepEqual(turn.requests[1].input, [turn.toolCalls[0].output], "the tool result went into the follow-up");
    assert.equal(turn.requests[0].output[0].type, "function_call");
    const partial = answerTextOf(turn);
    assert.ok(partial.length > 0 && `Tool result: ${LONG_TOOL_RESULT}`.startsWith(partial), `partial follow-up kept: ${JSON.stringify(partial)}`);

    const rows = await new RequestLedger(new FileStorage(folder)).rows();
    assert.deepEqual(
      rows.map((row) => [row.purpose, row.outcome, row.requestId]),
      [
        ["send", "completed", posts[0].requestId],
        ["tool_follow_up", PENDING_OUTCOME, posts[1].requestId],
      ],
    );
  });

  it("a conversation deleted while it streams stays deleted when the cancelled turn saves", async () => {
    const harness = await startChatHarness();
    try {
      harness.emulator.queueFault({ kind: "drip", intervalMs: 30 });
      let deleting: Promise<void> | null = null;
      const session = harness.newSession({
        listener: {
          onAnswerDelta: () => {
            if (deleting) return;
            // As the panel does: delete, and stop the turn.
            deleting = harness.store.delete(session.conversation.id).then(() => session.cancel());
          },
        },
      });
      const result: TurnResult = await session.send("a message that will be deleted while it streams");
      await deleting;
      assert.equal(result.status === "finished" && result.turn.outcome.kind, "cancelled");
      const opened = await harness.store.open(session.conversation.id);
      assert.equal(opened.ok, false);
      assert.deepEqual((await harness.store.list()).conversations, []);
      assert.deepEqual((await new HistoryStore(new FileStorage(harness.folder)).list()).conversations, [], "nothing on disk either");
      assert.equal((await harness.ledger.rows()).length, 1, "the billed request is still in the ledger");
    } finally {
      await harness.close();
    }
  });
});
