import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { composeMessage, splitMessage } from "../../src/panel/context/messageAttachments";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import { createChangesTool } from "../../src/tools/changesTool";
import { UNTRUSTED_WORKSPACE_CHANGES, workingTreeChanges } from "../../src/tools/gitChanges";
import { createTerminalOutputTool, terminalText } from "../../src/tools/terminalOutputTool";
import type { ProblemEntry } from "../../src/tools/workspaceContextText";
import { NO_OUTPUT, cleanTerminalOutput, formatChanges, formatFolderListing, formatProblems, formatSymbol, formatTerminalRuns, problemLine } from "../../src/tools/workspaceContextText";

// The context a person would otherwise paste (#Problems, #Terminal, #Changes, a folder, a symbol): how it is
// worded for the model, where it is cut and that the cut is said, and the git changes read from a real repository.

const problem = (overrides: Partial<ProblemEntry>): ProblemEntry => ({ path: "src/a.ts", line: 1, column: 1, severity: "error", message: "broken", ...overrides });

describe("workspace context: Problems", () => {
  it("lists errors first, then by file and line, with severity, message and source on one line each", () => {
    const text = formatProblems(
      [
        problem({ path: "src/b.ts", line: 3, severity: "warning", message: "unused\n  variable", source: "ts", code: "6133" }),
        problem({ path: "src/b.ts", line: 9, column: 5, message: "Cannot find name 'x'.", source: "ts", code: "2304" }),
        problem({ path: "src/a.ts", line: 20, severity: "hint", message: "could be const" }),
        problem({ path: "src/a.ts", line: 2, message: "Expected ';'", source: "ts" }),
      ],
      "in the workspace",
    );
    assert.equal(
      text,
      [
        "Problems in the workspace (2 errors, 1 warning, 1 hint):",
        "src/a.ts:2:1 error Expected ';' [ts]",
        "src/b.ts:9:5 error Cannot find name 'x'. [ts 2304]",
        "src/b.ts:3:1 warning unused variable [ts 6133]",
        "src/a.ts:20:1 hint could be const",
      ].join("\n"),
    );
  });

  it("counts what is beyond the limit instead of listing it, and says when there are none", () => {
    const many = Array.from({ length: 7 }, (_, index) => problem({ line: index + 1 }));
    const text = formatProblems(many, "in src/a.ts", 5);
    assert.equal(text.split("\n").length, 1 + 5 + 1);
    assert.match(text, /\[\.\.\. 2 more problems not shown\]$/);
    assert.equal(formatProblems([], "in src/a.ts"), "No problems reported in src/a.ts.");
    assert.equal(problemLine(problem({ code: "E1" })), "src/a.ts:1:1 error broken", "a code without a source is left out, as get_diagnostics always did");
  });
});

describe("workspace context: Terminal", () => {
  it("removes colours, shell integration marks and redrawn progress lines from the output", () => {
    const raw = "\u001b]633;C\u0007\u001b[32mPASS\u001b[0m test/a.test.ts\r\nDownloading 10%\rDownloading 100%\r\n\u001b]0;title\u001b\\done   \r\n";
    assert.equal(cleanTerminalOutput(raw), "PASS test/a.test.ts\nDownloading 100%\ndone");
  });

  it("shows each command with its exit code and output, cutting long output from the start with the cut said", () => {
    const runs = [
      { terminal: "bash", commandLine: "npm test", cwd: "/work/app", exitCode: 1, output: `${"x".repeat(50)}\nFAILED at the end` },
      { terminal: "bash", commandLine: "ls", exitCode: undefined, output: "" },
    ];
    const text = formatTerminalRuns(runs, 30);
    assert.match(text, /^\$ npm test\n\(terminal "bash", in \/work\/app, exit code 1\)\n\[\.\.\. the first 38 of 68 characters cut\]\n.*FAILED at the end\n\n/s);
    assert.ok(text.endsWith(`$ ls\n(terminal "bash", exit code not reported)\n${NO_OUTPUT}`), text);
    assert.equal(formatTerminalRuns([]), "No command has finished in the terminal since Relay Chat started watching it.");
  });

  it("says why there is nothing to read when shell integration is unavailable or no terminal is open, and the tool sends the same", async () => {
    assert.match(terminalText({ available: false, terminal: "cmd" }, 1), /The terminal "cmd" has no shell integration.*terminal\.integrated\.shellIntegration\.enabled/s);
    assert.equal(terminalText({ available: false, terminal: null }, 1), "No terminal is open, so there is no command output to read.");
    const tool = createTerminalOutputTool(() => ({ available: true, terminal: "zsh", runs: [1, 2, 3].map((n) => ({ terminal: "zsh", commandLine: `echo ${n}`, exitCode: 0, output: `${n}\n` })) }));
    assert.equal(tool.risk, "read");
    const two = String(await tool.run({ commands: 2 }, new AbortController().signal));
    assert.doesNotMatch(two, /echo 1/);
    assert.match(two, /\$ echo 2[\s\S]*\$ echo 3/);
    assert.match(String(await tool.run({}, new AbortController().signal)), /^\$ echo 3/, "the last command by default");
  });
});

