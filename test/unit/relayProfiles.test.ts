import assert from "node:assert/strict";
import { functionCallsOf, outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { FunctionToolDefinition, InputItem, OutcomeKind, RequestResult } from "../../src/relay/types";
import type { EmulatorProfile } from "../emulator/profiles";
import { EMULATOR_PROFILES } from "../emulator/profiles";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";

// The relay client's core scenarios against every kind of relay the emulator plays (issue 10, §7): text,
// multi-turn, a tool round trip, incomplete, an error after HTTP 200 and a cut stream, streamed and not.
// Where a relay hides something (a translating gateway cannot show a truncation in its stream, and reports
// no usage), the expectation is what a correct client can know, never more.

interface ProfileExpectation {
  /** What a streamed answer cut at the output budget reads as. */
  streamedIncomplete: OutcomeKind;
  /** Whether a streamed answer carries usage that counts. */
  streamedUsage: boolean;
  /** Streamed items the final output leaves out in a tool call answer. */
  streamedCallOmitted: number;
}

const EXPECTATIONS: Record<EmulatorProfile, ProfileExpectation> = {
  openai: { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  minimal: { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  "new-api": { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  translated: { streamedIncomplete: "completed", streamedUsage: false, streamedCallOmitted: 1 },
  openrouter: { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  litellm: { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  split: { streamedIncomplete: "incomplete", streamedUsage: true, streamedCallOmitted: 0 },
  "drops-instructions": { streamedIncomplete: "completed", streamedUsage: false, streamedCallOmitted: 1 },
};

const WEATHER_TOOL: FunctionToolDefinition = { type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: false };
const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

for (const profile of EMULATOR_PROFILES) {
  describe(`relay client against the ${profile} profile`, () => {
    const expected = EXPECTATIONS[profile];
    let emulator: RelayEmulator;
    let client: RelayClient;
    before(async () => {
      emulator = await startRelayEmulator({ profile });
      client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, idleTimeoutMs: 5000 });
    });
    after(async () => {
      await client.close();
      await emulator.close();
    });

    async function send(input: InputItem[], options: { stream: boolean; model?: string; maxOutputTokens?: number; tools?: FunctionToolDefinition[] }): Promise<RequestResult> {
      const result = await client.send(buildResponseRequest({ model: options.model ?? "echo", input, stream: options.stream, maxOutputTokens: options.maxOutputTokens, tools: options.tools }));
      assert.equal(result.requestId, emulator.usageLog[emulator.usageLog.length - 1]?.requestId ?? emulator.received[emulator.received.length - 1].requestId, "the request id of the relay's usage log");
      return result;
    }

    for (const stream of [true, false]) {
      const mode = stream ? "streamed" : "not streamed";
      const usageCounts = !stream || expected.streamedUsage;

      it(`text (${mode})`, async () => {
        const result = await send([userMessage("hello profile")], { stream });
        assert.equal(result.outcome.kind, "completed", result.explanation ?? "");
        assert.equal(outputTextOf(result.snapshot.output), "You said: hello profile");
        if (usageCounts) assert.equal(result.usage?.output_tokens, emulator.usageLog[emulator.usageLog.length - 1].outputTokens);
        else assert.deepEqual([result.usage, result.snapshot.usage?.output_tokens], [null, 0], "zeros for a non-empty answer are not reported");
      });

      it(`multi-turn (${mode})`, async () => {
        const first = await send([userMessage("first")], { stream });
        const second = await send([userMessage("first"), ...first.snapshot.output, userMessage("second")], { stream });
        assert.equal(second.outcome.kind, "completed", second.explanation ?? "");
        assert.equal(outputTextOf(second.snapshot.output), "You said: second");
      });

      it(`tool round trip (${mode})`, async () => {
        const proposed = await send([userMessage("weather?")], { stream, model: "tools", tools: [WEATHER_TOOL] });
        assert.equal(proposed.outcome.kind, "completed", proposed.explanation ?? "");
        const calls = functionCallsOf(proposed.snapshot.output);
        assert.equal(calls.length, 1);
        assert.equal(calls[0].name, "get_weather");
        assert.deepEqual(JSON.parse(calls[0].arguments), { city: "Paris" });
        assert.match(calls[0].call_id, /^call_/);
        assert.equal(proposed.snapshot.omittedStreamedItems, stream ? expected.streamedCallOmitted : 0);
        const followUp = await send([userMessage("weather?"), ...proposed.snapshot.output, { type: "function_call_output", call_id: calls[0].call_id, output: "Sunny" }], { stream, model: "tools", tools: [WEATHER_TOOL] });
        assert.equal(followUp.outcome.kind, "completed", followUp.explanation ?? "");
        assert.equal(outputTextOf(followUp.snapshot.output), "Tool result: Sunny");
      });

      it(`incomplete (${mode})`, async () => {
        const result = await send([userMessage(LONG_TEXT)], { stream, maxOutputTokens: 16 });
        assert.equal(result.outcome.kind, stream ? expected.streamedIncomplete : "incomplete");
        assert.ok(outputTextOf(result.snapshot.output).startsWith("You said: word0"), "the partial text is kept");
        assert.ok(outputTextOf(result.snapshot.output).length < `You said: ${LONG_TEXT}`.length);
      });

      it(`error after HTTP 200 (${mode})`, async () => {
        emulator.queueFault({ kind: "error_event", code: "server_error", message: "upstream broke" });
        const result = await send([userMessage(LONG_TEXT)], { stream });
        if (stream) {
          assert.equal(result.httpStatus, 200);
          assert.deepEqual(result.outcome, { kind: "error_event", code: "server_error", message: "upstream broke" });
          assert.equal(outputTextOf(result.snapshot.output), "You said:", "the text before the error is kept");
        } else {
          assert.equal(result.outcome.kind, "http_error");
        }
        assert.equal(result.cause, "server");
      });

      it(`cut (${mode})`, async () => {
        const whole = await send([userMessage(LONG_TEXT)], { stream });
        emulator.queueFault({ kind: "disconnect", afterBytes: Math.floor(whole.bytesReceived * 0.6) });
        const result = await send([userMessage(LONG_TEXT)], { stream });
        assert.equal(result.outcome.kind, "interrupted");
        assert.equal(result.cause, "stream");
        if (stream) assert.ok(`You said: ${LONG_TEXT}`.startsWith(outputTextOf(result.snapshot.output)) && outputTextOf(result.snapshot.output).length > 10, "the text so far is kept");
      });
    }
  });
}
