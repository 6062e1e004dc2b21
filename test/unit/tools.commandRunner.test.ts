import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCommandLine } from "../../src/tools/commandRunner";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import { RunningCommands } from "../../src/tools/runningCommands";
import { waitForNumberIn, waitUntilDead, waitUntilNoProcessMentions } from "../support/processes";

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
    // The grandchild subshell keeps the command's line, which names the marker: once no process does, none can
    // write it.
    await waitUntilNoProcessMentions(marker, "the grandchild was killed with the shell");
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
      const result = await tool.run({ command: "sleep 30" }, signal());
      assert.equal(typeof result === "object" && result.isError, true, "a timeout is a failure, not a run");
      assert.match(typeof result === "object" ? result.output : "", /^Timed out after 0 s; the command and its child processes were killed\./);
    });
  });

  describe("environment", () => {
    const key = "sk-relay-test-9d8c7b6a5f4e3d2c1b0a";
    const environment = {
      PATH: process.env.PATH,
      HOME: "/home/someone",
      LANG: "C.UTF-8",
      RELAY_CHAT_API_KEY: key,
      GITHUB_TOKEN: "ghp_aaaaaaaaaaaaaaaaaaaa",
      npm_config__authToken: "npm_bbbbbbbbbbbbbbbbbbbb",
      AWS_SECRET_ACCESS_KEY: "cccccccccccccccccccc",
      DB_PASSWORD: "hunter2",
      DATABASE_URL: "postgres://app:s3cret@db.example:5432/app",
      COPY_OF_THE_KEY: key,
      NPM_TOKEN: "npm_allowed_by_the_user",
      PLAIN_SETTING: "visible",
    };

    it("leaves out the relay key and secret-looking variables unless allowed by name", async () => {
      const tool = createRunCommandTool(
        { workspaceFolders: () => [workspace] },
        {
          timeoutMs: () => 10_000,
          maxOutputChars: () => 100_000,
          baseEnvironment: () => environment,
          secrets: () => [key],
          // Allowing the relay key's own name changes nothing: it never reaches a command.
          allowedEnvironmentNames: () => ["NPM_TOKEN", "RELAY_CHAT_API_KEY"],
        },
      );
      const output = String(await tool.run({ command: "env" }, new AbortController().signal));
      const names = output.split("\n").slice(1).map((line) => line.split("=")[0]);
      for (const hidden of ["RELAY_CHAT_API_KEY", "GITHUB_TOKEN", "npm_config__authToken", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "DATABASE_URL", "COPY_OF_THE_KEY"]) {
        assert.equal(names.includes(hidden), false, `${hidden} is not passed`);
      }
      for (const kept of ["PATH", "HOME", "LANG", "NPM_TOKEN", "PLAIN_SETTING"]) assert.equal(names.includes(kept), true, `${kept} is passed`);
      assert.equal(output.includes(key), false);
    });

    it("leaves out the editor's own RELAY_CHAT_API_KEY by default, and names what was held back when a command fails", async () => {
      const saved = process.env.RELAY_CHAT_API_KEY;
      process.env.RELAY_CHAT_API_KEY = key;
      try {
        const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, { timeoutMs: () => 10_000, maxOutputChars: () => 100_000 });
        const output = String(await tool.run({ command: 'echo "key=[$RELAY_CHAT_API_KEY]"; exit 1' }, new AbortController().signal));
        assert.match(output, /^Exit code: 1\nkey=\[\]\n/);
        assert.match(output, /not passed because they look like credentials: .*RELAY_CHAT_API_KEY/);
      } finally {
        if (saved === undefined) delete process.env.RELAY_CHAT_API_KEY;
        else process.env.RELAY_CHAT_API_KEY = saved;
      }
    });
  });

  describe("when the extension shuts down", () => {
    it("kills every command still running, with the processes they started", async () => {
      const running = new RunningCommands();
      const tool = createRunCommandTool({ workspaceFolders: () => [workspace] }, { timeoutMs: () => 60_000, maxOutputChars: () => 1000 }, running);
      const pidFile = path.join(sandbox, "pids");
      const marker = path.join(sandbox, "survived");
      const pending = tool.run({ command: `sleep 30 & echo $! > ${JSON.stringify(pidFile)}; (sleep 1.5 && touch ${JSON.stringify(marker)}) & wait` }, new AbortController().signal);
      const pid = await waitForNumberIn(pidFile);
      assert.equal(running.count, 1);
      running.dispose();
      const result = await pending;
      assert.match(typeof result === "object" ? result.output : result, /^Stopped because Relay Chat was shutting down/);
      assert.equal(running.count, 0);
      // Killed is not yet gone: the kernel ends a killed process when it gets round to it, later on a loaded machine.
      await waitUntilDead([pid], "the background sleep was killed with its shell");
      await waitUntilNoProcessMentions(marker, "the subshell that would write the marker was killed");
      assert.equal(await fs.stat(marker).then(() => true, () => false), false, "no child outlived the shutdown");
    });
  });
});
