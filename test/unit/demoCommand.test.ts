// `npm run demo` as a newcomer meets it (issue 38): --help prints the options and starts nothing; the project
// it opens is its own git repository with a staged change (so #Changes and /commit work on it, not on the
// Relay Chat repository around .vscode-test/); and its relay serves a model over Chat Completions only, which
// the panel and the check-up find and offer to switch.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { answerTextOf } from "../../src/chat/answerText";
import { composeMessage } from "../../src/panel/context/messageAttachments";
import { isResponsesRefusal } from "../../src/relay/chatCompletions/protocolRefusal";
import { checkConnection } from "../../src/relay/connectionCheck";
import { finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";
import { emulatorWithClient } from "../support/emulatorClient";

const repoRoot = path.join(__dirname, "..", "..");

/** Runs a command in the repository, for at most `timeoutMs` (then kills it): its output and exit code. */
function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole group: without --help the demo would be installing and building by now.
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

describe("npm run demo", function () {
  this.timeout(60_000);

  it("`npm run demo -- --help` prints every option and exits at once, starting nothing", async () => {
    const result = await run("npm", ["run", "--silent", "demo", "--", "--help"], 30_000);
    assert.equal(result.timedOut, false, `it exited by itself: ${result.stdout}${result.stderr}`);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: npm run demo \[-- OPTIONS\]/);
    for (const option of ["--port N", "--relay-port N", "--profile P", "--fresh", "--locale zh-cn", "--screenshot", "-h, --help"]) assert.ok(result.stdout.includes(option), option);
    assert.doesNotMatch(result.stdout + result.stderr, /Building the VSIX|code-server .* installed|Relay emulator on/);
  });

  it("a mistyped option stops it with what is wrong and where the options are", async () => {
    const result = await run(process.execPath, ["scripts/demo.mjs", "--screenshots"], 30_000);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Unknown option '--screenshots'[\s\S]*npm run demo -- --help/);
    const port = await run(process.execPath, ["scripts/demo.mjs", "--relay-port", "80000"], 30_000);
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--relay-port takes a port number from 1 to 65534, got "80000"/);
  });
});

describe("the demo project", function () {
  this.timeout(60_000);
  let folder: string;
  beforeEach(async () => {
    folder = path.join(await mkdtemp(path.join(tmpdir(), "relay-chat-demo-project-")), "demo-workspace");
  });
  afterEach(async () => rm(path.dirname(folder), { recursive: true, force: true }));

  async function writeDemoWorkspace(): Promise<{ git: boolean; problem?: string }> {
    const module = pathToFileURL(path.join(repoRoot, "scripts", "demoWorkspace.mjs")).href;
    const script = `import { writeDemoWorkspace } from ${JSON.stringify(module)}; console.log(JSON.stringify(writeDemoWorkspace(process.argv[1])));`;
    return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script, folder], { encoding: "utf8" })) as { git: boolean };
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: folder, encoding: "utf8" }).trim();

  it("is its own git repository: one commit, then a change to hello.ts staged, nothing else changed", async () => {
    assert.deepEqual(await writeDemoWorkspace(), { git: true });
    assert.equal(git("rev-parse", "--show-toplevel"), await realpath(folder), "its own repository, not the one around it");
    assert.equal(git("rev-list", "--count", "HEAD"), "1");
    assert.equal(git("status", "--porcelain"), "M  hello.ts");
    assert.match(git("diff", "--cached"), /^\+export function farewell\(name: string\): string \{$/m);
    assert.deepEqual(git("ls-files").split("\n").sort(), [".github/instructions/typescript.instructions.md", ".github/prompts/review.prompt.md", "AGENTS.md", "README.md", "hello.ts"]);
  });

  it("is written afresh on every start: what a previous demo changed is gone", async () => {
    await writeDemoWorkspace();
    await writeFile(path.join(folder, "scratch.ts"), "// left by a previous demo\n");
    git("commit", "-qam", "a previous demo's commit");
    await writeDemoWorkspace();
    assert.equal(git("rev-list", "--count", "HEAD"), "1");
    assert.equal(git("status", "--porcelain"), "M  hello.ts");
  });

  it("/commit on its staged change: the demo model's answer is a commit message for it", async () => {
    await writeDemoWorkspace();
    const harness = await startChatHarness();
    try {
      const session = harness.newSession({ settings: { model: "demo" } });
      const staged = composeMessage("/commit", [{ kind: "file", label: "Staged changes of demo-workspace", text: git("diff", "--cached"), language: "diff" }]);
      assert.equal(answerTextOf(finishedTurn(await session.send(staged))), "Add farewell() to hello.ts\n\n- hello.ts: 4 lines added, 0 removed");
    } finally {
      await harness.close();
    }
  });
});

describe("the demo relay's Chat Completions model", () => {
  // As scripts/demo.mjs starts it: the default profile, plus deepseek-chat and deepseek-v4-flash.
  const relay = emulatorWithClient({ chatOnlyModels: ["deepseek-chat", "deepseek-v4-flash"] });

  it("is listed, and its Responses request is refused the way the panel offers Chat Completions for", async () => {
    const listed = await relay.client().listModels();
    assert.ok(listed.ok && listed.models.some((model) => model.id === "deepseek-chat"));
    assert.ok(listed.ok && listed.models.some((model) => model.id === "demo"));
    const harness = await startChatHarness({ chatOnlyModels: ["deepseek-chat"] });
    try {
      const turn = finishedTurn(await harness.newSession({ settings: { model: "deepseek-chat" } }).send("Hello!"));
      const refused = turn.requests[0]?.outcome ?? assert.fail("a request");
      assert.ok(refused.kind !== "in_progress" && isResponsesRefusal(refused), JSON.stringify(refused));
      const answered = finishedTurn(await harness.newSession({ settings: { model: "deepseek-chat", protocol: "chat" } }).send("Hello!"));
      assert.equal(answered.outcome.kind, "completed");
      assert.match(answerTextOf(answered), /demo model/);
    } finally {
      await harness.close();
    }
  });

  it("the check-up finds that it needs Chat Completions and confirms it with one small request", async () => {
    const report = await checkConnection(relay.client(), "deepseek-chat");
    assert.equal(report.protocolFinding, "chat");
    assert.equal(report.steps.find((step) => step.name === "Chat Completions")?.status, "ok");
  });
});
