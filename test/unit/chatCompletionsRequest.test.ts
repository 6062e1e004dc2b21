import assert from "node:assert/strict";
import { chatCompletionsRequest, MISSING_TOOL_RESULT } from "../../src/relay/chatCompletions/requestMapping";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { InputItem } from "../../src/relay/types";

// The conversation's Responses items said as Chat Completions messages: nothing of what the model needs is lost,
// and what this wire cannot carry (reasoning) is left out and counted.

const tool = { type: "function" as const, name: "read_file", description: "Reads a file", parameters: { type: "object", properties: { path: { type: "string" } } }, strict: false };

describe("Chat Completions: the request built from the conversation", () => {
  it("sends instructions as the first system message, the history in order, tool calls with their ids and results as tool messages", () => {
    const input: InputItem[] = [
      userMessage("Read a.txt"),
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "x" },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Reading it.", annotations: [] }] },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}', status: "completed" },
      { type: "function_call", call_id: "call_2", name: "read_file", arguments: '{"path":"b.txt"}', status: "completed" },
      { type: "function_call_output", call_id: "call_1", output: "A" },
      { type: "function_call_output", call_id: "call_2", output: "B" },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "A and B.", annotations: [] }] },
      { type: "message", role: "developer", content: "Be brief." },
      userMessage("Thanks"),
    ];
    const mapped = chatCompletionsRequest(buildResponseRequest({ model: "deepseek-chat", instructions: "You are helpful.", input, tools: [tool], toolChoice: "auto", maxOutputTokens: 500, stream: true }));
    assert.equal(mapped.reasoningLeftOut, 1);
    assert.equal(mapped.otherItemsLeftOut, 0);
    assert.deepEqual(mapped.body, {
      model: "deepseek-chat",
      messages: [
        { role: "system", content: "You are helpful." },
        { role: "user", content: "Read a.txt" },
        {
          role: "assistant",
          content: "Reading it.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
            { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b.txt"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "A" },
        { role: "tool", tool_call_id: "call_2", content: "B" },
        { role: "assistant", content: "A and B." },
        { role: "system", content: "Be brief." },
        { role: "user", content: "Thanks" },
      ],
      stream: true,
      tools: [{ type: "function", function: { name: "read_file", parameters: tool.parameters, description: "Reads a file", strict: false } }],
      tool_choice: "auto",
      max_tokens: 500,
      stream_options: { include_usage: true },
    });
  });

  it("sends images as image_url parts of the user message", () => {
    const input: InputItem[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "What is this?" }, { type: "input_image", image_url: "data:image/png;base64,AAAA" }, { type: "input_image", image_url: "data:image/png;base64,BBBB", detail: "low" }] }];
    const { body } = chatCompletionsRequest(buildResponseRequest({ model: "m", input, stream: false }));
    assert.deepEqual(body.messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          { type: "image_url", image_url: { url: "data:image/png;base64,BBBB", detail: "low" } },
        ],
      },
    ]);
    assert.equal(body.stream, false);
    assert.equal(body.stream_options, undefined, "usage is asked for on streams only");
  });

  it("answers a call the history has no result for, so the relay does not refuse the whole request", () => {
    const input: InputItem[] = [userMessage("Go"), { type: "function_call", call_id: "call_x", name: "read_file", arguments: "{}" }, userMessage("Again")];
    const { body } = chatCompletionsRequest(buildResponseRequest({ model: "m", input, stream: true }));
    assert.deepEqual(body.messages.slice(1, 3), [
      { role: "assistant", content: null, tool_calls: [{ id: "call_x", type: "function", function: { name: "read_file", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_x", content: MISSING_TOOL_RESULT },
    ]);
  });

  it("passes reasoning effort and temperature, and leaves out item kinds this wire has no form for", () => {
    const request = { ...buildResponseRequest({ model: "m", input: [userMessage("Hi"), { type: "web_search_call", id: "ws_1", status: "completed" }], reasoningEffort: "low", stream: true }), temperature: 0.2 };
    const mapped = chatCompletionsRequest(request);
    assert.equal(mapped.body.reasoning_effort, "low");
    assert.equal(mapped.body.temperature, 0.2);
    assert.equal(mapped.otherItemsLeftOut, 1);
    assert.equal(mapped.body.messages.length, 1);
  });
});
