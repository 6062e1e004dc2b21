import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCommandLine } from "../../src/tools/commandRunner";
import { createRunCommandTool } from "../../src/tools/runCommandTool";

const posixOnly = process.platform === "win32" ? describe.skip : describe;

posixOnly("tools: run_command", () => {
  let sandbox: string;
  let workspace: string;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-run-")));
    workspace = path.join(sandbox, "ws");
    await fs.mkdir(path.join(workspace, "sub"), { recursive: true });
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  const base = () => ({ cwd: workspace, timeoutMs: 10_000, maxOutputChars: 10_000 });

  it("returns the exit code and stdout and stderr together", async () => {
    const result = await runCommandLine({ ...base(), commandLine: "echo out; echo err 1>&2; exit 3" });
    assert.equal(result.exitCode, 3);
    assert.equal(result.timedOut, false);
    assert.match(result.output, /out\n/);
    assert.match(result.output, /err\n/);
  });

  it("runs in the given folder", async () => {
    const result = await runCommandLine({ ...base(), cwd: path.join(workspace, "sub"), commandLine: "pwd" });
    assert.equal(result.output.trim(), path.join(workspace, "sub"));
  });

  it("kills the whole process group on timeout", async () => {
    const marker = path.join(sandbox, "grandchild-survived");
    const started = Date.now();
    const result = await runCommandLine({
      ...base(),
      timeoutMs: 300,
      // The grandchild would write the marker after 1.5 s if it outlived the kill.
      commandLine: `(sleep 1.5 && touch ${JSON.stringify(marker)}) & sleep 30`,
    });
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    assert.ok(Date.now() - started < 5_000, "returns soon after the timeout");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(await fs.stat(marker).then(() => true, () => false), false, "the grandchild was killed too");
  });

  it("caps output, keeping the beginning and the end with a marker", async () => {
    const result = await runCommandLine({ ...base(), maxOutputChars: 100, commandLine: "seq 1 10000" });
    assert.equal(result.truncated, true);
    assert.ok(result.output.startsWith("1\n2\n3\n"));
    assert.ok(result.output.endsWith("9999\n10000\n"));
    assert.match(result.output, /\[\.\.\. output truncated: \d+ characters omitted, 100 of 48894 characters shown\]/);
    assert.equal(result.totalOutputChars, 48_894);
  });

  it("stops on abort", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runCommandLine({ ...base(), signal: controller.signal, commandLine: "sleep 30" });
    assert.equal(result.cancelled, true);
    assert.equal(result.exitCode, null);
  });

  it("does not start when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(sandbox, "ran");
    const result = await runCommandLine({ ...base(), signal: controller.signal, commandLine: `touch ${JSON.stringify(marker)}` });
    assert.equal(result.cancelled, true);
    assert.equal(await fs.stat(marker).then(() => true, () => false), false);
  });

  describe("as a tool", () => {
    const settings = { timeoutMs: () => 300, maxOutputChars: () => 1000 };
    const signal = () => new AbortController().signal;

    it("is an execute tool with a closed schema", () => {
      const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, settings);
      assert.equal(tool.risk, "execute");
      assert.equal(tool.parameters["additionalProperties"], false);
    });

    it("reports the exit code and output", async () => {
      const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, settings);
      assert.equal(await tool.run({ command: "echo hi; exit 2" }, signal()), "Exit code: 2\nhi\n");
      assert.equal(await tool.run({ command: "pwd", cwd: "sub" }, signal()), `Exit code: 0\n${path.join(workspace, "sub")}\n`);
    });

    it("refuses a working folder outside the workspace without running anything", async () => {
      const marker = path.join(sandbox, "ran");
      const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, settings);
      const result = await tool.run({ command: `touch ${JSON.stringify(marker)}`, cwd: ".." }, signal());
      assert.deepEqual(typeof result === "object" && result.isError, true);
      assert.match(typeof result === "object" ? result.output : "", /outside the workspace/);
      assert.equal(await fs.stat(marker).then(() => true, () => false), false);
    });

    it("says that it timed out", async () => {
      const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, settings);
      assert.match(String(await tool.run({ command: "sleep 30" }, signal())), /^Timed out after 0 s; the command and its child processes were killed\./);
    });
  });
});
