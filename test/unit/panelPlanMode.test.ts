import assert from "node:assert/strict";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import type { PanelState } from "../../src/panel/protocol";
import type { JsonObject } from "../../src/relay/types";
import { createApprovalGate } from "../../src/tools/approvalGate";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import { defineTool } from "../../src/tools/toolContract";
import type { Tool } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { createUpdateTasksTool } from "../../src/tools/updateTasksTool";
import type { ChatTools } from "../../src/chat/toolRound";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { panelAssembly, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Plan mode through the panel's controller against the relay emulator, which records every request: a Plan
// message offers read-only tools only and tells the model to propose a plan; "Act on this plan" switches to
// Act and sends the next message with every tool. The task list the model sets with update_tasks (no card)
// is shown, resent in the instructions as it is now (the person's ticks included) and kept per conversation.

function fakeTool(name: string, risk: Tool["risk"]): Tool {
  return defineTool<Record<string, never>>({ name, description: `${name}.`, risk, parameters: { type: "object", properties: {}, additionalProperties: false }, run: async () => `${name} ran` });
}

const registry = new ToolRegistry([fakeTool("read_file", "read"), fakeTool("search_text", "read"), fakeTool("propose_edit", "write"), fakeTool("run_command", "execute"), createUpdateTasksTool()]);

function panelTools(asked: string[]) {
  return (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ChatTools => {
    const availability = () => ({ trusted: true, disabledToolNames: new Set<string>() });
    const ask = async (request: ApprovalRequest) => {
      asked.push(request.toolName);
      return askUser(request);
    };
    return { registry, availability, approve: createApprovalGate(() => ({ ...availability(), sessionAllowances: new SessionAllowances() }), ask), maxResultChars: 10_000 };
  };
}

/** The panel's assembly, as src/host/instructions/panelInstructions.ts feeds it, without the editor's environment. */
const instructions = panelAssembly();

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settledTurns = (count: number) => (state: PanelState) => !state.busy && state.turns.length === count && lastTurn(state)?.outcome !== "in_progress";
const toolNames = (body: JsonObject) => ((body.tools as Array<{ name: string }> | undefined) ?? []).map((tool) => tool.name);

describe("panel: Plan mode and the task list (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  const asked: string[] = [];
  beforeEach(async () => {
    asked.length = 0;
    harness = await startPanelHostHarness({ settings: { model: "demo" }, tools: panelTools(asked), instructions });
  });
  afterEach(async () => {
    assert.deepEqual(harness.view.mirror.problems, []);
    await harness.close();
  });
  const bodies = () => harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.body as JsonObject);

  it("sends a Plan message with read-only tools only, and Act on this plan with every tool", async () => {
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "setMode", mode: "plan" });
    await harness.waitFor((state) => state.mode === "plan", "the switch on Plan");
    controller.handle({ type: "send", text: "Make a plan for the retry change" });
    const planned = await harness.waitFor(settledTurns(1), "the plan");
    const [planRequest, planFollowUp] = bodies();
    assert.deepEqual(toolNames(planRequest), ["read_file", "search_text", "update_tasks"], "read-only tools and the task list only");
    assert.match(String(planRequest.instructions), /Plan mode: the person asked for a plan[\s\S]*Do not change files/);
    assert.equal(lastTurn(planned).mode, "plan");
    assert.equal(lastTurn(planned).actOnPlan, true);
    assert.deepEqual(asked, [], "update_tasks ran without an approval card");
    assert.deepEqual(planned.tasks?.map((task) => task.status), ["pending", "pending", "pending"]);
    assert.match(String(planFollowUp.instructions), /The task list of this conversation \(0\/3 done[\s\S]*- \[ \] Read the files involved/, "the follow-up carries the list the call set");

    controller.handle({ type: "actOnPlan", turnId: lastTurn(planned).id });
    const acted = await harness.waitFor(settledTurns(2), "the plan carried out");
    assert.equal(acted.mode, "act");
    assert.equal(lastTurn(acted).userText, "Carry out the plan above.");
    assert.equal(lastTurn(acted).mode, undefined);
    const actRequest = bodies()[2];
    assert.deepEqual(toolNames(actRequest), ["read_file", "search_text", "propose_edit", "run_command", "update_tasks"], "every tool");
    assert.equal(String(actRequest.instructions).includes("Plan mode:"), false);
    assert.ok(JSON.stringify(actRequest.input).includes("Read the files involved"), "the plan is in the history it sends");
    assert.deepEqual(acted.tasks?.map((task) => task.status), ["done", "done", "done"]);
    await harness.waitForMirror();
    assert.deepEqual(harness.view.mirror.state, controller.state());
  });

  /** A plan in Plan mode, then the person ticks the first task and removes the third (and one that is not there). */
  async function planThenEditTasks(): Promise<{ conversationId: string; edited: PanelState }> {
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "setMode", mode: "plan" });
    controller.handle({ type: "send", text: "Make a plan for the retry change" });
    const planned = await harness.waitFor(settledTurns(1), "the plan");
    const conversationId = planned.conversationId ?? assert.fail("saved");
    controller.handle({ type: "editTask", action: "toggle", index: 0, text: "Read the files involved" });
    controller.handle({ type: "editTask", action: "remove", index: 2, text: "Run the tests" });
    controller.handle({ type: "editTask", action: "remove", index: 5, text: "Not there" });
    const edited = await harness.waitFor((state) => state.tasks?.length === 2, "the person's edits");
    return { conversationId, edited };
  }

  it("resends the list with the person's ticks and removals, and keeps list and mode per conversation", async () => {
    const { controller } = harness;
    const { conversationId, edited } = await planThenEditTasks();
    assert.deepEqual(edited.tasks, [{ text: "Read the files involved", status: "done" }, { text: "Propose the change for review", status: "pending" }]);

    controller.handle({ type: "setMode", mode: "act" });
    controller.handle({ type: "send", text: "How does it look?" });
    await harness.waitFor(settledTurns(2), "the next answer");
    const next = bodies().at(-1) ?? assert.fail();
    assert.match(String(next.instructions), /1\/2 done[\s\S]*- \[x\] Read the files involved\n- \[ \] Propose the change for review$/);
    assert.equal(String(next.instructions).includes("Run the tests"), false);

    controller.handle({ type: "setMode", mode: "plan" });
    await harness.waitFor((state) => state.mode === "plan", "Plan again");
    controller.handle({ type: "newChat" });
    const fresh = await harness.waitFor((state) => state.turns.length === 0, "a new chat");
    assert.deepEqual(fresh.tasks, [], "a new chat has no list");
    assert.equal(fresh.mode, "plan", "a new chat starts in the mode last chosen");
    controller.handle({ type: "setMode", mode: "act" });
    await harness.waitFor((state) => state.mode === "act", "Act for the new chat");

    controller.handle({ type: "switchConversation", conversationId });
    const back = await harness.waitFor((state) => state.conversationId === conversationId && state.turns.length === 2, "the first conversation again, both turns on screen");
    assert.equal(back.mode, "plan", "its own mode, as saved");
    assert.equal(back.tasks?.length, 2, "its own list, as saved");
    const reopened = await harness.store.open(conversationId);
    assert.ok(reopened.ok);
    assert.equal(reopened.ok && reopened.conversation.mode, "plan");
    assert.deepEqual(reopened.ok && reopened.conversation.tasks, edited.tasks);
  });

  it("Act on this plan after the person removed a step: the request carries the list without it, and the step stays removed", async () => {
    const { controller } = harness;
    const { edited } = await planThenEditTasks();
    controller.handle({ type: "actOnPlan", turnId: lastTurn(edited).id });
    const acted = await harness.waitFor(settledTurns(2), "the plan carried out");
    const actRequest = bodies().find((body) => JSON.stringify(body.input).includes("Carry out the plan above.")) ?? assert.fail("the Act request");
    assert.match(String(actRequest.instructions), /1\/2 done[\s\S]*- \[x\] Read the files involved\n- \[ \] Propose the change for review$/);
    assert.equal(String(actRequest.instructions).includes("Run the tests"), false);
    assert.deepEqual(acted.tasks, [{ text: "Read the files involved", status: "done" }, { text: "Propose the change for review", status: "done" }], "the removed step is not put back");
    assert.match(lastTurn(acted).answerText, /^All 2 steps of the plan are ticked[\s\S]*changed no files, so there is nothing to review/);
  });

  it("marks the Plan message in the Markdown and JSON exports and ends them with the task list as it stands", async () => {
    const { controller, conversationUi } = harness;
    const { conversationId } = await planThenEditTasks();
    controller.handle({ type: "setMode", mode: "act" });
    controller.handle({ type: "send", text: "How does it look?" });
    await harness.waitFor(settledTurns(2), "the next answer");

    const exported = async (file: string) => {
      conversationUi.exportPath = file;
      controller.handle({ type: "exportConversation", conversationId });
      const deadline = Date.now() + 10_000;
      while (!conversationUi.written.has(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return conversationUi.written.get(file) ?? assert.fail(`nothing written to ${file}`);
    };
    const markdown = await exported("/exports/plan.md");
    assert.match(markdown, /## You · Plan\n\n\*Sent in Plan mode: read-only tools, asked for a plan\*\n\nMake a plan for the retry change\n/);
    assert.match(markdown, /## You\n\nHow does it look\?\n/, "the Act message is not marked");
    assert.equal(markdown.split("· Plan").length - 1, 1);
    assert.match(markdown, /## Task list \(1\/2 done\)\n\n- \[x\] Read the files involved\n- \[ \] Propose the change for review\n$/);
    const json = JSON.parse(await exported("/exports/plan.json")) as { turns: Array<{ mode?: string }>; tasks: unknown };
    assert.deepEqual(json.turns.map((turn) => turn.mode ?? "act"), ["plan", "act"]);
    assert.deepEqual(json.tasks, [{ text: "Read the files involved", status: "done" }, { text: "Propose the change for review", status: "pending" }]);

    // An item in progress says so; a conversation without a list has no such section.
    const opened = await harness.store.open(conversationId);
    assert.ok(opened.ok);
    const inProgress = conversationToMarkdown({ ...opened.conversation, tasks: [{ text: "Propose the change", status: "in_progress" }] });
    assert.match(inProgress, /## Task list \(0\/1 done\)\n\n- \[ \] Propose the change \(in progress\)\n$/);
    assert.equal(conversationToMarkdown({ ...opened.conversation, tasks: [] }).includes("## Task list"), false);
  });
});
