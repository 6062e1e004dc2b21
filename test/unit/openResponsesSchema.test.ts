import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { referenceDirectory } from "../support/fixturePaths";
import { validateResponseRequest, validateResponseResource, validateStreamingEvent } from "../support/openResponsesSchema";


function referenceOutput(bodyFile: string): unknown[] {
  const body = JSON.parse(readFileSync(path.join(referenceDirectory, "bodies", bodyFile), "utf8")) as { output: unknown[] };
  return body.output;
}

/** The finished reasoning item (with encrypted_content) from the recorded gpt-5 stream. */
function recordedReasoningItem(): unknown {
  const stream = readFileSync(path.join(referenceDirectory, "streams", "reasoning-function-calls.sse"), "utf8");
  for (const line of stream.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const event = JSON.parse(line.slice("data: ".length)) as { type: string; item?: { type: string } };
    if (event.type === "response.output_item.done" && event.item?.type === "reasoning") return event.item;
  }
  throw new Error("no reasoning item in the recording");
}

const functionTool = { type: "function", name: "f", description: "d", parameters: { type: "object", properties: {} }, strict: false };

function assertValid(body: unknown): void {
  const result = validateResponseRequest(body);
  assert.equal(result.valid, true, result.valid ? "" : result.errors);
}

describe("validateResponseRequest (Open Responses CreateResponseBody)", () => {
  it("accepts the request the client sends: easy message, flat function tool, budget, stream, store:false", () => {
    assertValid({ model: "m", input: [{ role: "user", content: "hi" }], tools: [functionTool], max_output_tokens: 50, stream: true, store: false });
  });

  it("accepts history copied unchanged from reference outputs plus a function_call_output", () => {
    const functionCalls = referenceOutput("function-call-completed.json") as Array<{ call_id: string }>;
    const input = [
      { role: "user", content: "hello" },
      ...referenceOutput("text-completed.json"),
      { role: "user", content: "weather?" },
      recordedReasoningItem(),
      ...functionCalls,
      { type: "function_call_output", call_id: functionCalls[0].call_id, output: "{\"temperature\":21}" },
    ];
    assertValid({ model: "m", input, tools: [functionTool], stream: false, store: false });
  });

  it("accepts the incomplete message item from a max_output_tokens response as history", () => {
    assertValid({ model: "m", input: [{ role: "user", content: "haiku" }, ...referenceOutput("incomplete-max-output-tokens.json")] });
  });

  it("rejects a non-string model and names the parameter", () => {
    const result = validateResponseRequest({ model: 5 });
    assert.equal(result.valid, false);
    assert.equal(result.valid === false && result.param, "model");
  });

  it("rejects tools in the nested chat-completions layout", () => {
    const result = validateResponseRequest({ model: "m", input: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f", parameters: {} } }] });
    assert.equal(result.valid, false);
    assert.equal(result.valid === false && result.param, "tools[0]");
  });

  it("rejects max_output_tokens below the schema minimum of 16", () => {
    assert.equal(validateResponseRequest({ model: "m", input: [], max_output_tokens: 15 }).valid, false);
    assertValid({ model: "m", input: [], max_output_tokens: 16 });
  });

  it("rejects a function_call_output without call_id and an unknown item type", () => {
    assert.equal(validateResponseRequest({ model: "m", input: [{ type: "function_call_output", output: "x" }] }).valid, false);
    assert.equal(validateResponseRequest({ model: "m", input: [{ type: "mystery", value: 1 }] }).valid, false);
  });

  it("by itself the schema requires type:\"message\" on a message; the validator supplies it as the real API does", () => {
    const body = { model: "m", input: [{ role: "user", content: "hi" }] };
    assert.equal(validateResponseRequest(body, { requireMessageType: true }).valid, false);
    assertValid(body);
    assertValid({ model: "m", input: [{ type: "message", role: "user", content: "hi" }] });
  });

  it("tolerates unknown extra fields on items (no additionalProperties:false in the schema)", () => {
    assertValid({ model: "m", input: [{ role: "user", content: "hi", client_note: 1 }, { type: "function_call_output", call_id: "c1", output: "x", extra: true }] });
  });

  it("does not itself require model or input (both nullable/optional in the schema)", () => {
    assertValid({});
    assertValid({ model: null, input: null });
  });

  it("response validation: the 2025 recordings lack completed_at, which the schema requires", () => {
    const recorded = JSON.parse(readFileSync(path.join(referenceDirectory, "bodies", "text-completed.json"), "utf8")) as Record<string, unknown>;
    const result = validateResponseResource(recorded);
    assert.equal(result.valid, false);
    assert.match(result.valid ? "" : result.errors, /completed_at/);
    assert.equal(validateResponseResource({ ...recorded, completed_at: 1758064443, presence_penalty: 0, frequency_penalty: 0 }).valid, true);
  });

  it("event validation picks the schema by type and refuses unknown types", () => {
    const delta = { type: "response.output_text.delta", sequence_number: 4, item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hi", logprobs: [] };
    assert.equal(validateStreamingEvent(delta).valid, true);
    assert.equal(validateStreamingEvent({ ...delta, delta: 5 }).valid, false);
    assert.equal(validateStreamingEvent({ type: "response.mystery" }).valid, false);
  });
});
