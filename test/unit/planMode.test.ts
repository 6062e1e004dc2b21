import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TurnResult } from "../../src/chat/chatSession";
import { createConversation } from "../../src/chat/conversation";
import type { Turn } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { editedTasks, tasksOf } from "../../src/chat/planState";
import { assembleInstructions } from "../../src/instructions/assembleInstructions";
import type { JsonObject } from "../../src/relay/types";
import { createApprovalGate } from "../../src/tools/approvalGate";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import { prepareCall } from "../../src/tools/preparedCall";
import { defineTool } from "../../src/tools/toolContract";
import type { Tool } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { createUpdateTasksTool, readTaskList } from "../../src/tools/updateTasksTool";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { startChatHarness } from "../fixtures/chat/chatHarness";

// Plan mode offers read-only tools only and refuses any other call; update_tasks is checked by the same
// argument validation as every tool, runs without asking, and its list is kept in the conversation.

function fakeTool(name: string, risk: Tool["risk"]): Tool {
  return defineTool<Record<string, never>>({ name, description: `${name}.`, risk, parameters: { type: "object", properties: {}, additionalProperties: false }, run: async () => `${name} ran` });
}

const tools = [fakeTool("read_file", "read"), fakeTool("search_text", "read"), fakeTool("propose_edit", "write"), fakeTool("run_command", "execute"), fakeTool("mcp_thing", "external"), createUpdateTasksTool()];
const trusted = { trusted: true, disabledToolNames: new Set<string>() };
const finished = (result: TurnResult) => (result.status === "finished" ? result.turn : assert.fail(result.status));

describe("Plan mode: the tools offered", () => {
  it("offers every tool in Act and only the read-only ones (and update_tasks) in Plan", () => {
    const registry = new ToolRegistry(tools);
    assert.deepEqual(registry.requestTools(trusted).map((tool) => tool.name), ["read_file", "search_text", "propose_edit", "run_command", "mcp_thing", "update_tasks"]);
    assert.deepEqual(registry.requestTools({ ...trusted, mode: "act" }).map((tool) => tool.name), ["read_file", "search_text", "propose_edit", "run_command", "mcp_thing", "update_tasks"]);
    assert.deepEqual(registry.requestTools({ ...trusted, mode: "plan" }).map((tool) => tool.name), ["read_file", "search_text", "update_tasks"]);
  });

  it("refuses a call to a tool Plan mode does not offer, saying why, before anyone is asked", () => {
    const registry = new ToolRegistry(tools);
    const prepared = prepareCall({ type: "function_call", call_id: "c1", name: "run_command", arguments: "{}" } as never, registry, { ...trusted, mode: "plan" });
    assert.equal(prepared.status, "rejected");
    assert.match(prepared.status === "rejected" ? prepared.problem : "", /not offered in Plan mode/);
    assert.equal(prepareCall({ type: "function_call", call_id: "c2", name: "read_file", arguments: "{}" } as never, registry, { ...trusted, mode: "plan" }).status, "ready");
  });
});

describe("update_tasks", () => {
  const registry = new ToolRegistry([createUpdateTasksTool()]);
  const check = (args: unknown) => registry.checkArguments("update_tasks", args);

  it("takes the whole list, each item with its text and one of three statuses", () => {
    assert.deepEqual(check({ items: [{ text: "Read the code", status: "done" }, { text: "Fix it", status: "in_progress" }, { text: "Test", status: "pending" }] }), { valid: true });
    assert.deepEqual(check({ items: [] }), { valid: true });
  });

  it("refuses a list the model got wrong, with problems it can act on", () => {
    const wrong = check({ items: [{ text: "Fix it", status: "started" }, { status: "done" }, { text: "", status: "done", extra: 1 }] });
    assert.equal(wrong.valid, false);
    const problems = wrong.valid ? [] : wrong.problems;
    assert.ok(problems.some((problem) => /items\[0\]\.status.*one of \["pending","in_progress","done"\]/.test(problem)), problems.join("; "));
    assert.ok(problems.some((problem) => /missing required property "items\[1\]\.text"/.test(problem)), problems.join("; "));
    assert.ok(problems.some((problem) => /unexpected property "items\[2\]\.extra"/.test(problem)), problems.join("; "));
    assert.equal(check({}).valid, false);
    assert.equal(check({ items: Array.from({ length: 31 }, () => ({ text: "x", status: "pending" })) }).valid, false);
  });

  it("runs without an approval card, whatever the person's approval settings", async () => {
    const asked: string[] = [];
    const gate = createApprovalGate(() => ({ trusted: false, disabledToolNames: new Set(), sessionAllowances: new SessionAllowances() }), async (request) => {
      asked.push(request.toolName);
      return "deny";
    });
    assert.equal(await gate({ status: "ready", call_id: "c", tool: createUpdateTasksTool(), args: { items: [] } }), "approve");
    assert.deepEqual(asked, []);
  });

  it("reads a stored list defensively and lets the person tick or remove an item as they saw it", () => {
    assert.deepEqual(readTaskList([{ text: "a", status: "done" }, { text: "b", status: "bogus" }, "c", null, { text: " ", status: "pending" }]), [{ text: "a", status: "done" }]);
    assert.deepEqual(readTaskList("not a list"), []);
    const list = [{ text: "a", status: "pending" as const }, { text: "b", status: "done" as const }];
    assert.deepEqual(editedTasks(list, { action: "toggle", index: 0, text: "a" }), [{ text: "a", status: "done" }, { text: "b", status: "done" }]);
    assert.deepEqual(editedTasks(list, { action: "toggle", index: 1, text: "b" }), [{ text: "a", status: "pending" }, { text: "b", status: "pending" }]);
    assert.deepEqual(editedTasks(list, { action: "remove", index: 0, text: "a" }), [{ text: "b", status: "done" }]);
    assert.equal(editedTasks(list, { action: "remove", index: 0, text: "b" }), null, "the list changed meanwhile: nothing happens");
  });
});

