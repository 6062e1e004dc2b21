import assert from "node:assert/strict";
import { classifyHttpError, classifyServiceError } from "../../src/relay/errorClassifier";

// The bodies relays send when a request is longer than the model's context window, as they send them
// (OpenAI's Responses and Chat Completions wording; new-api appends the request id; Anthropic through a
// relay; OpenRouter with a numeric code). Each must read as a length problem, so the panel offers a summary.
const TOO_LONG: ReadonlyArray<[string, number, string]> = [
  ["OpenAI Responses", 400, '{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}'],
  [
    "OpenAI Chat Completions through new-api",
    400,
    '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 130011 tokens. Please reduce the length of the messages. (request id: 2025112419000123456789)","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
  ],
  ["Anthropic through a relay", 400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}'],
  ["OpenRouter", 400, '{"error":{"message":"This endpoint\'s maximum context length is 131072 tokens. However, you requested about 140213 tokens (140213 of text input). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically.","code":400}}'],
];

describe("relay errors: a request longer than the context window", () => {
  for (const [source, status, body] of TOO_LONG) {
    it(`reads ${source}'s refusal as a context-length problem and says what helps`, () => {
      const classified = classifyHttpError(status, body, "application/json");
      assert.equal(classified.cause, "context_length");
      assert.match(classified.explanation, /Summarize earlier turns/);
    });
  }

  it("reads a context-length failure inside a stream the same way", () => {
    assert.equal(classifyServiceError("context_length_exceeded", "Your input exceeds the context window of this model.").cause, "context_length");
    assert.equal(classifyServiceError(null, "The prompt is too long for this model.").cause, "context_length");
  });

  it("leaves other invalid requests as they were", () => {
    const classified = classifyHttpError(400, '{"error":{"message":"Invalid type for \'input\'","type":"invalid_request_error","code":"invalid_type"}}', "application/json");
    assert.equal(classified.cause, "bad_request");
  });
});
