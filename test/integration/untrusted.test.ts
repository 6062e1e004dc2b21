// The untrusted-workspace rules in a real VS Code with workspace trust on and the folder not trusted
// (node scripts/vscode/runInHostTests.mjs --untrusted): only read tools are offered, every call asks and none
// can be allowed for the session, run_command and propose_edit are absent, and the panel says why.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { ChatSession } from "../../src/chat/chatSession";
import { chatSettingsWithDefaults } from "../../src/chat/chatSettings";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { RequestLedger } from "../../src/chat/requestLedger";
import type { RelayChatApi } from "../../src/extension";
import { readSettings } from "../../src/host/settings";
import { ToolSetup } from "../../src/host/tools/toolSetup";
import { RelayClient } from "../../src/relay/client";
import type { JsonObject } from "../../src/relay/types";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import type { BuiltinTools } from "../../src/tools/builtin/builtinTools";
import { createBuiltinTools } from "../../src/tools/builtin/builtinTools";
import { UNTRUSTED_WORKSPACE_CHANGES } from "../../src/tools/gitChanges";
import type { RelayEmulator } from "../emulator/server";
import { startRelayEmulator } from "../emulator/server";
import { activateRelayChat, lastTurn, newChatWith, settled, waitForState } from "./panelState";

const readTools = ["find_files", "get_changes", "get_diagnostics", "get_editor_context", "list_directory", "read_file", "search_text", "update_tasks"];

describe("untrusted workspace", function () {
  this.timeout(60_000);

  before(function () {
    if (process.env.RELAY_CHAT_TEST_TRUST !== "untrusted") this.skip();
  });

  it("is really untrusted: VS Code runs the extension in restricted mode", () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  describe("through the real extension", () => {
    let api: RelayChatApi;

    before(async function () {
      if (process.env.RELAY_CHAT_TEST_TRUST !== "untrusted") this.skip();
      api = await activateRelayChat();
      api.handle({ type: "refreshModels" });
      await waitForState(api, (state) => state.models.includes("tools"), "the model list");
    });

    it("says in the panel why the model gets read-only tools", async () => {
      await newChatWith(api, "echo");
      assert.match(api.state().notice ?? "", /not trusted.*read-only tools.*every tool call asks.*running commands and proposing edits are off/i);
    });

    it("asks for every call, and never offers or honours Allow for this session", async () => {
      await newChatWith(api, "tools");
      for (const attempt of [1, 2]) {
        api.handle({ type: "send", text: `read something (${attempt})` });
        const asking = await waitForState(api, (state) => state.approvals.length === 1, `the approval card, attempt ${attempt}`);
        const approval = asking.approvals[0]!;
        assert.equal(approval.risk, "read");
        assert.equal(approval.canAllowForSession, false);
        // Even an answer the card does not offer counts once only.
        api.handle({ type: "approval", callId: approval.callId, answer: "allow_session" });
        const state = await waitForState(api, (current) => settled(current) && current.turns.length === attempt, `the answer, attempt ${attempt}`);
        assert.equal(lastTurn(state)!.toolCalls[0]?.outcome, "ran");
      }
    });
  });

  describe("the tools a session gets", () => {
    let emulator: RelayEmulator;
    let builtin: BuiltinTools;
    let scratch: string;
    let asked: ApprovalRequest[];
    let session: ChatSession;
    let client: RelayClient;

    before(async function () {
      if (process.env.RELAY_CHAT_TEST_TRUST !== "untrusted") this.skip();
      emulator = await startRelayEmulator();
      client = new RelayClient({ baseUrl: `${emulator.baseUrl}/v1`, apiKey: emulator.defaultKey });
      scratch = await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-untrusted-"));
      const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      // propose_edit never gets as far as the review here: it is unavailable in an untrusted workspace.
      const review = { propose: async () => assert.fail("propose_edit ran in an untrusted workspace") };
      builtin = createBuiltinTools({ workspaceFolders: () => [root], excludePatterns: () => [], commandTimeoutMs: () => 10_000, maxOutputChars: () => 10_000, review });
      // The extension's own composition: the real trust state, the real settings.
      const setup = new ToolSetup(builtin.tools, readSettings, { secrets: () => [emulator.defaultKey], workspaceFolders: () => [root] }, new SessionAllowances());
      asked = [];
      const storage = new FileStorage(scratch);
      session = new ChatSession({
        client,
        store: new HistoryStore(storage),
        ledger: new RequestLedger(storage),
        settings: chatSettingsWithDefaults({ model: "tools" }),
        tools: setup.chatTools(async (request): Promise<ApprovalAnswer> => (asked.push(request), "allow_session")),
      });
    });

    after(async () => {
      builtin?.dispose();
      await client?.close();
      await emulator?.close();
      if (scratch) await fs.rm(scratch, { recursive: true, force: true });
    });

    it("offers the read tools only, refuses run_command and propose_edit without asking, and asks for each read call", async () => {
      const marker = path.join(scratch, "ran");
      const call = (name: string, args: JsonObject, callId: string): JsonObject => ({ id: `fc_${callId}`, type: "function_call", status: "completed", name, arguments: JSON.stringify(args), call_id: callId });
      emulator.queueJsonBody({
        id: "resp_untrusted",
        object: "response",
        status: "completed",
        model: "tools",
        output: [
          call("run_command", { command: `touch ${JSON.stringify(marker)}` }, "call_run"),
          call("propose_edit", { path: "README.md", new_text: "owned\n" }, "call_edit"),
          call("list_directory", {}, "call_list_1"),
          call("list_directory", {}, "call_list_2"),
        ],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      });
      const result = await session.send("try everything");
      assert.equal(result.status, "finished");
      const turn = result.status === "finished" ? result.turn : undefined;

      const offered = ((emulator.received.find((request) => request.method === "POST")?.body as JsonObject).tools as JsonObject[]).map((tool) => String(tool.name)).sort();
      assert.deepEqual(offered, readTools);

      assert.deepEqual(turn?.toolCalls.map((record) => [record.name, record.outcome]), [
        ["run_command", "unavailable"],
        ["propose_edit", "unavailable"],
        ["list_directory", "ran"],
        ["list_directory", "ran"],
      ]);
      assert.match(turn?.toolCalls[0]?.output.output ?? "", /not available because this workspace is not trusted/);
      assert.deepEqual(asked.map((request) => [request.toolName, request.canAllowForSession]), [["list_directory", false], ["list_directory", false]], "both read calls asked");
      assert.equal(await fs.stat(marker).then(() => true, () => false), false, "no command ran");
    });

    it("does not run git for get_changes: the repository's own configuration could run programs", async () => {
      const tool = builtin.tools.find((each) => each.name === "get_changes");
      assert.ok(tool);
      assert.deepEqual(await tool.run({}, new AbortController().signal), { output: UNTRUSTED_WORKSPACE_CHANGES, isError: true });
    });
  });
});
