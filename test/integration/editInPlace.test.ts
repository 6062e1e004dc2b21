// Edit with Relay Chat through the real extension in a real extension host, against the relay emulator the runner
// started: a selection in a real workspace file is changed by the model, the answer streams into the editor in
// place, then waits for Keep or Undo per change; Escape (the cancel command it is bound to) mid-stream and a relay
// error leave the file exactly as it was; the ledger has each request and the receipt its cost. A follow-up refines
// the pending change (Undo still brings back the original), and one Ctrl+Z takes a whole edit back.
import * as assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { LedgerRow } from "../../src/chat/requestLedger";
import { PENDING_OUTCOME } from "../../src/chat/requestLedger";
import type { RelayChatApi } from "../../src/extension";
import type { EditRunEnd } from "../../src/host/editInPlace/editInPlaceRun";
import { setRelaySetting, waitFor, waitForState } from "./panelState";

const extensionId = "relay-chat.relay-chat";
const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;
const SOURCE = ["import x from 'x';", "", "function add(count, step) {", "  const next = count + step;", "  log(next);", "  log('step');", "  return count + next;", "}", "", "export { add };", ""].join("\n");
const RENAMED = SOURCE.replace(/\bcount\b/g, "total");
const REFINED = SOURCE.replace(/\bcount\b/g, "sum");

interface ReceivedRequest {
  method: string;
  path: string;
  body: { input?: Array<{ role?: string; content?: unknown }> };
}

async function responsesReceived(): Promise<ReceivedRequest[]> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as ReceivedRequest[];
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
}