describe("workspace context: Changes, folders and symbols (formatting)", () => {
  it("puts staged, unstaged and untracked under their own headings and cuts a long diff saying how much was shown", () => {
    const whole = formatChanges({ staged: "diff --git a/a b/a\n+staged\n", unstaged: "diff --git a/b b/b\n+unstaged\n", untracked: ["new.txt"] });
    assert.equal(whole.cut, false);
    assert.match(whole.text, /^Staged changes \(git diff --cached\):\ndiff --git a\/a b\/a\n\+staged\n\nUnstaged changes \(git diff\):\n[\s\S]*\n\nUntracked files \(not in the diff\):\nnew\.txt$/);
    const cut = formatChanges({ staged: "", unstaged: `+${"y".repeat(500)}`, untracked: [] }, 100);
    assert.equal(cut.cut, true);
    assert.match(cut.text, /\n\[\.\.\. diff cut: 100 of 530 characters shown\]$/);
    assert.equal(formatChanges({ staged: "", unstaged: "", untracked: [] }).text, "No changes: the working tree matches the last commit.");
  });

  it("lists a folder's files relative to it and a symbol's definition with its place, each within its limit", () => {
    const listing = formatFolderListing("src", ["src/a.ts", "src/lib/b.ts", "src/c.ts"], 2);
    assert.equal(listing.text, "Files in src (3, ignored files left out):\na.ts\nlib/b.ts\n[... 1 more files not shown]");
    assert.equal(listing.cut, true);
    const symbol = formatSymbol({ name: "Greeter", kind: "class", path: "src/greeter.ts", startLine: 3, endLine: 5, text: "class Greeter {\n  hi() {}\n}" });
    assert.equal(symbol.text, "class Greeter, defined in src/greeter.ts:3-5:\nclass Greeter {\n  hi() {}\n}");
    assert.match(formatSymbol({ name: "f", kind: "function", path: "a.ts", startLine: 1, endLine: 1, text: "z".repeat(50) }, 10).text, /\[\.\.\. definition cut: 10 of 50 characters shown\]$/);
  });

  it("sends each context as a labelled block the turn shows as a chip again", () => {
    const attachments = [
      { kind: "problems" as const, label: "Problems", text: "Problems in the workspace (1 error):\nsrc/a.ts:1:1 error broken", language: "" },
      { kind: "terminal" as const, label: "Terminal bash", text: "$ npm test", language: "" },
      { kind: "changes" as const, label: "Changes", text: "Unstaged changes (git diff):\n+x", language: "diff" },
      { kind: "folder" as const, label: "src/", text: "Files in src (1, ignored files left out):\na.ts", language: "" },
      { kind: "symbol" as const, label: "Greeter (src/greeter.ts:3)", text: "class Greeter {}", language: "typescript" },
    ];
    const message = composeMessage("Why does it fail?", attachments);
    assert.match(message, /<attachment kind="changes" label="Changes">\n```diff\nUnstaged changes/);
    const split = splitMessage(message);
    assert.equal(split.text, "Why does it fail?");
    assert.deepEqual(split.attachments, attachments.map(({ kind, label }) => ({ kind, label })));
  });
});

describe("workspace context: git changes of a real repository", function () {
  this.timeout(30_000);
  let folder: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: folder, stdio: "pipe" }).toString();

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-changes-"));
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "Test");
    await writeFile(path.join(folder, "a.txt"), "one\n");
    await writeFile(path.join(folder, "b.txt"), "two\n");
    git("add", ".");
    git("commit", "-q", "-m", "first");
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("reads staged and unstaged diffs and untracked names, and runs nothing the repository configures", async () => {
    await writeFile(path.join(folder, "a.txt"), "one\nstaged line\n");
    git("add", "a.txt");
    await writeFile(path.join(folder, "b.txt"), "two\nunstaged line\n");
    await writeFile(path.join(folder, "new.txt"), "new\n");
    // A repository that names an external diff program: reading the changes must not start it.
    const marker = path.join(folder, "..", `${path.basename(folder)}-ran`);
    git("config", "diff.external", `sh -c 'touch ${marker}'`);
    const changes = await workingTreeChanges([folder], true);
    assert.ok(changes.ok, JSON.stringify(changes));
    assert.match(changes.text, /^Staged changes \(git diff --cached\):\ndiff --git a\/a\.txt b\/a\.txt[\s\S]*\+staged line/);
    assert.match(changes.text, /Unstaged changes \(git diff\):\ndiff --git a\/b\.txt b\/b\.txt[\s\S]*\+unstaged line/);
    assert.match(changes.text, /Untracked files \(not in the diff\):\nnew\.txt$/);
    assert.equal(existsSync(marker), false, "the external diff program was not run");
    assert.deepEqual(await workingTreeChanges([folder], false), { ok: false, problem: UNTRUSTED_WORKSPACE_CHANGES }, "an untrusted workspace's git is not run");
    const tool = createChangesTool(() => [folder], () => true);
    assert.equal(tool.risk, "read");
    assert.equal(await tool.run({}, new AbortController().signal), changes.text, "get_changes sends what the chip sends");
  });

  it("says a clean tree is clean, a folder outside git is not a repository, and cuts a big diff saying so", async () => {
    assert.deepEqual(await workingTreeChanges([folder], true), { ok: true, text: "No changes: the working tree matches the last commit.", cut: false });
    const outside = await mkdtemp(path.join(tmpdir(), "relay-chat-nogit-"));
    try {
      const result = await workingTreeChanges([outside], true);
      assert.equal(result.ok, false);
      assert.match(!result.ok ? result.problem : "", /is not in a git repository/);
      assert.deepEqual(await createChangesTool(() => [outside], () => true).run({}, new AbortController().signal), { output: `${outside} is not in a git repository.`, isError: true });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    await writeFile(path.join(folder, "a.txt"), "changed\n".repeat(2000));
    const big = await workingTreeChanges([folder], true, 1000);
    assert.ok(big.ok && big.cut);
    assert.match(big.ok ? big.text : "", /\n\[\.\.\. diff cut: 1000 of \d+ characters shown\]$/);
  });
});

describe("workspace context: a folder's file list for #", function () {
  this.timeout(20_000);
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-folders-"));
    await mkdir(path.join(folder, "src", "panel"), { recursive: true });
    await mkdir(path.join(folder, "build"), { recursive: true });
    await writeFile(path.join(folder, ".gitignore"), "build/\n*.log\n");
    await writeFile(path.join(folder, "src", "panel", "composer.ts"), "export {};\n");
    await writeFile(path.join(folder, "src", "main.ts"), "export {};\n");
    await writeFile(path.join(folder, "src", "debug.log"), "ignored\n");
    await writeFile(path.join(folder, "build", "out.js"), "ignored\n");
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("finds folders by name and attaches a folder's files, .gitignore respected", async () => {
    const files = new WorkspaceFiles({ folders: () => [folder], excludePatterns: () => [] });
    assert.deepEqual(await files.folders("pan"), [{ path: "src/panel", kind: "folder" }]);
    assert.deepEqual(await files.folders("build"), [], "an ignored folder is not offered");
    assert.deepEqual(await files.folders(""), [], "an empty # lists files, not folders");
    const attached = await files.folderAttachment("src");
    assert.ok(attached.ok);
    assert.deepEqual(attached.ok && { kind: attached.attachment.kind, label: attached.attachment.label, text: attached.attachment.text }, {
      kind: "folder",
      label: "src/",
      text: "Files in src (2, ignored files left out):\nmain.ts\npanel/composer.ts",
    });
    const missing = await files.folderAttachment("build");
    assert.equal(missing.ok, false);
  });

  it("finds a folder or a file made on disk since the last walk (a command made it, VS Code said nothing)", async () => {
    const files = new WorkspaceFiles({ folders: () => [folder], excludePatterns: () => [] });
    assert.deepEqual(await files.folders("pan"), [{ path: "src/panel", kind: "folder" }], "walked once");
    await mkdir(path.join(folder, "generated"), { recursive: true });
    await writeFile(path.join(folder, "generated", "report.txt"), "made by a command\n");
    const attached = await files.folderAttachment("generated");
    assert.ok(attached.ok, "the folder is found by a walk made when it was missing");
    await writeFile(path.join(folder, "generated", "second.txt"), "made later\n");
    const file = await files.attachment("generated/second.txt");
    assert.ok(file.ok && file.attachment.text === "made later\n", "so is a new file");
    assert.equal((await files.folderAttachment("nowhere")).ok, false, "a folder that is not there is still refused");
  });

  it("walks again on a miss even when the clock has not moved since the last walk (a fast machine: one millisecond)", async () => {
    const files = new WorkspaceFiles({ folders: () => [folder], excludePatterns: () => [], now: () => 1_000 });
    assert.deepEqual(await files.folders("pan"), [{ path: "src/panel", kind: "folder" }], "walked once");
    await writeFile(path.join(folder, "src", "made.txt"), "made by a command\n");
    const file = await files.attachment("src/made.txt");
    assert.ok(file.ok, "the file made in the same millisecond is found");
    await mkdir(path.join(folder, "out"));
    await writeFile(path.join(folder, "out", "a.txt"), "a\n");
    assert.ok((await files.folderAttachment("out")).ok, "so is a folder");
  });
});
