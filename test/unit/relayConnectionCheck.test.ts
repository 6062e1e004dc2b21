import assert from "node:assert/strict";
import { checkConnection } from "../../src/relay/connectionCheck";
import type { ConnectionReport } from "../../src/relay/connectionCheck";
import { connectionReportLines, connectionReportMarkdown } from "../../src/relay/connectionReport";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import { englishText } from "../../src/chat/outcomeLabel";
import { EMULATOR_PROFILES } from "../emulator/profiles";
import type { RelayEmulator } from "../emulator/server";
import { emulatorWithClient } from "../support/emulatorClient";

// Issue 19 §3: a check-up that cannot fail falsely. Its own requests must be able to finish on any model,
// on every kind of relay; a reasoning model's answer cut by the check's own budget is a warning about the
// budget, never a failed relay; a report never offers Continue.

/** The check's own output budget (src/relay/connectionCheck.ts). */
const CHECK_OUTPUT_BUDGET = 1024;

function reportText(report: ConnectionReport): string {
  return [...connectionReportLines(report), connectionReportMarkdown(report, { relay: "r", model: "m", keySource: "k", checkedAt: new Date(0) }, englishText)].join("\n");
}

function sentEfforts(emulator: RelayEmulator, from: number): Array<string | null> {
  return emulator.received
    .slice(from)
    .filter((request) => request.method === "POST")
    .map((request) => ((request.body as { reasoning?: { effort?: string } } | undefined)?.reasoning?.effort ?? null));
}

for (const profile of EMULATOR_PROFILES) {
  describe(`connection check against the ${profile} profile`, () => {
    const relay = emulatorWithClient({ profile });

    for (const model of ["echo", "demo", "reasoning", "thinker"]) {
      it(`passes with the ${model} model, with no step failed and no advice to Continue`, async () => {
        const report = await checkConnection(relay.client(), model);
        const text = reportText(report);
        assert.equal(report.ok, true, text);
        assert.deepEqual(report.steps.filter((step) => step.status === "failed"), [], text);
        assert.equal(report.steps.find((step) => step.name === "Streamed request")?.status, "ok", text);
        assert.doesNotMatch(text, /Continue/);
      });
    }
  });
}

describe("connection check: reasoning effort and the check's own budget", () => {
  const relay = emulatorWithClient();
  const emulator = () => relay.emulator();
  const client = () => relay.client();

  it("the reasoning model spends more than the old 64-token budget on reasoning alone (the failure this fixes)", async () => {
    const result = await client().send(buildResponseRequest({ model: "thinker", input: [userMessage("Reply with the single word OK.")], maxOutputTokens: 64, stream: true }));
    assert.deepEqual(result.outcome, { kind: "incomplete", reason: "max_output_tokens" });
  });

  it("asks for the lowest effort each model takes: the spec's none, else the lowest the relay names, else none at all", async () => {
    const cases: Array<[string, Array<string | null>]> = [
      // A reasoning model that takes "none".
      ["reasoning", ["none", "none", "none"]],
      // A model that takes nothing below "low": the 400 lists the supported values; the choice holds after.
      ["thinker", ["none", "low", "low", "low"]],
      // A model without reasoning: the 400 about the parameter means it is left out.
      ["echo", ["none", null, null, null]],
    ];
    for (const [model, efforts] of cases) {
      const from = emulator().received.length;
      const report = await checkConnection(client(), model);
      assert.equal(report.ok, true, reportText(report));
      assert.deepEqual(sentEfforts(emulator(), from), efforts, model);
    }
  });

  it("an answer cut by the check's own budget ended properly: a warning naming the budget, not FAILED, and the relay is usable", async () => {
    const cut = { id: "resp_cut", object: "response", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, model: "thinker", output: [], usage: { input_tokens: 5, output_tokens: CHECK_OUTPUT_BUDGET, output_tokens_details: { reasoning_tokens: CHECK_OUTPUT_BUDGET } } };
    emulator().queueJsonBody(cut);
    emulator().queueJsonBody(cut);
    emulator().queueJsonBody(cut);
    const report = await checkConnection(client(), "reasoning");
    const text = reportText(report);
    assert.equal(report.ok, true, text);
    const streamed = report.steps.find((step) => step.name === "Streamed request");
    assert.equal(streamed?.status, "warning");
    assert.match(streamed?.detail ?? "", new RegExp(`ended properly .* budget of ${CHECK_OUTPUT_BUDGET} output tokens was too small for this model: it spent ${CHECK_OUTPUT_BUDGET} on reasoning`));
    assert.equal(report.steps.find((step) => step.name === "Final event")?.status, "ok");
    assert.equal(report.steps.find((step) => step.name === "Function calls")?.status, "warning");
    assert.equal(report.suggestStreamingOff, false);
    assert.doesNotMatch(text, /Continue/);
    assert.match(text, /# Relay check: usable/);
  });

  it("a 400 that is not about reasoning is still a finding, and is not sent again", async () => {
    const from = emulator().received.length;
    emulator().queueFault({ kind: "status", status: 400, message: "The request was invalid." });
    const report = await checkConnection(client(), "reasoning");
    assert.equal(report.ok, false);
    assert.equal(emulator().received.slice(from).filter((request) => request.method === "POST").length, 1);
  });
});

describe("connection check: the report reads as text", () => {
  const relay = emulatorWithClient();

  /** What JSON.stringify leaves in text: a person reading the report must never see these. */
  const LITERAL_ESCAPES = /\\[nrt"\\]/;

  it("quotes a multi-line answer on one line, with no literal \\n (issue 27 §5)", async () => {
    const report = await checkConnection(relay.client(), "demo");
    const text = reportText(report);
    assert.equal(report.ok, true, text);
    assert.match(report.steps.find((step) => step.name === "Streamed request")?.detail ?? "", /^Completed with "## You asked > Reply with the single word OK\. This/);
    assert.doesNotMatch(text, LITERAL_ESCAPES);
  });

  it("quotes a broken function call's arguments as they came, with no literal escapes", async () => {
    const answer = { id: "resp_text", object: "response", status: "completed", model: "echo", output: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "OK\n\n\tdone", annotations: [] }] }], usage: { input_tokens: 5, output_tokens: 2 } };
    const brokenCall = { id: "resp_call", object: "response", status: "completed", model: "echo", output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "relay_chat_check", arguments: '{"word":\n"ok', status: "completed" }], usage: { input_tokens: 5, output_tokens: 2 } };
    relay.emulator().queueJsonBody(answer);
    relay.emulator().queueJsonBody(brokenCall);
    relay.emulator().queueJsonBody(brokenCall);
    const report = await checkConnection(relay.client(), "echo");
    const text = reportText(report);
    assert.equal(report.steps.find((step) => step.name === "Streamed request")?.detail, 'Completed with "OK done".');
    assert.equal(report.steps.find((step) => step.name === "Function call, not streamed")?.detail, 'The call\'s arguments are not valid JSON: "{"word": "ok".');
    assert.doesNotMatch(text, LITERAL_ESCAPES);
  });
});