describe("Plan mode and the task list in the instructions", () => {
  const environment = { os: "Linux", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "en", tools: ["read_file", "update_tasks"] };

  it("adds the plan request in Plan mode and the task list as it is now, each with its source", () => {
    const act = assembleInstructions({ environment });
    assert.deepEqual(act.parts.map((part) => part.kind), ["base"]);
    assert.match(act.text, /keep a short task list with update_tasks/);
    const plan = assembleInstructions({ environment, mode: "plan", tasks: [{ text: "Read main.ts", status: "done" }, { text: "Propose a fix", status: "pending" }] });
    assert.deepEqual(plan.parts.map((part) => part.source), ["Relay Chat base instruction v2", "Task list (update_tasks)", "Plan mode (Relay Chat)"]);
    assert.match(plan.text, /propose a plan/);
    assert.match(plan.text, /Do not change files/);
    assert.match(plan.text, /1\/2 done[\s\S]*- \[x\] Read main\.ts\n- \[ \] Propose a fix/);
    assert.ok(plan.tokens > act.tokens);
    assert.equal(assembleInstructions({ environment: { ...environment, tools: [] } }).text.includes("update_tasks"), false, "not mentioned where it is not offered (the CLI)");
  });
});

describe("Plan mode in a chat session (relay emulator)", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => harness.close());

  function sessionTools() {
    const registry = new ToolRegistry(tools);
    return { registry, availability: () => trusted, approve: async () => "approve" as const, maxResultChars: 10_000 };
  }
  const toolNames = (body: JsonObject) => (body.tools as Array<{ name: string }> | undefined)?.map((tool) => tool.name) ?? [];

  it("sends read-only tools in Plan and every tool in Act, records the mode on the turn and saves it", async () => {
    const session = harness.newSession({ settings: { model: "echo" }, tools: sessionTools() });
    await session.changes.setMode("plan");
    const planned = finished(await session.send("plan it"));
    await session.changes.setMode("act");
    const acted = finished(await session.send("do it"));
    const [planBody, actBody] = harness.postedBodies();
    assert.deepEqual(toolNames(planBody), ["read_file", "search_text", "update_tasks"]);
    assert.deepEqual(toolNames(actBody), ["read_file", "search_text", "propose_edit", "run_command", "mcp_thing", "update_tasks"]);
    assert.equal(planned.mode, "plan");
    assert.equal(acted.mode, undefined);
    await session.changes.setMode("plan");
    const reopened = await harness.store.open(session.conversation.id);
    assert.ok(reopened.ok);
    assert.equal(reopened.ok && reopened.conversation.mode, "plan");
    assert.equal(reopened.ok && reopened.conversation.turns.find((turn) => turn.id === planned.id)?.mode, "plan");
  });

  it("keeps the list an update_tasks call set in the conversation, saved, and the person's change too", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: sessionTools() });
    const turn = finished(await session.send("make a plan"));
    assert.equal(turn.toolCalls[0]?.name, "update_tasks");
    assert.equal(turn.toolCalls[0]?.outcome, "ran");
    const set = tasksOf(session.conversation);
    assert.ok(set.length >= 2, JSON.stringify(set));
    await session.changes.setTasks(editedTasks(set, { action: "remove", index: 0, text: set[0].text }) ?? assert.fail());
    const reopened = await harness.store.open(session.conversation.id);
    assert.deepEqual(reopened.ok && tasksOf(reopened.conversation), set.slice(1));
  });
});

/** Real files, with a moment of the test's choosing while a journal line is being appended. */
class StorageWithPause extends FileStorage {
  whileAppending: (() => void) | null = null;
  override async append(name: string, text: string, options?: { flush?: boolean }): Promise<void> {
    const during = this.whileAppending;
    this.whileAppending = null;
    during?.();
    await super.append(name, text, options);
  }
}

describe("Plan mode: saving the mode while a turn starts", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-plan-save-"));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  const turnOf = (id: string, parentId: string | null): Turn => ({ id, parentId, userText: id, createdAt: 1, requests: [], toolCalls: [], outcome: { kind: "completed" }, notice: null });

  it("keeps what changed while a save was being written for the next save to write (the new turn stays on screen)", async () => {
    const storage = new StorageWithPause(folder);
    const store = new HistoryStore(storage);
    const conversation = createConversation("conv_1", "demo", 1);
    conversation.turns.push(turnOf("turn_1", null));
    conversation.activeTurnId = "turn_1";
    await store.save(conversation);
    // The switch to Act is being saved when the message sent beside it starts its turn.
    conversation.mode = "act";
    storage.whileAppending = () => {
      conversation.turns.push(turnOf("turn_2", "turn_1"));
      conversation.activeTurnId = "turn_2";
    };
    await store.save(conversation, []);
    await store.save(conversation, ["turn_2"]);
    const reopened = await new HistoryStore(new FileStorage(folder)).open("conv_1");
    assert.ok(reopened.ok);
    assert.equal(reopened.ok && reopened.conversation.activeTurnId, "turn_2");
    assert.equal(reopened.ok && reopened.conversation.mode, "act");
  });
});