async function queueFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/faults`, { method: "POST", body: JSON.stringify(fault) });
  assert.equal(response.status, 200);
}

describe("Edit in place", function () {
  this.timeout(90_000);
  let api: RelayChatApi;
  let folder: string;
  let file: vscode.Uri;

  before(async () => {
    assert.ok(controlUrl, "the runner passes the emulator's control address");
    api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("echo"), "the model list from the relay");
    api.handle({ type: "selectModel", model: "echo" });
    await waitForState(api, (state) => state.model === "echo", "echo picked in the panel");
    // A price for the model, so the receipt and the ledger carry a cost.
    await setRelaySetting("prices", [{ model: "echo", input: 2, output: 8, currency: "USD" }]);
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.RELAY_CHAT_TEST_WORKSPACE!;
    folder = path.join(root, `edit-in-place-${process.pid}-${Date.now()}`);
    await fs.mkdir(folder, { recursive: true });
  });

  after(async () => {
    await setRelaySetting("prices", undefined);
    await vscode.workspace.getConfiguration("files").update("autoSave", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await fs.rm(folder, { recursive: true, force: true });
  });

  beforeEach(async () => {
    file = vscode.Uri.file(path.join(folder, `add-${Date.now()}.js`));
    await fs.writeFile(file.fsPath, SOURCE);
  });

  /** Opens the file with lines 3-8 (the function) selected, as a person would before the keybinding. */
  async function selectFunction(): Promise<vscode.TextDocument> {
    const editor = await vscode.window.showTextDocument(file, { preview: false });
    editor.selection = new vscode.Selection(2, 0, 8, 0);
    return editor.document;
  }

  async function ledgerRow(requestId: string | null | undefined): Promise<LedgerRow> {
    assert.ok(requestId, "the request has the relay's request id");
    let row: LedgerRow | undefined;
    for (let attempt = 0; attempt < 100 && (!row || row.outcome === PENDING_OUTCOME); attempt++) {
      const text = await fs.readFile(path.join(api.storageFolder, "ledger.jsonl"), "utf8").catch(() => "");
      const rows = text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as LedgerRow);
      row = rows.filter((each) => each.requestId === requestId).at(-1);
      if (!row || row.outcome === PENDING_OUTCOME) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(row, `a ledger row for ${requestId}`);
    return row;
  }

  it("streams the change into the file in place, then Keep and Undo work per change; the ledger has the request and its cost", async () => {
    const document = await selectFunction();
    // Slow enough to watch the lines arrive.
    await queueFault({ kind: "drip", intervalMs: 40 });
    const running = vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    const seen: string[] = [];
    const watch = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document) seen.push(document.getText());
    });
    const end = await running;
    watch.dispose();
    assert.equal(end.kind, "proposed", end.kind === "unchanged" ? end.reason : "");
    // While streaming: the new lines above the selected ones, which were still there below them.
    const above = "import x from 'x';\n\nfunction add(total, step) {\n";
    assert.ok(seen.some((text) => text.startsWith(above) && text.includes("function add(count, step) {")), "streamed lines stood above the lines they replace, which were still there");
    assert.equal(document.getText(), RENAMED, "the whole change is in the buffer for review");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE, "nothing on disk before the review");
    assert.ok(end.kind === "proposed" && end.changes === 2, "two changed parts: the signature with the next line, and the return");

    await vscode.commands.executeCommand("relayChat.review.keepChange", file.toString(), 0);
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE, "one change still undecided: not saved yet");
    await vscode.commands.executeCommand("relayChat.review.undoChange", file.toString(), 1);
    const kept = SOURCE.replace("function add(count, step) {\n  const next = count + step;", "function add(total, step) {\n  const next = total + step;");
    assert.equal(document.getText(), kept);
    await waitFor(() => !document.isDirty, 10_000, "the decided file saved");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), kept, "the kept change on disk, the undone one not");

    const row = await ledgerRow(end.result.requestId);
    assert.equal(row.purpose, "edit_in_place");
    assert.equal(row.outcome, "completed");
    assert.equal(row.model, "echo");
    assert.ok((row.inputTokens ?? 0) > 0 && (row.outputTokens ?? 0) > 0);
    assert.ok((row.estimatedCost ?? 0) > 0, "the cost at the model's price");
    assert.ok(row.instructionSources?.includes("Edit in place"), "the edit's prompt went with the instructions");
  });

  it("Escape mid-stream stops the answer and leaves the file exactly as it was", async () => {
    const document = await selectFunction();
    await queueFault({ kind: "drip", intervalMs: 150 });
    const running = vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    await waitFor(() => document.getText() !== SOURCE, 20_000, "the first streamed line in the file");
    await vscode.commands.executeCommand("relayChat.editInPlace.cancel");
    const end = await running;
    assert.equal(end.kind, "unchanged");
    assert.equal(end.result?.outcome.kind, "cancelled");
    assert.equal(document.getText(), SOURCE);
    assert.equal(document.isDirty, false, "no unsaved change is left behind");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE);
    const row = await ledgerRow(end.result?.requestId);
    assert.equal(row.outcome, "cancelled");
  });

  it("a relay error leaves the file as it was and says the cause and the request id", async () => {
    const document = await selectFunction();
    await queueFault({ kind: "status", status: 403, code: "model_not_allowed", message: "This key may not use the model." });
    const end = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    assert.equal(end.kind, "unchanged");
    assert.match(end.kind === "unchanged" ? end.reason : "", /HTTP 403.*Request id: \S+/s);
    assert.equal(document.getText(), SOURCE);
    assert.equal(document.isDirty, false);
    const row = await ledgerRow(end.result?.requestId);
    assert.equal(row.outcome, "http_error");
  });

  it("a follow-up refines the pending change in place: the request carries the first instruction, its answer and the follow-up; Undo brings back the original", async () => {
    const document = await selectFunction();
    const first = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    assert.equal(first?.kind, "proposed", first?.kind === "unchanged" ? first.reason : "");
    assert.equal(document.getText(), RENAMED);
    // Run again at once, the selection where the change landed: the follow-up refines it.
    await queueFault({ kind: "drip", intervalMs: 40 });
    const seen: string[] = [];
    const watch = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document) seen.push(document.getText());
    });
    const refined = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename total to sum");
    watch.dispose();
    assert.equal(refined?.kind, "proposed", refined?.kind === "unchanged" ? refined.reason : "refused");
    assert.ok(seen.some((text) => text.includes("function add(sum, step) {\nfunction add(total, step) {")), "the refined lines streamed in above the pending ones");
    assert.equal(document.getText(), REFINED, "the refined answer replaced the pending replacement in place");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE, "nothing on disk before the review");

    const input = (await responsesReceived()).at(-1)?.body.input ?? [];
    const messages = input.filter((item) => item.role === "user" || item.role === "assistant");
    assert.deepEqual(messages.map((item) => item.role), ["user", "assistant", "user"], "the first instruction, its answer, the follow-up");
    assert.match(String(messages[0]!.content), /Instruction: rename count to total[\s\S]*function add\(count, step\)/);
    assert.match(String(messages[1]!.content), /^`{3,}javascript\nfunction add\(total, step\) \{/);
    assert.match(String(messages[2]!.content), /^Follow-up instruction: rename total to sum$/m);

    assert.notEqual(refined.result.requestId, first.result.requestId);
    assert.equal((await ledgerRow(first.result.requestId)).outcome, "completed");
    const row = await ledgerRow(refined.result.requestId);
    assert.equal(row.outcome, "completed");
    assert.equal(row.purpose, "edit_in_place");

    // The review is of the original against the refined result: Undo of the whole file brings back the original.
    await vscode.commands.executeCommand("relayChat.review.undoFile", file);
    assert.equal(document.getText(), SOURCE, "the original, not the first attempt");
    await waitFor(() => !document.isDirty, 10_000, "the undone file clean again");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE);
  });

  it("Escape during a follow-up leaves the pending change as it was, still waiting for Keep or Undo", async () => {
    const document = await selectFunction();
    const first = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    assert.equal(first?.kind, "proposed");
    await queueFault({ kind: "drip", intervalMs: 150 });
    const running = vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename total to sum");
    await waitFor(() => document.getText() !== RENAMED, 20_000, "the first refined line in the file");
    await vscode.commands.executeCommand("relayChat.editInPlace.cancel");
    const end = await running;
    assert.equal(end?.kind, "unchanged");
    assert.equal(end?.result?.outcome.kind, "cancelled");
    assert.equal(document.getText(), RENAMED, "the pending replacement as it was");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), SOURCE, "still nothing on disk");
    // Keep still works on the pending change, per change.
    await vscode.commands.executeCommand("relayChat.review.keepChange", file.toString(), 0);
    await vscode.commands.executeCommand("relayChat.review.keepChange", file.toString(), 1);
    await waitFor(() => !document.isDirty, 10_000, "the kept file saved");
    assert.equal(await fs.readFile(file.fsPath, "utf8"), RENAMED);
  });

  it("one Undo in the editor takes the whole streamed edit back, not each streamed state", async () => {
    const document = await selectFunction();
    await queueFault({ kind: "drip", intervalMs: 40 });
    const end = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", "rename count to total");
    assert.equal(end?.kind, "proposed");
    assert.equal(document.getText(), RENAMED);
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand("undo");
    assert.equal(document.getText(), SOURCE, "one Undo: the file as it was");
    await waitFor(() => !document.isDirty, 10_000, "back at the saved version");
    await vscode.commands.executeCommand("undo");
    assert.equal(document.getText(), SOURCE, "a second Undo finds no streamed state in the history");
    await vscode.commands.executeCommand("redo");
    assert.equal(document.getText(), RENAMED, "Redo brings the whole edit back in one step");
  });

  it("`#` context in the instruction adds a workspace file and the Problems of the file to the request", async () => {
    const helper = vscode.Uri.file(path.join(folder, `helper-${Date.now()}.js`));
    await fs.writeFile(helper.fsPath, "export const STEP_NAME = 'stride';\n");
    const shown = vscode.workspace.asRelativePath(helper, false);
    const document = await selectFunction();
    const problems = vscode.languages.createDiagnosticCollection("edit-in-place-test");
    problems.set(file, [new vscode.Diagnostic(new vscode.Range(6, 2, 6, 8), "count is never reassigned", vscode.DiagnosticSeverity.Warning)]);
    try {
      const end = await vscode.commands.executeCommand<EditRunEnd>("relayChat.editInPlace", `rename count to total, as in #${shown} #problems #123`);
      assert.equal(end?.kind, "proposed", end?.kind === "unchanged" ? end.reason : "");
      assert.equal(document.getText(), RENAMED);
    } finally {
      problems.dispose();
    }
    const input = (await responsesReceived()).at(-1)?.body.input ?? [];
    const message = String(input.filter((item) => item.role === "user").at(-1)?.content);
    assert.ok(message.includes(`<attachment kind="file" label="${shown}">\n\`\`\`js\nexport const STEP_NAME = 'stride';\n`), message);
    assert.match(message, /<attachment kind="problems" label="Problems in [^"]*add-\d+\.js">[\s\S]*count is never reassigned/);
    assert.match(message, /^Instruction: rename count to total, as in #\S+ #problems #123$/m, "the words stay in the instruction, #123 as typed");
    await vscode.commands.executeCommand("relayChat.review.undoFile", file);
  });
});
