import assert from "node:assert/strict";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";

// `ask --protocol chat`: a model the relay serves only over Chat Completions answers from the command line too; a
// model refused that way without the flag says to use it, and so does `check`.

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

  it("--json says which wire it used; without --protocol the same model fails the way the relay refuses Responses, and says to use --protocol chat", async () => {
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
    assert.match(String(parsed.message), /ask again with --protocol chat/);
  });

  for (const model of ["deepseek-chat", "claude-chat", "qwen-chat", "gemini-chat"]) {
    it(`ask --model ${model} refused as having no Responses interface says to use --protocol chat, and sends nothing more`, async () => {
      const before = posts().length;
      const run = await runCli(["ask", "--model", model, "hi"], environment());
      assert.equal(run.code, 1);
      assert.match(run.stderr, /ask again with --protocol chat/);
      assert.deepEqual(posts().slice(before).map((request) => request.path), ["/v1/responses"]);
    });
  }

  it("another failure (a model that is not there) does not suggest --protocol chat", async () => {
    const run = await runCli(["ask", "--model", "no-such-model", "hi"], environment());
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.stderr, /--protocol chat/);
  });

  it("check finds a chat-only model by its refusal (new-api lists it like any other) and says the flag; --protocol chat checks over it directly", async () => {
    const found = await runCli(["check", "--model", "claude-chat"], environment());
    assert.equal(found.code, 0, found.stdout + found.stderr);
    assert.match(found.stdout, /warn {2}Streamed request: Refused over the Responses interface/);
    assert.match(found.stdout, /ok {4}Chat Completions: .*needs Chat Completions on this relay\. Use ask --protocol chat with it\./);
    assert.match(found.stdout, /skip {2}Final event: Skipped: the model answers on Chat Completions only; run check --protocol chat to check the rest over it/);
    assert.doesNotMatch(found.stdout, /Interface:/, "the relay's list is no finding");
    const before = posts().length;
    const set = await runCli(["check", "--model", "claude-chat", "--protocol", "chat"], environment());
    assert.equal(set.code, 0, set.stdout + set.stderr);
    assert.doesNotMatch(set.stdout, /Chat Completions:/);
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
