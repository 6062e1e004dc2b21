import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";

// The CLI as a user runs it: a separate process, the key only in the environment.

const cliEntry = path.resolve(__dirname, "../../src/cli/main.ts");
const KEY = "sk-cli-test-key-0123456789abcdef";

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  firstStdoutAt: number | null;
  endedAt: number;
}

function runCli(args: string[], environment: Record<string, string | undefined>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--require", "tsx/cjs", cliEntry, ...args], {
      env: { PATH: process.env.PATH, ...environment },
      cwd: path.resolve(__dirname, "../.."),
    });
    let stdout = "";
    let stderr = "";
    let firstStdoutAt: number | null = null;
    child.stdout.on("data", (chunk: Buffer) => {
      firstStdoutAt ??= Date.now();
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr, firstStdoutAt, endedAt: Date.now() }));
  });
}

describe("CLI", function () {
  this.timeout(60_000);
  let emulator: RelayEmulator;
  before(async () => {
    emulator = await startRelayEmulator({ keys: [{ key: KEY, name: "cli" }] });
  });
  after(async () => emulator.close());

  const environment = () => ({ RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: emulator.baseUrl });

  it("ask --json prints exactly one JSON object and exits 0 on completed", async () => {
    const run = await runCli(["ask", "--model", "echo", "--json", "hello", "cli"], environment());
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.equal(lines.length, 1);
    const parsed = JSON.parse(lines[0]) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed).sort(), ["functionCalls", "httpStatus", "message", "outcome", "outputTypes", "reason", "requestId", "responseId", "status", "text", "usage"].sort());
    assert.equal(parsed.outcome, "completed");
    assert.equal(parsed.status, "completed");
    assert.match(parsed.text as string, /hello cli/);
    assert.deepEqual(parsed.outputTypes, ["message"]);
    assert.equal(parsed.requestId, emulator.received[emulator.received.length - 1].requestId);
    assert.equal(parsed.httpStatus, 200);
  });

  it("ask --json reports function calls and exits 1 when not completed", async () => {
    const calls = await runCli(["ask", "--model", "tools", "--json", "weather"], environment());
    assert.equal(calls.code, 0);
    assert.deepEqual((JSON.parse(calls.stdout) as { outputTypes: string[] }).outputTypes.length > 0, true);
    const incomplete = await runCli(["ask", "--model", "echo", "--json", "--max-output-tokens", "16", "word ".repeat(40)], environment());
    assert.equal(incomplete.code, 1);
    const parsed = JSON.parse(incomplete.stdout) as Record<string, unknown>;
    assert.deepEqual([parsed.outcome, parsed.status, parsed.reason], ["incomplete", "incomplete", "max_output_tokens"]);
    assert.ok((parsed.text as string).length > 0, "the partial text");
  });

  it("ask streams the answer to stdout as it arrives and writes a receipt to stderr", async () => {
    emulator.queueFault({ kind: "drip", intervalMs: 40 });
    const run = await runCli(["ask", "--model", "echo", "one two three four five six seven eight"], environment());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /one two three four five six seven eight/);
    assert.ok(run.firstStdoutAt !== null && run.endedAt - run.firstStdoutAt > 150, "text arrived well before the end, unbuffered");
    assert.match(run.stderr, /^completed · input \d+ \(cached \d+\) · output \d+ \(reasoning \d+\) tokens · [\d.]+ s · request id req_/m);
  });

  it("ask --no-stream works and a failure explains itself with the request id, never the key", async () => {
    const plain = await runCli(["ask", "--model", "echo", "--no-stream", "quiet"], environment());
    assert.equal(plain.code, 0);
    assert.match(plain.stdout, /quiet/);
    const wrongKey = await runCli(["ask", "--model", "echo", "hi"], { ...environment(), RELAY_CHAT_API_KEY: "sk-wrong-but-long-enough-key" });
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /API key/);
    assert.match(wrongKey.stderr, /request id req_/);
    assert.equal(`${wrongKey.stdout}${wrongKey.stderr}`.includes("sk-wrong-but-long-enough-key"), false);
  });

  it("refuses a key flag and explains missing configuration", async () => {
    const keyFlag = await runCli(["ask", "--model", "echo", "--api-key", KEY, "hi"], environment());
    assert.equal(keyFlag.code, 2);
    assert.equal(keyFlag.stderr.includes(KEY), false);
    const noKey = await runCli(["ask", "--model", "echo", "hi"], { RELAY_CHAT_BASE_URL: emulator.baseUrl });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /RELAY_CHAT_API_KEY/);
    const noBase = await runCli(["ask", "--model", "echo", "hi"], { RELAY_CHAT_API_KEY: KEY });
    assert.equal(noBase.code, 2);
    assert.match(noBase.stderr, /--base-url/);
  });

  it("models lists the models for the key, as text and JSON", async () => {
    const text = await runCli(["models", "--base-url", `${emulator.baseUrl}/v1/`], { RELAY_CHAT_API_KEY: KEY });
    assert.equal(text.code, 0);
    assert.ok(text.stdout.split("\n").includes("echo"));
    const json = await runCli(["models", "--json"], environment());
    assert.ok((JSON.parse(json.stdout) as { models: string[] }).models.includes("tools"));
  });

  it("check reports each step and flags a doubled /v1", async () => {
    const healthy = await runCli(["check", "--model", "echo"], environment());
    assert.equal(healthy.code, 0, healthy.stdout);
    assert.match(healthy.stdout, /ok +Terminal event/);
    assert.match(healthy.stdout, /ok +Request id header/);
    const doubled = await runCli(["check", "--model", "echo", "--base-url", `${emulator.baseUrl}/v1/v1`], { RELAY_CHAT_API_KEY: KEY });
    assert.match(doubled.stdout, /warn +Base URL: .*\/v1 2 times/);
    emulator.queueFault({ kind: "disconnect", afterBytes: 600 });
    const cut = await runCli(["check", "--model", "echo"], environment());
    assert.equal(cut.code, 1);
    assert.match(cut.stdout, /FAIL +Terminal event/);
    const missingModel = await runCli(["check", "--model", "no-such-model"], environment());
    assert.equal(missingModel.code, 1);
    assert.match(missingModel.stdout, /FAIL +Model available/);
  });
});
