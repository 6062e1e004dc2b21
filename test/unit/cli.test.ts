import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";
import { CLI_WORDING } from "../../src/cli/cliWording";

// The CLI as a user runs it: a separate process, the key only in the environment.

const KEY = "sk-cli-test-key-0123456789abcdef";

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
    assert.deepEqual(
      Object.keys(parsed).sort(),
      ["cost", "functionCalls", "httpStatus", "instructionSources", "message", "omittedStreamedItems", "outcome", "outputTypes", "partial", "protocol", "reason", "refusal", "requestId", "requestIds", "responseId", "retryAfterSeconds", "sentWith", "status", "text", "unreadableEvents", "usage"].sort(),
    );
    assert.equal(parsed.partial, false);
    assert.equal(parsed.outcome, "completed");
    assert.equal(parsed.status, "completed");
    assert.match(parsed.text as string, /hello cli/);
    assert.deepEqual(parsed.outputTypes, ["message"]);
    assert.equal(parsed.requestId, emulator.received.filter((request) => request.method === "POST").at(-1)?.requestId);
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

  it("ask --json and the receipt show a refusal, events that could not be read, and the Retry-After of a 429", async () => {
    const frame = (event: Record<string, unknown>) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
    const refusal = [
      frame({ type: "response.refusal.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "I can't help with that." }),
      'data: {"type":"response.output_text.delta","delta":"lost\n\n',
      frame({ type: "response.completed", response: { id: "resp_r", status: "completed", output: [{ id: "msg_1", type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] }] } }),
    ].join("");
    emulator.queueReplay(refusal);
    const json = JSON.parse((await runCli(["ask", "--model", "echo", "--json", "refuse"], environment())).stdout) as Record<string, unknown>;
    assert.deepEqual([json.outcome, json.text, json.refusal, json.unreadableEvents, json.retryAfterSeconds], ["completed", "", "I can't help with that.", 1, null]);
    emulator.queueReplay(refusal);
    const text = await runCli(["ask", "--model", "echo", "refuse"], environment());
    assert.match(text.stdout, /^refused: I can't help with that\.$/m);
    assert.match(text.stderr, /1 event could not be read: the answer may be missing text/);
    emulator.queueFault({ kind: "status", status: 429, retryAfterSeconds: 20 });
    const limited = await runCli(["ask", "--model", "echo", "--json", "busy"], environment());
    const limitedJson = JSON.parse(limited.stdout) as Record<string, unknown>;
    assert.deepEqual([limitedJson.outcome, limitedJson.httpStatus, limitedJson.retryAfterSeconds], ["http_error", 429, 20]);
    assert.match(limitedJson.message as string, /wait 20 s before sending again/);
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

  it("ask --json: partial text before an error is kept and marked partial", async () => {
    emulator.queueFault({ kind: "error_event", code: "server_error", message: "upstream broke" });
    const run = await runCli(["ask", "--model", "echo", "--json", "partial answer please"], environment());
    assert.equal(run.code, 1);
    const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(parsed.outcome, "error_event");
    assert.equal(parsed.partial, true);
    assert.equal(parsed.text, "You said:", "the two deltas that arrived before the error");
    emulator.queueFault({ kind: "error_event", code: "server_error", message: "upstream broke" });
    const printed = await runCli(["ask", "--model", "echo", "partial answer please"], environment());
    assert.equal(printed.code, 1);
    assert.equal(printed.stdout, "You said:\n");
    assert.match(printed.stderr, /partial answer: the text above is what arrived before it stopped/);
    assert.match(printed.stderr, /error \(server_error\) · usage not reported/);
  });

  it("ask --json through a translating gateway: usage is null (not reported) with the relay's raw figures in reportedUsage; --header is sent", async () => {
    const gateway = await startRelayEmulator({ profile: "translated", keys: [{ key: KEY, name: "cli" }] });
    try {
      const run = await runCli(["ask", "--model", "echo", "--json", "--header", "x-portkey-provider: together-ai", "hello gateway"], { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: gateway.baseUrl });
      assert.equal(run.code, 0, run.stderr);
      const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.equal(parsed.usage, null);
      assert.deepEqual((parsed.reportedUsage as { total_tokens: number }).total_tokens, 0);
      assert.equal(parsed.text, "You said: hello gateway");
      assert.equal(gateway.received[gateway.received.length - 1].headers["x-portkey-provider"], "together-ai");
      const text = await runCli(["ask", "--model", "echo", "hello gateway"], { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: gateway.baseUrl });
      assert.match(text.stderr, /^completed · usage not reported \(the relay sent zeros\)/m);
      // Built at run time so the source holds nothing shaped like a real key (secret scanners read it).
      const fakeKey = ["sk", "fake", "abcdefghijklmnop0123"].join("-");
      const secret = await runCli(["ask", "--model", "echo", "--header", `x-api-key: ${fakeKey}`, "hi"], { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: gateway.baseUrl });
      assert.equal(secret.code, 2);
      assert.match(secret.stderr, /"x-api-key" is refused/);
      assert.equal(secret.stderr.includes(fakeKey), false);
    } finally {
      await gateway.close();
    }
  });

  it("check says first that it sends small, possibly billed requests, and reports each step", async () => {
    const healthy = await runCli(["check", "--model", "echo"], environment());
    assert.equal(healthy.code, 0, healthy.stdout);
    assert.match(healthy.stdout.split("\n")[0], /sends a model list request and three small requests .* may bill each of them/);
    for (const step of ["Streamed request", "Final event", "Usage reported", "Request id header", "Function call, streamed", "Function call, not streamed", "Function calls"]) {
      assert.match(healthy.stdout, new RegExp(`^ok +${step}:`, "m"), step);
    }
    const doubled = await runCli(["check", "--model", "echo", "--base-url", `${emulator.baseUrl}/v1/v1`], { RELAY_CHAT_API_KEY: KEY });
    assert.match(doubled.stdout, /warn +Base URL: .*\/v1 2 times/);
    // The reasoning model takes the check's reasoning effort, so each step is one POST and meets its fault.
    emulator.queueFault({ kind: "disconnect", afterBytes: 600 });
    const cut = await runCli(["check", "--model", "reasoning"], environment());
    assert.equal(cut.code, 1);
    assert.match(cut.stdout, /FAIL +Final event/);
    const missingModel = await runCli(["check", "--model", "no-such-model"], environment());
    assert.equal(missingModel.code, 1);
    assert.match(missingModel.stdout, /FAIL +Model available/);
  });

  it("check: an answer cut at the check's own budget is a warning about the budget, and exits 0; another incomplete is not ok", async () => {
    emulator.queueJsonBody({ id: "resp_x", object: "response", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, model: "echo", output: [], usage: { input_tokens: 5, output_tokens: 1024 } });
    const budget = await runCli(["check", "--model", "reasoning"], environment());
    assert.equal(budget.code, 0, budget.stdout);
    assert.match(budget.stdout, /^warn +Streamed request: The stream ended properly \(incomplete: max_output_tokens\), but the check's budget of 1024 output tokens was too small for this model/m);
    assert.doesNotMatch(budget.stdout, /Continue/);
    assert.match(budget.stdout, /The relay looks usable/);
    emulator.queueJsonBody({ id: "resp_y", object: "response", status: "incomplete", incomplete_details: { reason: "content_filter" }, model: "echo", output: [], usage: { input_tokens: 5, output_tokens: 3 } });
    const filtered = await runCli(["check", "--model", "reasoning"], environment());
    assert.equal(filtered.code, 1);
    assert.match(filtered.stdout, /^FAIL +Streamed request: incomplete/m);
    assert.match(filtered.stdout, /The relay check failed/);
  });

  it("check exits 0 on the demo relay's model and for a reasoning model that spends more than a short budget on reasoning", async () => {
    for (const model of ["demo", "thinker"]) {
      const run = await runCli(["check", "--model", model], environment());
      assert.equal(run.code, 0, run.stdout);
      assert.match(run.stdout, /^ok +Streamed request: Completed/m);
    }
  });

  it("check: after an HTTP failure the later steps are skipped, with the reason, and nothing more is sent", async () => {
    const postsBefore = emulator.postCount();
    emulator.queueFault({ kind: "status", status: 401, code: "invalid_api_key" });
    const run = await runCli(["check", "--model", "reasoning"], environment());
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^FAIL +Streamed request: http_error/m);
    for (const step of ["Final event", "Usage reported", "Request id header", "Function call, streamed", "Function call, not streamed", "Function calls"]) {
      assert.match(run.stdout, new RegExp(`^skip +${step}: Skipped: the streamed request failed \\(http_error 401\\)`, "m"), step);
    }
    assert.equal(emulator.postCount() - postsBefore, 1, "one billed request, not four");
    const wrongKey = await runCli(["check", "--model", "echo"], { ...environment(), RELAY_CHAT_API_KEY: "sk-wrong-but-long-enough-key" });
    assert.match(wrongKey.stdout, /^FAIL +Models listed/m);
    assert.match(wrongKey.stdout, /^skip +Streamed request: Skipped: the model list request failed with HTTP 401/m);
  });

  it("check: says so when only non-streamed function calls arrive intact, and suggests turning streaming off", async () => {
    emulator.queueFault({ kind: "none" });
    emulator.queueFault({ kind: "garble_streamed_calls" });
    const run = await runCli(["check", "--model", "reasoning"], environment());
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^warn +Function call, streamed: The call's arguments are not valid JSON/m);
    assert.match(run.stdout, /^ok +Function call, not streamed/m);
    assert.match(run.stdout, /^FAIL +Function calls: Only non-streamed function calls arrive intact through this relay: use ask --no-stream with it/m);
    assert.doesNotMatch(run.stdout, /relayChat\./);
  });

  it("every command prints its help with --help or -h, and exits 0", async () => {
    const helps: Array<[string[], RegExp]> = [[["ask", "--help"], /^Usage: relay-chat ask /], [["models", "--help"], /^Usage: relay-chat models/], [["check", "-h"], /^Usage: relay-chat check /], [["--help"], /^Usage:\n {2}relay-chat ask /]];
    for (const [args, usage] of helps) {
      const run = await runCli(args, {});
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stdout, usage, args.join(" "));
      assert.equal(run.stderr, "");
    }
  });

  it("speaks of CLI options and environment variables, not of VS Code commands, settings or a Continue button", async () => {
    const wrongKey = await runCli(["ask", "--model", "echo", "hi"], { ...environment(), RELAY_CHAT_API_KEY: "sk-wrong-key-0123456789abcdef" });
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /RELAY_CHAT_API_KEY/);
    const cut = await runCli(["ask", "--model", "demo", "--max-output-tokens", "16", "Write something long"], environment());
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /larger --max-output-tokens/);
    const unknownModel = await runCli(["ask", "--model", "no-such-model", "hi"], environment());
    assert.match(unknownModel.stderr, /--model/);
    for (const run of [wrongKey, cut, unknownModel]) assert.doesNotMatch(run.stderr, /Relay Chat:|Continue|relayChat\.|setting/);
  });

  it("has a CLI wording for messages that are still in the English bundle (a reworded message needs its CLI wording again)", () => {
    const bundle = JSON.parse(readFileSync(path.resolve(__dirname, "../../l10n/bundle.l10n.json"), "utf8")) as Record<string, string>;
    for (const english of Object.keys(CLI_WORDING)) assert.ok(english in bundle, `still a message: ${english}`);
  });
});
