// Slash commands through the real extension in a real extension host: a prompt file written into the
// workspace shows up in the `/` menu's list with its description, and `/name arguments` sends the message
// with the file's body (arguments put in) in the request's `instructions` and only the tools its front
// matter names (the emulator records the body). /commit puts the answer into the Source Control message box
// of a repository with staged changes and commits nothing.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import { activateRelayChat, lastTurn, newChatWith, settled, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;
const PROMPT_FILE = ".github/prompts/security-review.prompt.md";

interface ReceivedRequest {
  method: string;
  path: string;
  body: { instructions?: string; input?: unknown; tools?: Array<{ name?: string }> };
}

async function lastResponsesRequest(): Promise<ReceivedRequest | undefined> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as ReceivedRequest[];
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses").pop();
}

describe("slash commands, in the extension host", function () {
  this.timeout(90_000);
  let api: RelayChatApi;
  let root: string;

  before(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || !controlUrl) this.skip();
    root = folder.uri.fsPath;
    api = await activateRelayChat();
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("echo"), "the model list");
  });

  after(async () => {
    if (!root) return;
    await vscode.workspace.getConfiguration("git").update("enabled", false, vscode.ConfigurationTarget.Global);
    await fs.rm(path.join(root, ".github"), { recursive: true, force: true });
    await fs.rm(path.join(root, "commit-repo"), { recursive: true, force: true });
  });

  it("runs a workspace prompt file through /: its body goes in instructions with the arguments, and only its tools are offered", async () => {
    await fs.mkdir(path.join(root, ".github/prompts"), { recursive: true });
    await fs.writeFile(path.join(root, PROMPT_FILE), "---\ndescription: Review for security problems\ntools: [read_file]\nmode: ask\n---\nReview ${input:area} for security problems (in-host prompt file).\n");
    // The person types `/`, as the menu opens (the webview tells the draft's command): the files are looked at
    // again, so the new file is listed even when the watcher missed a folder created with its file.
    api.handle({ type: "draftCommand", text: "/" });
    const listed = await waitForState(api, (state) => (state.slashCommands ?? []).some((command) => command.name === "security-review"), "the prompt file in the / menu");
    api.handle({ type: "draftCommand", text: "" });
    const { promptTokens, ...view } = listed.slashCommands?.find((command) => command.name === "security-review") ?? { promptTokens: 0 };
    assert.deepEqual(view, { name: "security-review", description: "Review for security problems", argumentHint: "", origin: "workspace" });
    assert.ok((promptTokens ?? 0) > 10, "its prompt's size, for the context meter");
    for (const builtin of ["new", "compact", "plan", "explain", "fix", "tests", "commit"]) assert.ok(listed.slashCommands?.some((command) => command.name === builtin && command.origin === "builtin"), `built-in /${builtin}`);

    await newChatWith(api, "echo");
    api.handle({ type: "send", text: "/security-review area=auth" });
    const state = await waitForState(api, settled, "the answer");
    assert.equal(lastTurn(state)?.userText, "/security-review area=auth", "the turn shows what was typed");
    const sent = await lastResponsesRequest();
    const instructions = sent?.body.instructions ?? "";
    assert.ok(instructions.includes("You are a coding assistant in Relay Chat"), "the base instruction still goes");
    assert.ok(instructions.includes(`The person started this message with /security-review, the prompt file ${PROMPT_FILE}:\nReview auth for security problems (in-host prompt file).`), `sent: ${instructions.slice(-400)}`);
    assert.deepEqual((sent?.body.tools ?? []).map((tool) => tool.name), ["read_file"]);

    // "What the model is told" with the command in the box shows the prompt file with its source, as sent.
    api.handle({ type: "showInstructions", draft: "/security-review area=auth" });
    const deadline = Date.now() + 15_000;
    let shown = "";
    while (!shown.includes("in-host prompt file") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = vscode.window.activeTextEditor?.document.getText() ?? "";
    }
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    assert.ok(shown.includes(`| ${PROMPT_FILE} |`), "its source in the table");
    assert.ok(shown.includes(instructions), "the same text as sent");

    // The next message is a plain one again: no prompt, every tool.
    api.handle({ type: "send", text: "and now?" });
    await waitForState(api, (current) => settled(current) && current.turns.length === 2, "the second answer");
    const plain = await lastResponsesRequest();
    assert.equal((plain?.body.instructions ?? "").includes("in-host prompt file"), false);
    assert.ok((plain?.body.tools ?? []).length > 1, "the usual tools again");
  });

  it("offers the person's own prompt files from relayChat.promptFiles.userFolder, in any workspace", async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-user-prompts-"));
    try {
      await fs.writeFile(path.join(folder, "standup.prompt.md"), "---\ndescription: My standup notes\n---\nWrite my standup notes (user prompt file).\n");
      await vscode.workspace.getConfiguration("relayChat").update("promptFiles.userFolder", folder, vscode.ConfigurationTarget.Global);
      const state = await waitForState(api, (current) => (current.slashCommands ?? []).some((command) => command.name === "standup"), "the person's prompt file in the / menu");
      assert.equal(state.slashCommands?.find((command) => command.name === "standup")?.origin, "user");
      await newChatWith(api, "echo");
      api.handle({ type: "send", text: "/standup" });
      await waitForState(api, settled, "the answer");
      assert.ok(((await lastResponsesRequest())?.body.instructions ?? "").includes("The person started this message with /standup, the prompt file user prompts/standup.prompt.md:\nWrite my standup notes (user prompt file)."));
    } finally {
      await vscode.workspace.getConfiguration("relayChat").update("promptFiles.userFolder", undefined, vscode.ConfigurationTarget.Global);
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it("/commit puts the model's message for the staged changes into the Source Control box and commits nothing", async function () {
    const git = vscode.extensions.getExtension("vscode.git");
    if (!git) this.skip();
    const repo = path.join(root, "commit-repo");
    await fs.mkdir(repo, { recursive: true });
    const run = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    run("init", "-q");
    await fs.writeFile(path.join(repo, "notes.txt"), "staged line for the in-host test\n");
    run("add", "notes.txt");
    // The test VS Code runs with git.enabled false (scripts/vscode/codeServer.mjs): on for this test only.
    const gitSettings = vscode.workspace.getConfiguration("git");
    await gitSettings.update("enabled", true, vscode.ConfigurationTarget.Global);
    const exports = (git!.isActive ? git!.exports : await git!.activate()) as { enabled: boolean; getAPI(version: 1): { repositories: Array<{ rootUri: vscode.Uri; inputBox: { value: string } }> } };
    const deadline = Date.now() + 20_000;
    while (!exports.enabled) {
      if (Date.now() > deadline) throw new Error("the Git extension did not turn on");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const gitApi = exports.getAPI(1);
    while (!gitApi.repositories.some((repository) => path.basename(repository.rootUri.fsPath) === "commit-repo")) {
      if (Date.now() > deadline) throw new Error("the Git extension did not open commit-repo");
      await vscode.commands.executeCommand("git.openRepository", repo).then(undefined, () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await newChatWith(api, "echo");
    api.handle({ type: "send", text: "/commit" });
    const state = await waitForState(api, (current) => settled(current) && lastTurn(current)?.commandNote !== undefined, "the commit message turn", 40_000);
    const turn = lastTurn(state)!;
    assert.equal(turn.userText, "/commit");
    assert.deepEqual(turn.attachments, [{ kind: "file", label: "Staged changes of commit-repo" }]);
    assert.match(turn.commandNote ?? "", /Source Control message box of commit-repo/);
    const sent = await lastResponsesRequest();
    assert.ok((sent?.body.instructions ?? "").includes("Write a git commit message for the staged changes"), "the /commit prompt goes in instructions");
    assert.ok(JSON.stringify(sent?.body.input).includes("staged line for the in-host test"), "the staged diff goes with the message");
    assert.equal(sent?.body.tools, undefined, "no tools are offered for it");
    const box = gitApi.repositories.find((repository) => path.basename(repository.rootUri.fsPath) === "commit-repo")?.inputBox.value ?? "";
    assert.ok(box.trim() !== "", "the Source Control box holds the message");
    assert.ok(turn.answerText.trim().includes(box.trim().split("\n")[0]!), "the box holds the answer's text");
    assert.throws(() => run("rev-parse", "HEAD"), "nothing was committed");
  });
});

describe("prompt files in an untrusted workspace", function () {
  this.timeout(60_000);
  let root: string | undefined;

  before(function () {
    if (vscode.workspace.isTrusted || !controlUrl) this.skip();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!root) this.skip();
  });

  after(async () => {
    if (root) await fs.rm(path.join(root, ".github"), { recursive: true, force: true });
  });

  it("offers the built-ins but not the workspace's prompt files, and sends none of their text", async () => {
    await fs.mkdir(path.join(root!, ".github/prompts"), { recursive: true });
    await fs.writeFile(path.join(root!, ".github/prompts/untrusted.prompt.md"), "---\ndescription: From an untrusted repository\n---\nUntrusted prompt text: never sent unasked.\n");
    const api = await activateRelayChat();
    api.handle({ type: "refreshModels" });
    await waitForState(api, (state) => state.models.includes("echo"), "the model list");
    const state = await waitForState(api, (current) => (current.slashCommands ?? []).some((command) => command.name === "explain"), "the built-in commands");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal((api.state().slashCommands ?? state.slashCommands ?? []).some((command) => command.name === "untrusted"), false, "the prompt file is not offered");
    await newChatWith(api, "echo");
    api.handle({ type: "send", text: "/untrusted please" });
    await waitForState(api, settled, "the answer");
    const sent = await lastResponsesRequest();
    assert.equal((sent?.body.instructions ?? "").includes("Untrusted prompt text"), false);
    assert.ok((sent?.body.instructions ?? "").includes("You are a coding assistant in Relay Chat"), "the base instruction is sent");
  });
});
