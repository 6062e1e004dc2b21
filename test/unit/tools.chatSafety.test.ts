// The built-in tools inside real chat turns (relay emulator on loopback, real files, real processes): the key
// never leaves through a tool result, each call records what happened to it, and Stop ends the commands a
// turn started.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { TurnResult } from "../../src/chat/chatSession";
import type { Turn } from "../../src/chat/conversation";
import { parseConversation, serializeConversation } from "../../src/chat/conversationSchema";
import type { ChatTools } from "../../src/chat/toolRound";
import { turnViewsOf } from "../../src/panel/turns/turnView";
import type { JsonObject } from "../../src/relay/types";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { createReadFileTool } from "../../src/tools/readFileTool";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import { RunningCommands } from "../../src/tools/runningCommands";
import { redactToolOutput } from "../../src/tools/toolOutputRedaction";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { allFilesUnder, completedResponseBody, functionCallItem, startChatHarness } from "../fixtures/chat/chatHarness";
import { isAlive, waitForNumberIn, waitUntilDead } from "../support/processes";

const posixOnly = process.platform === "win32" ? describe.skip : describe;

function finished(result: TurnResult): Turn {
  assert.equal(result.status, "finished");
  return (result as Extract<TurnResult, { status: "finished" }>).turn;
}


posixOnly("tools in a chat turn", function () {
  this.timeout(20_000);
  let harness: ChatHarness;
  let workspace: string;
  let key: string;
  let running: RunningCommands;

  beforeEach(async () => {
    harness = await startChatHarness();
    key = harness.emulator.defaultKey;
    workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-chat-tools-")));
    await fs.writeFile(path.join(workspace, ".env"), `RELAY_CHAT_API_KEY=${key}\nOTHER=value\n`);
    running = new RunningCommands();
  });

  afterEach(async () => {
    running.dispose();
    await harness.close();
    await fs.rm(workspace, { recursive: true, force: true });
  });

  /** The real file and command tools, approved by `answer`, with the redaction the extension sets up. */
  function tools(answer: ApprovalAnswer): ChatTools {
    const context = { workspaceFolders: () => [workspace] };
    const registry = new ToolRegistry([
      createReadFileTool(context),
      createRunCommandTool(context, { timeoutMs: () => 10_000, maxOutputChars: () => 20_000, secrets: () => [key] }, running),
    ]);
    return {
      registry,
      availability: () => ({ trusted: true, disabledToolNames: new Set() }),
      approve: async () => answer,
      maxResultChars: 20_000,
      redact: (text) => redactToolOutput(text, [key]),
    };
  }

  function queueCall(name: string, args: JsonObject, callId = "call_1"): void {
    harness.emulator.queueJsonBody(completedResponseBody([functionCallItem(name, JSON.stringify(args), callId)]));
  }

  it("keeps the key out of what the model, the history and the panel get when a tool reads it", async () => {
    queueCall("read_file", { path: ".env" });
    const session = harness.newSession({ settings: { model: "tools" }, tools: tools("approve") });
    const turn = finished(await session.send("what is in .env?"));
    assert.equal(turn.outcome.kind, "completed");
    assert.equal(turn.toolCalls[0]?.outcome, "ran");
    assert.match(turn.toolCalls[0]?.output.output ?? "", /RELAY_CHAT_API_KEY=\[REDACTED\]\nOTHER=value/);

    const toModel = JSON.stringify(harness.postedBodies()[1]);
    assert.match(toModel, /RELAY_CHAT_API_KEY=\[REDACTED\]/, "the follow-up carries the redacted result");
    assert.equal(toModel.includes(key), false, "the model never gets the key");
    for (const { file, bytes } of await allFilesUnder(harness.folder)) assert.equal(bytes.includes(Buffer.from(key)), false, `history file ${file}`);
    const panel = JSON.stringify(turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null }));
    assert.equal(panel.includes(key), false, "the panel never gets the key");
  });

  it("records a denied call as denied, never as ran, and shows it so", async () => {
    queueCall("run_command", { command: "echo hi" });
    const session = harness.newSession({ settings: { model: "tools" }, tools: tools("deny") });
    const turn = finished(await session.send("run it"));
    assert.equal(turn.toolCalls[0]?.outcome, "denied");
    const view = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null })[0];
    assert.equal(view?.toolCalls[0]?.outcome, "denied");
  });

  it("records invalid arguments and failures with the reason", async () => {
    harness.emulator.queueJsonBody(
      completedResponseBody([functionCallItem("read_file", '{"path": 3}', "call_bad"), functionCallItem("read_file", '{"path": "missing.txt"}', "call_missing")]),
    );
    const session = harness.newSession({ settings: { model: "tools" }, tools: tools("approve") });
    finished(await session.send("read"));
    const view = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null })[0];
    assert.deepEqual(view?.toolCalls.map((call) => call.outcome), ["invalid_arguments", "failed"]);
    assert.match(view?.toolCalls[0]?.outcomeDetail ?? "", /^invalid arguments for "read_file", so nothing was run: property "path" must be of type string/);
    assert.equal(view?.toolCalls[1]?.outcomeDetail, 'The file "missing.txt" does not exist.');
  });

  it("reads conversations saved before outcomes were recorded, and never calls a denied or failed call ran", async () => {
    queueCall("run_command", { command: "echo hi" });
    const session = harness.newSession({ settings: { model: "tools" }, tools: tools("deny") });
    finished(await session.send("run it"));
    const saved = JSON.parse(serializeConversation(session.conversation)) as { turns: Array<{ toolCalls: Array<Record<string, unknown>> }> };
    const legacy = saved.turns[0]?.toolCalls[0];
    assert.ok(legacy);
    delete legacy.outcome;
    const failed = { ...legacy, callId: "call_2", output: { type: "function_call_output", call_id: "call_2", output: "Error: The file \"x\" does not exist." } };
    const succeeded = { ...legacy, callId: "call_3", output: { type: "function_call_output", call_id: "call_3", output: "Exit code: 0\nhi" } };
    saved.turns[0]?.toolCalls.push(failed, succeeded);
    const parsed = parseConversation(JSON.stringify(saved));
    assert.equal(parsed.ok, true);
    if (!parsed.ok) return;
    const view = turnViewsOf(parsed.conversation, { streamingTurnId: null, liveText: null })[0];
    assert.deepEqual(view?.toolCalls.map((call) => call.outcome), ["denied", "failed", "ran"]);
  });

  it("ends a running command and the processes it started when the turn is stopped", async () => {
    const pidFile = path.join(workspace, "pid");
    queueCall("run_command", { command: `sleep 30 & echo $! > pid; wait` });
    const session = harness.newSession({ settings: { model: "tools" }, tools: tools("approve") });
    const pending = session.send("start it");
    const pid = await waitForNumberIn(pidFile);
    assert.equal(isAlive(pid), true);
    session.cancel();
    const turn = finished(await pending);
    assert.equal(turn.outcome.kind, "cancelled");
    assert.equal(turn.toolCalls[0]?.outcome, "stopped_while_running");
    // The registry lets go of the command when its pipes close, a moment after the kill: wait for both.
    await waitUntilDead([pid], "the command's background process was killed");
    const deadline = Date.now() + 10_000;
    while (running.count > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(running.count, 0, "the stopped command is no longer registered as running");
  });
});
