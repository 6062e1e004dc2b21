// "What the model is told" as the editor shows it, in a real extension host: a read-only document of its own on
// Relay Chat's scheme (no Untitled file, no save prompt on closing), never in another tab's place (the check-up
// report's Markdown preview stays open), following the panel's state while it is open, and invisible to the
// editor tracking (the current-file chip and the rules that follow the file worked on stay as they were while it
// has the focus). The workspace's rules file linked to a file outside the folder is never read.
import * as assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { activateRelayChat, newChatWith, waitFor, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;

const FILES: Record<string, string> = {
  "AGENTS.md": "Root rule from the preview test.",
  "web/AGENTS.md": "Nested web rule from the preview test.",
  "web/view.ts": "export const view = 1;\n",
  "notes/report.md": "# A report\n\nShown in a Markdown preview, as the check-up report is.\n",
};

const isPreview = (uri: vscode.Uri | undefined) => uri?.scheme === "relay-chat";
const tabsOf = (test: (tab: vscode.Tab) => boolean) => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter(test);

describe("what the model is told: the preview document", function () {
  this.timeout(90_000);
  let api: RelayChatApi;
  let root: string;
  let outside: string;

  before(async function () {
    if (!vscode.workspace.isTrusted || !controlUrl) this.skip();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    for (const [file, text] of Object.entries(FILES)) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), text);
    }
    // A rules file that is a link to a file outside the workspace: VS Code's search finds it, the reader refuses it.
    outside = await fs.mkdtemp(path.join(os.tmpdir(), "relay-preview-outside-"));
    await fs.writeFile(path.join(outside, "bashrc"), "OUTSIDE_SECRET=never-sent");
    await fs.mkdir(path.join(root, ".github"), { recursive: true });
    await fs.symlink(path.join(outside, "bashrc"), path.join(root, ".github/copilot-instructions.md"));
    api = await activateRelayChat();
  });

  after(async () => {
    if (!root) return;
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const file of Object.keys(FILES)) await fs.rm(path.join(root, file), { force: true });
    for (const folder of ["web", "notes", ".github"]) await fs.rm(path.join(root, folder), { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  async function openView(): Promise<void> {
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")), { preview: false });
  }

  it("is a read-only document of its own that closes without asking to save and replaces no other tab", async () => {
    await newChatWith(api, "echo");
    // The check-up report is shown as a Markdown preview (a preview tab); opening "What the model is told" must leave it open.
    await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(path.join(root, "notes/report.md")));
    await waitFor(() => tabsOf((tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType)).length === 1, 10_000, "the Markdown preview");
    await openView();
    const withChip = await waitForState(api, (state) => (state.rules?.files.length ?? 0) === 2 && state.activeFileOffer?.label === "web/view.ts", "the Rules chip with both AGENTS.md files");
    assert.deepEqual(withChip.rules?.files.map((file) => file.source), ["AGENTS.md", "web/AGENTS.md"], "the linked copilot-instructions.md is not read");

    await vscode.commands.executeCommand("relayChat.showInstructions");
    const editor = vscode.window.activeTextEditor;
    assert.ok(isPreview(editor?.document.uri), `the preview is active: ${editor?.document.uri.toString()}`);
    const document = editor!.document;
    assert.equal(document.isUntitled, false);
    assert.equal(document.isDirty, false);
    assert.equal(document.languageId, "markdown");
    assert.match(document.getText(), /^# What the model is told/);
    assert.ok(document.getText().includes("Nested web rule from the preview test."), "the rules of the file worked on");
    assert.equal(document.getText().includes("OUTSIDE_SECRET"), false);
    assert.equal(tabsOf((tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType)).length, 1, "the Markdown preview is still open");

    // The editor tracking ignores it: the chip still counts the file worked on's rules, the current file stays.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const focused = api.state();
    assert.equal(focused.rules?.files.length, 2, "the Rules chip does not drop to the root file only");
    assert.equal(focused.activeFileOffer?.label, "web/view.ts", "the current-file chip stays");

    // Opening it again finds the same tab; closing it asks nothing (a dirty Untitled file would block here).
    await vscode.commands.executeCommand("relayChat.showInstructions");
    assert.equal(tabsOf((tab) => tab.input instanceof vscode.TabInputText && isPreview(tab.input.uri)).length, 1, "one tab");
    const closed = vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("closing the preview waited (a save prompt?)")), 10_000))]);
    assert.equal(tabsOf((tab) => tab.input instanceof vscode.TabInputText && isPreview(tab.input.uri)).length, 0);
  });

  it("follows the panel's state while it is open (Plan mode on and off)", async () => {
    await newChatWith(api, "echo");
    await openView();
    await vscode.commands.executeCommand("relayChat.showInstructions");
    const document = vscode.window.activeTextEditor!.document;
    assert.ok(isPreview(document.uri));
    assert.equal(document.getText().includes("Plan mode: the person asked for a plan"), false);
    api.handle({ type: "setMode", mode: "plan" });
    await waitFor(() => document.getText().includes("Plan mode: the person asked for a plan"), 10_000, "the preview in Plan mode");
    api.handle({ type: "setMode", mode: "act" });
    await waitFor(() => !document.getText().includes("Plan mode: the person asked for a plan"), 10_000, "the preview back in Act");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});

describe("what the model is told: the relay key in a rules file, in the extension host", function () {
  this.timeout(90_000);
  let root: string | undefined;

  after(async () => {
    if (root) await fs.rm(path.join(root, "AGENTS.md"), { force: true });
  });

  it("sends the rules file with the key taken out, says so, and keeps the key out of the history files", async function () {
    const key = process.env.RELAY_CHAT_API_KEY;
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!vscode.workspace.isTrusted || !controlUrl || !key || !root) this.skip();
    await fs.writeFile(path.join(root, "AGENTS.md"), `Call the relay with the key ${key} when asked.`);
    const api = await activateRelayChat();
    await newChatWith(api, "echo");
    await waitForState(api, (state) => state.rules?.files.some((file) => file.source === "AGENTS.md" && file.redacted === true) === true, "the Rules chip saying the key was removed");
    api.handle({ type: "send", text: "what are my rules?" });
    const answered = await waitForState(api, (state) => !state.busy && state.turns.length === 1 && state.turns[0]!.outcome !== "in_progress", "the answer");
    const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; body: unknown }>;
    const bodies = received.filter((request) => request.method === "POST").map((request) => JSON.stringify(request.body));
    assert.ok(bodies.at(-1)?.includes("Call the relay with the key [REDACTED] when asked."), "the rules file went, without the key");
    assert.equal(bodies.some((body) => body.includes(key)), false, "no request carried the key");
    const conversations = path.join(api.storageFolder, "conversations");
    const names = (await fs.readdir(conversations)).filter((name) => name.endsWith(".jsonl") || name.endsWith(".json"));
    assert.ok(names.some((name) => name.includes(answered.conversationId ?? "none")), "the conversation was written");
    const texts = await Promise.all(names.map((name) => fs.readFile(path.join(conversations, name), "utf8")));
    assert.equal(texts.some((text) => text.includes(key)), false, "the history files hold no key");
  });
});
