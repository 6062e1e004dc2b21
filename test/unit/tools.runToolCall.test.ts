import assert from "node:assert/strict";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { truncateOutput } from "../../src/tools/outputTruncation";
import type { PreparedCall, ReadyCall } from "../../src/tools/preparedCall";
import { runToolCall } from "../../src/tools/runToolCall";
import { redactToolOutput } from "../../src/tools/toolOutputRedaction";
import type { Tool } from "../../src/tools/toolContract";

function toolThat(run: Tool["run"], risk: Tool["risk"] = "read"): Tool {
  return { name: "probe", description: "probe", risk, parameters: { type: "object" }, run };
}

function ready(target: Tool, args: ReadyCall["args"] = { path: "a" }): ReadyCall {
  return { status: "ready", call_id: "call_7", tool: target, args };
}

/** The function_call_output alone, for the tests about what the model is told. */
async function outputItemOf(...args: Parameters<typeof runToolCall>) {
  return (await runToolCall(...args)).output;
}

const approveAll = async (): Promise<ApprovalAnswer> => "approve";
const options = (signal = new AbortController().signal, maxResultChars = 20_000) => ({ signal, maxResultChars });

describe("tools: runToolCall", () => {
  it("runs an approved call with the validated arguments and returns the function_call_output item", async () => {
    let received: unknown;
    const item = await outputItemOf(
      ready(toolThat(async (args) => {
        received = args;
        return "contents";
      })),
      approveAll,
      options(),
    );
    assert.deepEqual(item, { type: "function_call_output", call_id: "call_7", output: "contents" });
    assert.deepEqual(received, { path: "a" });
  });

  it("returns a rejected call's problem without asking or running", async () => {
    const rejected: PreparedCall = { status: "rejected", call_id: "call_3", name: "nope", problem: "Error: no tool named nope", reason: "unavailable" };
    const item = await outputItemOf(rejected, async () => assert.fail("must not ask"), options());
    assert.deepEqual(item, { type: "function_call_output", call_id: "call_3", output: "Error: no tool named nope" });
  });

  it("does not run a denied call and tells the model the user declined", async () => {
    let ran = false;
    const item = await outputItemOf(ready(toolThat(async () => ((ran = true), "x"))), async () => "deny", options());
    assert.equal(ran, false);
    assert.match(item.output, /user declined to run "probe"/);
    assert.match(item.output, /was not run/);
  });

  it("asks with the prepared call itself, and treats allow_session as approval", async () => {
    const call = ready(toolThat(async () => "done"));
    let askedWith: ReadyCall | undefined;
    const item = await outputItemOf(call, async (asked) => ((askedWith = asked), "allow_session"), options());
    assert.equal(askedWith, call);
    assert.equal(item.output, "done");
  });

  it("turns a thrown error into readable error text instead of throwing", async () => {
    const item = await outputItemOf(ready(toolThat(async () => Promise.reject(new Error("disk on fire")))), approveAll, options());
    assert.equal(item.output, "Error: disk on fire");
    const nonError = await outputItemOf(ready(toolThat(async () => Promise.reject("plain string"))), approveAll, options());
    assert.equal(nonError.output, "Error: plain string");
  });

  it("prefixes a ToolRunResult marked as error, once", async () => {
    const item = await outputItemOf(ready(toolThat(async () => ({ output: "no such file", isError: true }))), approveAll, options());
    assert.equal(item.output, "Error: no such file");
    const already = await outputItemOf(ready(toolThat(async () => ({ output: "Error: x", isError: true }))), approveAll, options());
    assert.equal(already.output, "Error: x");
    const fine = await outputItemOf(ready(toolThat(async () => ({ output: "ok" }))), approveAll, options());
    assert.equal(fine.output, "ok");
  });

  it("reports a failing approval step as not run", async () => {
    let ran = false;
    const item = await outputItemOf(ready(toolThat(async () => ((ran = true), "x"))), async () => Promise.reject(new Error("panel closed")), options());
    assert.equal(ran, false);
    assert.match(item.output, /^Error: .*not run.*panel closed/);
  });

  it("cuts long output with a visible marker naming both counts", async () => {
    const long = "x".repeat(45_678);
    const item = await outputItemOf(ready(toolThat(async () => long)), approveAll, options(undefined, 12_345));
    assert.equal(item.output, `${"x".repeat(12_345)}\n[... output truncated: 12345 of 45678 characters shown]`);
  });

  it("leaves output at exactly the limit alone", async () => {
    const item = await outputItemOf(ready(toolThat(async () => "y".repeat(100))), approveAll, options(undefined, 100));
    assert.equal(item.output, "y".repeat(100));
  });

  it("returns cancelled text when aborted while the tool runs, without waiting for it", async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const hanging = toolThat(
      (_args, signal) =>
        new Promise(() => {
          signal.addEventListener("abort", () => (toolSawAbort = true));
        }),
    );
    const pending = outputItemOf(ready(hanging), approveAll, options(controller.signal));
    setTimeout(() => controller.abort(), 10);
    const item = await pending;
    assert.match(item.output, /cancelled by the user while it was running/);
    assert.equal(toolSawAbort, true, "the tool receives the same signal");
  });

  it("returns cancelled text when aborted while waiting for approval, and never runs", async () => {
    const controller = new AbortController();
    let ran = false;
    const pending = outputItemOf(ready(toolThat(async () => ((ran = true), "x"))), () => new Promise(() => undefined), options(controller.signal));
    setTimeout(() => controller.abort(), 10);
    const item = await pending;
    assert.match(item.output, /cancelled by the user before it ran/);
    assert.equal(ran, false);
  });

  it("does not ask at all when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const item = await outputItemOf(ready(toolThat(async () => "x")), async () => assert.fail("must not ask"), options(controller.signal));
    assert.match(item.output, /cancelled/);
  });

  it("says so when a tool produced nothing", async () => {
    const item = await outputItemOf(ready(toolThat(async () => "")), approveAll, options());
    assert.equal(item.output, "(the tool produced no output)");
  });
});

