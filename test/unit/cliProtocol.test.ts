import assert from "node:assert/strict";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";

// `ask --protocol chat`: a model the relay serves only over Chat Completions answers from the command line too.

const KEY = "sk-cli-protocol-key-0123456789abcdef";

describe("CLI: ask --protocol", function () {
  this.timeout(60_000);
  let emulator: RelayEmulator;
  before(async () => {
    emulator = await startRelayEmulator({ profile: "split", keys: [{ key: KEY, name: "cli" }] });
  });
  after(async () => emulator.close());

  const environment = () => ({ RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: emulator.baseUrl });
  const posts = () => emulator.received.filter((request) => request.method === "POST");

  it("sends a chat-only model's prompt to /v1/chat/completions and prints its answer and receipt", async () => {
    const before = posts().length;
    const run = await runCli(["ask", "--model", "qwen-chat", "--protocol", "chat", "hello", "chat"], environment());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /You said: hello chat/);
    assert.match(run.stderr, /completed · input \d+ .* · Chat Completions/);
    assert.deepEqual(posts().slice(before).map((request) => request.path), ["/v1/chat/completions"]);
  });

  it("--json says which wire it used; without --protocol the same model fails the way the relay refuses Responses", async () => {
    const chat = JSON.parse((await runCli(["ask", "--model", "deepseek-chat", "--protocol", "chat", "--json", "hi"], environment())).stdout) as Record<string, unknown>;
    assert.equal(chat.outcome, "completed");
    assert.equal(chat.protocol, "chat");
    assert.ok(chat.usage !== null);
    const responses = await runCli(["ask", "--model", "deepseek-chat", "--json", "hi"], environment());
    assert.equal(responses.code, 1);
    const parsed = JSON.parse(responses.stdout) as Record<string, unknown>;
    assert.equal(parsed.protocol, "responses");
    assert.equal(parsed.httpStatus, 500);
    assert.equal(parsed.reason, "convert_request_failed");
  });

  it("check finds a chat-only model from the relay's list and checks it over Chat Completions; --protocol chat checks over it directly", async () => {
    const found = await runCli(["check", "--model", "claude-chat"], environment());
    assert.equal(found.code, 0, found.stdout + found.stderr);
    assert.match(found.stdout, /warn  Interface: The relay lists "claude-chat" for Chat Completions only/);
    const before = posts().length;
    const set = await runCli(["check", "--model", "claude-chat", "--protocol", "chat"], environment());
    assert.equal(set.code, 0, set.stdout + set.stderr);
    assert.doesNotMatch(set.stdout, /Interface:/);
    assert.deepEqual([...new Set(posts().slice(before).map((request) => request.path))], ["/v1/chat/completions"]);
  });

  it("refuses an unknown --protocol with a clear message, sending nothing", async () => {
    const before = posts().length;
    const run = await runCli(["ask", "--model", "echo", "--protocol", "completions", "hi"], environment());
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--protocol takes chat or responses/);
    assert.equal(posts().length, before);
  });
});
