// What the model is told, through the real extension in a real extension host: a workspace with an
// AGENTS.md, a nested one, an .instructions.md with applyTo "**/*.ts" and one with "**/*.py"; a message
// while a .ts file is open sends the base instruction and the rules that apply (the emulator records the
// body), and "What the Model Is Told" shows the same text.
import * as assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { activateRelayChat, newChatWith, settled, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;

const RULES: Record<string, string> = {
  "AGENTS.md": "Root rule from the in-host test.",
  "web/AGENTS.md": "Nested web rule from the in-host test.",
  "docs/AGENTS.md": "Docs rule: not for a file under web/.",
  ".github/instructions/ts.instructions.md": '---\napplyTo: "**/*.ts"\n---\nTypeScript rule from the in-host test.',
  ".github/instructions/py.instructions.md": '---\napplyTo: "**/*.py"\n---\nPython rule: not for a .ts file.',
  "web/view.ts": "export const view = 1;\n",
};

async function responsesPosts(): Promise<Array<{ body: { instructions?: string } }>> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: { instructions?: string } }>;
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
}

async function lastInstructions(): Promise<string | undefined> {
  const posts = await responsesPosts();
  return posts[posts.length - 1]?.body.instructions;
}

/** Runs "What the Model Is Told" until its document shows `expected` (the watcher reads new files a moment later). */
async function shownInstructions(expected: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await vscode.commands.executeCommand("relayChat.showInstructions");
    const text = vscode.window.activeTextEditor?.document.getText() ?? "";
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (text.includes(expected) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe("what the model is told, in the extension host", function () {
  this.timeout(60_000);
  let api: RelayChatApi;
  let root: string;

  before(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || !controlUrl) this.skip();
    root = folder.uri.fsPath;
    for (const [file, text] of Object.entries(RULES)) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), text);
    }
    api = await activateRelayChat();
  });

  after(async () => {
    if (!root) return;
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const file of Object.keys(RULES)) await fs.rm(path.join(root, file), { force: true });
    for (const folder of ["web", "docs", ".github"]) await fs.rm(path.join(root, folder), { recursive: true, force: true });
  });

  it("sends the base instruction and the rules that apply to the open .ts file, as the command shows them", async () => {
    await newChatWith(api, "echo");
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    // Waits for the watcher to have read the new rules files.
    await shownInstructions("TypeScript rule from the in-host test.");
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    api.handle({ type: "send", text: "what are my rules?" });
    await waitForState(api, settled, "the answer");
    const sent = (await lastInstructions()) ?? "";
    for (const expected of ["You are a coding assistant in Relay Chat", `Workspace folders: ${vscode.workspace.workspaceFolders?.[0]?.name}`, "Root rule", "Nested web rule", "TypeScript rule"]) assert.ok(sent.includes(expected), `sent: ${expected}`);
    for (const unexpected of ["Docs rule", "Python rule"]) assert.equal(sent.includes(unexpected), false, `not sent: ${unexpected}`);
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    const shown = await shownInstructions("TypeScript rule from the in-host test.");
    assert.ok(shown.includes(sent), "the command shows exactly the text that was sent");
    for (const source of ["Relay Chat base instruction v2", "| AGENTS.md |", "| web/AGENTS.md |", "| .github/instructions/ts.instructions.md |"]) assert.ok(shown.includes(source), `shown: ${source}`);
  });

  it("lists the same files and tokens in the Rules chip, and a file switched off there is not sent in this conversation", async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    const withChip = await waitForState(api, (state) => (state.rules?.files.length ?? 0) === 3, "the Rules chip with three files");
    const chip = withChip.rules!;
    assert.deepEqual(chip.files.map((file) => file.source), ["AGENTS.md", "web/AGENTS.md", ".github/instructions/ts.instructions.md"]);
    const shown = await shownInstructions("TypeScript rule from the in-host test.");
    assert.ok(shown.includes(` ${chip.instructionTokens} of instructions`), "the chip and the command give the same estimate");
    assert.ok(shown.includes(`| web/AGENTS.md | ${chip.files[1].tokens} |`), "and the same figure per file");

    const nested = chip.files[1].id;
    api.handle({ type: "setRuleFile", id: nested, on: false });
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    const afterOff = await waitForState(api, (state) => state.rules?.files[1]?.off === true, "the file switched off");
    assert.ok(afterOff.rules!.instructionTokens < chip.instructionTokens, "the estimate drops");
    const postsBefore = (await responsesPosts()).length;
    api.handle({ type: "send", text: "what are my rules now?" });
    await waitForState(api, (state) => state.turns.some((turn) => turn.userText === "what are my rules now?"), "the turn");
    await waitForState(api, settled, "the answer");
    assert.equal((await responsesPosts()).length, postsBefore + 1, "one request was sent");
    const sent = (await lastInstructions()) ?? "";
    assert.ok(sent.includes("Root rule"), "the others still go");
    assert.equal(sent.includes("Nested web rule"), false, "the switched-off file does not");

    await newChatWith(api, "echo");
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "web/view.ts")));
    await waitForState(api, (state) => state.rules?.files[1]?.off === false, "a new conversation sends every file again");
  });
});

describe("project rules in an untrusted workspace", function () {
  this.timeout(60_000);
  let root: string | undefined;

  before(function () {
    if (vscode.workspace.isTrusted || !controlUrl) this.skip();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!root) this.skip();
  });

  after(async () => {
    if (root) await fs.rm(path.join(root, "AGENTS.md"), { force: true });
  });

  it("sends the base instruction but no rules file until the person allows them", async () => {
    await fs.writeFile(path.join(root!, "AGENTS.md"), "Untrusted rule: never sent unasked.");
    const api = await activateRelayChat();
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("echo"), "the model list");
    await newChatWith(api, "echo");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    api.handle({ type: "send", text: "what are my rules?" });
    await waitForState(api, settled, "the answer");
    const sent = (await lastInstructions()) ?? "";
    assert.ok(sent.includes("You are a coding assistant in Relay Chat"), "the base instruction is sent");
    assert.equal(sent.includes("Untrusted rule"), false, "the rules file is not");
  });
});
