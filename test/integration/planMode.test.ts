// Plan mode through the real extension in a real extension host, with its real built-in tools: a message
// sent in Plan offers only the read-only tools (the emulator records the body) and is told to propose a
// plan, as "What the Model Is Told" shows with the task list the model set; Act on this plan continues
// with every tool.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { activateRelayChat, lastTurn, newChatWith, settled, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;

interface SentBody {
  instructions?: string;
  tools?: Array<{ name: string }>;
}

async function postedBodies(): Promise<SentBody[]> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: SentBody }>;
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses").map((request) => request.body);
}

async function shownInstructions(): Promise<string> {
  await vscode.commands.executeCommand("relayChat.showInstructions");
  const text = vscode.window.activeTextEditor?.document.getText() ?? "";
  await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  return text;
}

const names = (body: SentBody | undefined) => (body?.tools ?? []).map((tool) => tool.name);

describe("Plan mode, in the extension host", function () {
  this.timeout(90_000);
  let api: RelayChatApi;

  before(async function () {
    if (!vscode.workspace.isTrusted || !controlUrl) this.skip();
    api = await activateRelayChat();
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("demo"), "the model list");
  });

  after(() => {
    api?.handle({ type: "setMode", mode: "act" });
  });

  it("offers only read-only tools in Plan, shows the plan part and the task list, and Act on this plan continues with all", async () => {
    await newChatWith(api, "demo");
    api.handle({ type: "setMode", mode: "plan" });
    await waitForState(api, (state) => state.mode === "plan", "the switch on Plan");
    const before = (await postedBodies()).length;
    api.handle({ type: "send", text: "Make a plan for tidying the README" });
    const planned = await waitForState(api, (state) => settled(state) && (state.tasks?.length ?? 0) > 0, "the plan and its task list", 40_000);
    const planBodies = (await postedBodies()).slice(before);
    assert.ok(planBodies.length >= 2, "the call and the answer after it");
    const offered = names(planBodies[0]);
    for (const readOnly of ["read_file", "list_directory", "find_files", "search_text", "update_tasks"]) assert.ok(offered.includes(readOnly), `offered: ${readOnly}`);
    for (const changing of ["propose_edit", "run_command"]) assert.equal(offered.includes(changing), false, `not offered in Plan: ${changing}`);
    assert.ok(planBodies[0].instructions?.includes("Plan mode: the person asked for a plan"));
    assert.equal(lastTurn(planned)?.mode, "plan");
    assert.equal(planned.approvals.length, 0, "update_tasks asked nothing");

    const shown = await shownInstructions();
    for (const expected of ["| Plan mode (Relay Chat) |", "| Task list (update_tasks) |", "0/3 done", "Plan mode: the person asked for a plan"]) assert.ok(shown.includes(expected), `shown: ${expected}`);

    const actFrom = (await postedBodies()).length;
    api.handle({ type: "actOnPlan", turnId: lastTurn(planned)!.id });
    const acted = await waitForState(api, (state) => settled(state) && state.turns.length === 2, "the plan carried out", 40_000);
    assert.equal(acted.mode, "act");
    const actBody = (await postedBodies())[actFrom];
    for (const all of ["read_file", "propose_edit", "run_command", "update_tasks"]) assert.ok(names(actBody).includes(all), `offered in Act: ${all}`);
    assert.equal(actBody?.instructions?.includes("Plan mode:"), false);
    assert.deepEqual(acted.tasks?.map((task) => task.status), ["done", "done", "done"]);
  });
});
