// The `#` context a person would otherwise paste, through the real extension in a real extension host: real
// diagnostics (a diagnostic collection, as a language extension reports them), a real git repository in the
// test workspace for Changes, and a real terminal. The emulator records what was sent, and the turn shows it.
//
// Terminal: a terminal running /bin/sh has no shell integration (VS Code injects it for bash, zsh, fish and
// PowerShell only), so the "unavailable" path is tested for certain. Whether shell integration starts for bash
// in this test host depends on the machine; when it does, the output of a command is checked too, and when it
// does not, the test says so in its log instead of failing (the formatting is covered by the unit tests).
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import type { AttachmentView, PanelState } from "../../src/panel/protocol";
import { activateRelayChat, lastTurn, newChatWith, settled, waitFor, waitForState } from "./panelState";

const controlUrl = process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL;

async function lastInputText(): Promise<string> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; body: { input?: unknown } }>;
  const posts = received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
  return JSON.stringify(posts[posts.length - 1]?.body.input ?? "");
}

const attachmentOf = (kind: AttachmentView["kind"]) => (state: PanelState) => state.attachments.find((attachment) => attachment.kind === kind);

describe("# context (Problems, Terminal, Changes) in the extension host", function () {
  this.timeout(90_000);
  let api: RelayChatApi;
  let root: string;
  let diagnostics: vscode.DiagnosticCollection;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" }).toString();

  before(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || !controlUrl) this.skip();
    root = folder.uri.fsPath;
    await fs.mkdir(path.join(root, "context-test"), { recursive: true });
    await fs.writeFile(path.join(root, "context-test", "broken.json"), '{ "name": "x", }\n');
    diagnostics = vscode.languages.createDiagnosticCollection("context-test");
    api = await activateRelayChat();
  });

  afterEach(() => {
    for (const attachment of api?.state().attachments ?? []) api.handle({ type: "removeAttachment", id: attachment.id });
  });

  after(async () => {
    diagnostics?.dispose();
    for (const terminal of vscode.window.terminals) terminal.dispose();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    if (!root) return;
    await fs.rm(path.join(root, "context-test"), { recursive: true, force: true });
    await fs.rm(path.join(root, ".git"), { recursive: true, force: true });
  });

  it("attaches the Problems VS Code shows, of the workspace and of the current file, sends them and records them in the turn", async () => {
    const file = vscode.Uri.file(path.join(root, "context-test", "broken.json"));
    const error = new vscode.Diagnostic(new vscode.Range(0, 14, 0, 15), "Trailing comma", vscode.DiagnosticSeverity.Error);
    error.source = "json-test";
    error.code = 519;
    const warning = new vscode.Diagnostic(new vscode.Range(0, 2, 0, 8), "Property name is\nunusual", vscode.DiagnosticSeverity.Warning);
    diagnostics.set(file, [warning, error]);
    // Problems of a file outside the workspace are not the model's to see.
    diagnostics.set(vscode.Uri.file(path.join(path.dirname(root), "outside.ts")), [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), "outside problem")]);

    await newChatWith(api, "echo");
    api.handle({ type: "attachContext", source: "problems" });
    const attached = await waitForState(api, (state) => attachmentOf("problems")(state) !== undefined, "the Problems chip");
    assert.equal(attachmentOf("problems")(attached)?.label, "Problems");
    assert.ok((attached.context?.estimatedTokens ?? 0) > 0, "the meter counts it");
    const before = attached.context?.estimatedTokens ?? 0;

    await vscode.window.showTextDocument(file);
    api.handle({ type: "attachContext", source: "problemsInFile" });
    const both = await waitForState(api, (state) => state.attachments.length === 2, "the current file's Problems chip");
    assert.equal(both.attachments[1]?.label, "Problems in context-test/broken.json");
    assert.ok((both.context?.estimatedTokens ?? 0) > before, "the meter counts the second chip too");

    api.handle({ type: "send", text: "why is this broken?" });
    const state = await waitForState(api, settled, "the answer");
    const sent = await lastInputText();
    assert.ok(sent.includes("context-test/broken.json:1:15 error Trailing comma [json-test 519]"), sent.slice(0, 2000));
    assert.ok(sent.includes("context-test/broken.json:1:3 warning Property name is unusual"), "the message is on one line");
    assert.ok(sent.includes('<attachment kind=\\"problems\\" label=\\"Problems\\">'), "sent as a labelled block");
    assert.equal(sent.includes("outside problem"), false, "nothing from outside the workspace");
    // The open file goes too (relayChat.context.activeEditor); the Problems chips are what this test is about.
    assert.deepEqual(lastTurn(state)?.attachments.filter((attachment) => attachment.kind !== "file"), [
      { kind: "problems", label: "Problems" },
      { kind: "problems", label: "Problems in context-test/broken.json" },
    ]);
    assert.equal(lastTurn(state)?.userText, "why is this broken?");
  });

  it("attaches the working tree's git changes, staged and unstaged, sent as a diff block and shown on the turn", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "Test");
    await fs.writeFile(path.join(root, "context-test", "tracked.txt"), "first line\n");
    git("add", "context-test/tracked.txt");
    git("commit", "-q", "-m", "first");
    await fs.writeFile(path.join(root, "context-test", "tracked.txt"), "first line\nunstaged line\n");
    await fs.writeFile(path.join(root, "context-test", "staged.txt"), "staged file\n");
    git("add", "context-test/staged.txt");

    await newChatWith(api, "echo");
    api.handle({ type: "attachContext", source: "changes" });
    const attached = await waitForState(api, (state) => attachmentOf("changes")(state) !== undefined, "the Changes chip");
    assert.equal(attachmentOf("changes")(attached)?.note, undefined, "a short diff is not cut");
    api.handle({ type: "send", text: "write a commit message" });
    const state = await waitForState(api, settled, "the answer");
    const sent = await lastInputText();
    assert.ok(sent.includes("Staged changes (git diff --cached):\\ndiff --git a/context-test/staged.txt"), sent.slice(0, 2000));
    assert.ok(sent.includes("+staged file"));
    assert.ok(sent.includes("Unstaged changes (git diff):\\ndiff --git a/context-test/tracked.txt"));
    assert.ok(sent.includes("+unstaged line"));
    assert.ok(sent.includes("```diff"), "fenced as a diff");
    assert.deepEqual(lastTurn(state)?.attachments, [{ kind: "changes", label: "Changes" }]);
  });

  it("attaches a folder's file list and a symbol's whole definition from the workspace symbol provider", async () => {
    await fs.writeFile(path.join(root, "context-test", "greeter.ts"), "// A greeter.\nexport class ContextTestGreeter {\n  hello(name: string): string {\n    return `hello ${name}`;\n  }\n}\n");
    await newChatWith(api, "echo");
    api.handle({ type: "attachContext", source: "folder", path: "context-test" });
    const folder = await waitForState(api, (state) => attachmentOf("folder")(state) !== undefined, "the folder chip", 40_000);
    assert.equal(attachmentOf("folder")(folder)?.label, "context-test/");

    // TypeScript's language server answers workspace symbol queries once it has a project open.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, "context-test", "greeter.ts")));
    const deadline = Date.now() + 45_000;
    while (attachmentOf("symbol")(api.state()) === undefined && Date.now() < deadline) {
      api.handle({ type: "attachContext", source: "symbol", name: "ContextTestGreeter", path: "context-test/greeter.ts:2" });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const symbol = attachmentOf("symbol")(api.state());
    assert.equal(symbol?.label, "ContextTestGreeter (context-test/greeter.ts:2)");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    api.handle({ type: "send", text: "explain these" });
    const state = await waitForState(api, settled, "the answer");
    const sent = await lastInputText();
    assert.ok(sent.includes("Files in context-test ("), sent.slice(0, 3000));
    assert.ok(sent.includes("\\ngreeter.ts\\n") || sent.includes("\\ngreeter.ts\""), "the folder's files, relative to it");
    assert.ok(sent.includes("class ContextTestGreeter, defined in context-test/greeter.ts:2-6:"), "the whole definition's place");
    assert.ok(sent.includes("return `hello ${name}`;"), "the definition's body, not only its name");
    assert.deepEqual(
      lastTurn(state)?.attachments.map((attachment) => attachment.kind),
      ["folder", "symbol"],
    );
  });

  it("says in the Terminal chip when the terminal has no shell integration, and reads a command's output when it has", async () => {
    const plain = vscode.window.createTerminal({ name: "plain sh", shellPath: "/bin/sh" });
    plain.show();
    await waitFor(() => vscode.window.activeTerminal === plain, 10_000, "the sh terminal to be active");
    api.handle({ type: "attachContext", source: "terminal" });
    const attached = await waitForState(api, (state) => attachmentOf("terminal")(state) !== undefined, "the Terminal chip");
    const chip = attachmentOf("terminal")(attached)!;
    assert.equal(chip.label, "Terminal plain sh");
    assert.match(chip.note ?? "", /no shell integration/);
    api.handle({ type: "removeAttachment", id: chip.id });

    const bash = vscode.window.createTerminal({ name: "bash with integration", shellPath: "/bin/bash" });
    bash.show();
    const integration = await shellIntegrationOf(bash);
    if (integration === undefined) {
      console.log("    (shell integration did not start for bash in this test host: only the unavailable path was checked)");
      return;
    }
    const ended = commandEnd(bash);
    // Printed a moment after the command starts: the output of a command that prints at once has its own test below.
    integration.executeCommand("sleep 0.5; echo relay-context-$((40 + 2))");
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 300));
    api.handle({ type: "attachContext", source: "terminal" });
    const read = await waitForState(api, (state) => attachmentOf("terminal")(state) !== undefined, "the Terminal chip with output");
    assert.equal(attachmentOf("terminal")(read)?.note, undefined);
    await newChatWith(api, "echo");
    api.handle({ type: "attachContext", source: "terminal" });
    await waitForState(api, (state) => attachmentOf("terminal")(state) !== undefined, "the Terminal chip again");
    api.handle({ type: "send", text: "what happened?" });
    await waitForState(api, settled, "the answer");
    const sent = await lastInputText();
    assert.ok(sent.includes("$ sleep 0.5; echo relay-context-$((40 + 2))"), sent.slice(0, 2000));
    assert.ok(sent.includes("relay-context-42"), `the output, as the terminal showed it: ${sent.slice(0, 3000)}`);
    assert.ok(sent.includes("exit code 0"));
  });

  // A quick command's start, output and end reach the extension host together; VS Code's read() started listening
  // a microtask too late for them, so the first command typed in a new terminal went to the model as "no output".
  it("reads the output of commands that print at once, the first one typed in a new terminal included", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const terminal = vscode.window.createTerminal({ name: "new bash", shellPath: "/bin/bash", cwd: path.join(root, "context-test") });
    terminal.show();
    if ((await shellIntegrationOf(terminal)) === undefined) {
      console.log("    (shell integration did not start for bash in this test host: the quick commands were not checked)");
      return;
    }
    const commands = [
      { typed: `printf 'const x: number = "a";\\n' > bad.ts && echo wrote && ls`, output: ["wrote", "bad.ts"] },
      { typed: "echo relay-quick-$((1 + 1))", output: ["relay-quick-2"] },
      { typed: "printf 'relay-quick-%s\\n' three", output: ["relay-quick-three"] },
      { typed: "echo relay-quick-4; echo relay-quick-4b", output: ["relay-quick-4\\nrelay-quick-4b"] },
      { typed: "echo relay-quick-5", output: ["relay-quick-5"] },
      { typed: "printf '%s-%s\\n' relay-quick 6", output: ["relay-quick-6"] },
    ];
    for (const command of commands) {
      const ended = commandEnd(terminal);
      // Typed as a person types it (not executeCommand): the shell reports it through its integration script.
      terminal.sendText(command.typed);
      await ended;
      await newChatWith(api, "echo");
      api.handle({ type: "attachContext", source: "terminal" });
      await waitForState(api, (state) => attachmentOf("terminal")(state) !== undefined, "the Terminal chip");
      api.handle({ type: "send", text: "what happened?" });
      await waitForState(api, settled, "the answer");
      const sent = await lastInputText();
      for (const line of command.output) assert.ok(sent.includes(line), `"${command.typed}" printed ${line}, as the terminal shows: ${sent.slice(0, 1500)}`);
      assert.equal(sent.includes("no output reached Relay Chat"), false);
    }
  });
});

/** The terminal's shell integration once it has started; undefined when it does not within 20 s. */
function shellIntegrationOf(terminal: vscode.Terminal): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    if (terminal.shellIntegration) return resolve(terminal.shellIntegration);
    const timer = setTimeout(() => (subscription.dispose(), resolve(undefined)), 20_000);
    const subscription = vscode.window.onDidChangeTerminalShellIntegration((event) => {
      if (event.terminal !== terminal) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(event.shellIntegration);
    });
  });
}

/** Resolves when the next command in `terminal` has ended. */
function commandEnd(terminal: vscode.Terminal): Promise<void> {
  return new Promise((resolve) => {
    const subscription = vscode.window.onDidEndTerminalShellExecution((event) => {
      if (event.terminal === terminal) (subscription.dispose(), resolve());
    });
  });
}