describe("tools: what happened to a call", () => {
  const outcomeOf = async (...args: Parameters<typeof runToolCall>) => (await runToolCall(...args)).outcome;

  it("says ran only for a call that ran and succeeded", async () => {
    assert.equal(await outcomeOf(ready(toolThat(async () => "fine")), approveAll, options()), "ran");
    assert.equal(await outcomeOf(ready(toolThat(async () => ({ output: "fine" }))), approveAll, options()), "ran");
  });

  it("says denied when the user denies the call, or turns down what it proposed", async () => {
    assert.equal(await outcomeOf(ready(toolThat(async () => "x")), async () => "deny", options()), "denied");
    assert.equal(await outcomeOf(ready(toolThat(async () => ({ output: "The user rejected the edit", declined: true }))), approveAll, options()), "denied");
  });

  it("says failed for an error result, a throw, or a failed approval step", async () => {
    assert.equal(await outcomeOf(ready(toolThat(async () => ({ output: "no such file", isError: true }))), approveAll, options()), "failed");
    assert.equal(await outcomeOf(ready(toolThat(async () => Promise.reject(new Error("boom")))), approveAll, options()), "failed");
    assert.equal(await outcomeOf(ready(toolThat(async () => "x")), async () => Promise.reject(new Error("panel closed")), options()), "failed");
  });

  it("says why a call was not run: its arguments, or the tool not being available", async () => {
    const invalid: PreparedCall = { status: "rejected", call_id: "c", name: "probe", problem: "Error: bad", reason: "invalid_arguments" };
    const unavailable: PreparedCall = { status: "rejected", call_id: "c", name: "nope", problem: "Error: no tool", reason: "unavailable" };
    assert.equal(await outcomeOf(invalid, approveAll, options()), "invalid_arguments");
    assert.equal(await outcomeOf(unavailable, approveAll, options()), "unavailable");
  });

  it("says stopped before or while running when the turn is cancelled", async () => {
    const before = new AbortController();
    before.abort();
    assert.equal(await outcomeOf(ready(toolThat(async () => "x")), approveAll, options(before.signal)), "stopped");
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 10);
    assert.equal(await outcomeOf(ready(toolThat(async () => "x")), () => new Promise(() => undefined), options(waiting.signal)), "stopped");
    const running = new AbortController();
    setTimeout(() => running.abort(), 10);
    assert.equal(await outcomeOf(ready(toolThat(() => new Promise(() => undefined))), approveAll, options(running.signal)), "stopped_while_running");
  });
});

describe("tools: results are redacted of the key", () => {
  const key = "sk-live-7Qm2ZrT9xW4pL8vN3bK6yH1dF5sJ0aCe";
  const redact = (text: string) => redactToolOutput(text, [key]);

  it("removes the key from results, error results and thrown errors before anything sees them", async () => {
    const result = await runToolCall(ready(toolThat(async () => `RELAY_CHAT_API_KEY=${key}\nPATH=/usr/bin`)), approveAll, { ...options(), redact });
    assert.equal(result.output.output, "RELAY_CHAT_API_KEY=[REDACTED]\nPATH=/usr/bin");
    const failed = await runToolCall(ready(toolThat(async () => Promise.reject(new Error(`bad token ${key}`)))), approveAll, { ...options(), redact });
    assert.equal(failed.output.output, "Error: bad token [REDACTED]");
  });

  it("leaves no piece of the key where a cut falls inside it", async () => {
    const text = `${"x".repeat(95)} ${key} tail`;
    const result = await runToolCall(ready(toolThat(async () => text)), approveAll, { ...options(undefined, 110), redact });
    assert.doesNotMatch(result.output.output, /7Qm2ZrT9xW4p/);
    // What a tool may cut itself (shortened search lines, head and tail of command output) is caught too.
    assert.equal(redactToolOutput(`line: ${key.slice(0, 20)}…`, [key]), "line: [REDACTED]…");
    assert.equal(redactToolOutput(`[... omitted]\n${key.slice(15)} end`, [key]), "[... omitted]\n[REDACTED] end");
  });

  it("keeps ordinary text, and short pieces that merely share characters with the key", () => {
    const text = "sk-live is the prefix; const token = process.env.TOKEN_NAME_FOR_TESTS;";
    assert.equal(redactToolOutput(text, [key]), text);
    assert.equal(redactToolOutput(text, [null, undefined, "abc"]), text);
  });
});

describe("tools: truncateOutput", () => {
  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(9)}😀${"b".repeat(10)}`;
    const result = truncateOutput(text, 10);
    assert.equal(result.truncated, true);
    assert.ok(result.text.startsWith(`${"a".repeat(9)}\n[... output truncated: 9 of ${text.length}`));
  });
});
