import assert from "node:assert/strict";
import { isResponsesRefusal } from "../../src/relay/chatCompletions/protocolRefusal";
import type { RequestOutcome } from "../../src/relay/types";

// Which failed Responses answers mean "no Responses interface for this model here" (the bodies real relays send,
// see test/emulator/chatOnlyModels.ts), and which are other problems another wire would not fix.

const http = (status: number, code: string | null, message: string, body = ""): RequestOutcome => ({ kind: "http_error", status, code, message, body: body || JSON.stringify({ error: { message, code } }) });

describe("Chat Completions: recognising a relay's 'no Responses here'", () => {
  it("recognises new-api, one-api, gateways and a Chat Completions answer", () => {
    assert.ok(isResponsesRefusal(http(500, "convert_request_failed", "not implemented (request id: 2025)")));
    assert.ok(isResponsesRefusal(http(404, null, "Invalid URL (POST /v1/responses)")));
    assert.ok(isResponsesRefusal(http(501, "api_not_implemented", "API not implemented")));
    assert.ok(isResponsesRefusal(http(400, "unsupported_endpoint", "The model qwen does not support the /v1/responses endpoint")));
    assert.ok(isResponsesRefusal(http(400, null, "This endpoint is not supported for model claude-3")));
    assert.ok(isResponsesRefusal({ kind: "failed", code: "chat_completions_format", message: "…" }));
  });

  it("leaves other failures alone: a parameter, the model, the key, an upstream error, a failure inside the stream", () => {
    assert.ok(!isResponsesRefusal(http(400, "unsupported_parameter", "Unsupported parameter: 'reasoning.effort' is not supported with this model.")));
    assert.ok(!isResponsesRefusal(http(404, "model_not_found", "The model 'gpt-9' does not exist")));
    assert.ok(!isResponsesRefusal(http(401, "invalid_api_key", "Incorrect API key provided.")));
    assert.ok(!isResponsesRefusal(http(500, "server_error", "The server had an error")));
    assert.ok(!isResponsesRefusal(http(400, "invalid_request", "Invalid request body")));
    assert.ok(!isResponsesRefusal({ kind: "error_event", code: "server_error", message: "not supported" }));
  });
});
