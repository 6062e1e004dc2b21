// The relay's models in VS Code's OWN chat (not Relay Chat's panel), as a person uses it: the model
// picker lists them, an answer streams in, and each relay error appears as the chat's error text with
// the cause and the request id, with exactly one request sent (nothing retried). Screenshots go to
// test-results/ui/native-chat-*.png. Runs only under `runUiTests.mjs --native-chat`, which turns VS
// Code's chat on with anonymous access (code-server 1.139 ships Copilot Chat as its built-in agent and
// asks for a GitHub sign-in otherwise; this machine has no internet).
import * as assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { NativeChat } from "./nativeChatWorkbench";
import { uiEnvironment, workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL;
const enabled = process.env.RELAY_CHAT_UI_NATIVE_CHAT === "1" && Boolean(controlUrl);

async function responsesPosts(): Promise<Array<{ requestId: string }>> {
  const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string; requestId: string }>;
  return received.filter((request) => request.method === "POST" && request.path === "/v1/responses");
}

async function queueFault(fault: Record<string, unknown>): Promise<void> {
  assert.equal((await fetch(`${controlUrl}/faults`, { method: "POST", body: JSON.stringify(fault) })).status, 200);
}

(enabled ? describe : describe.skip)("relay models in VS Code's own chat", function () {
  this.timeout(180_000);
  const workbench = workbenchForSuite("native-chat");
  const chat = new NativeChat(workbench);

  /** Types a message into VS Code's chat input and sends it, as a person does. */
  async function send(text: string): Promise<void> {
    await chat.send(text);
  }

  // Each test starts from the chat open with the echo model, whatever the previous test left (or failed to do),
  // and leaves nothing open over the workbench: a picker left open takes every later click.
  beforeEach(async function () {
    await chat.open();
    if (this.currentTest?.title.startsWith("lists the relay's models")) return;
    await chat.pickModel("echo");
  });
  afterEach(async () => {
    await chat.closeOverlays();
  });

  /** The chat's answer holding `needle` (the chat list is virtualised, so answers are found by content). */
  async function answerContaining(needle: string, timeoutMs = 90_000): Promise<string> {
    const answer: Locator = workbench().page.locator(".interactive-session .interactive-response").filter({ hasText: needle }).last();
    await answer.waitFor({ timeout: timeoutMs });
    return answer.innerText();
  }

  /** Waits for the relay to receive the next POST /v1/responses after `countBefore`, and returns its request id. */
  async function nextRequestId(countBefore: number, timeoutMs = 90_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const posts = await responsesPosts();
      if (posts.length > countBefore) return posts[countBefore].requestId;
      if (Date.now() > deadline) throw new Error("the relay received no request from VS Code's chat");
      await workbench().page.waitForTimeout(250);
    }
  }

  it("lists the relay's models in the chat's model picker", async () => {
    // The chat asks Relay Chat for the models right after activation; the picker may list them at the top or
    // under a collapsed "Other Models" section, which a person opens.
    const listed = (await chat.listModels("echo")).join(" | ");
    for (const model of ["demo", "echo", "tools"]) assert.ok(listed.includes(model), `${model} in the picker: ${listed}`);
    assert.ok(listed.includes(new URL(uiEnvironment().relayBaseUrl).host), `each model names its relay: ${listed}`);
    await workbench().screenshot("native-chat-01-model-picker");
    await chat.pickModel("echo");
  });

  it("answers through the relay in the chat", async () => {
    const before = (await responsesPosts()).length;
    await send("hello from VS Code's own chat");
    // The echo model repeats the last user message, which VS Code's agent wraps in its own context.
    const answer = await answerContaining("hello from VS Code's own chat");
    assert.match(answer, /^You said:/);
    assert.equal((await responsesPosts()).length, before + 1, "one request for one message");
    await workbench().screenshot("native-chat-02-answer");
  });

  const errorCases: Array<{ name: string; fault: Record<string, unknown>; says: RegExp }> = [
    { name: "quota-403", fault: { kind: "status", status: 403, code: "insufficient_user_quota", message: "user quota is not enough" }, says: /HTTP 403 \(insufficient_user_quota\), cause: quota or balance/ },
    { name: "key-401", fault: { kind: "status", status: 401, code: "invalid_api_key", message: "Incorrect API key provided." }, says: /HTTP 401 \(invalid_api_key\), cause: the API key/ },
    { name: "model-permission-403", fault: { kind: "status", status: 403, code: "model_not_allowed", message: "This key may not use the requested model." }, says: /HTTP 403 \(model_not_allowed\), cause: model permission/ },
    { name: "error-after-200", fault: { kind: "error_event", code: "server_error", message: "upstream went away" }, says: /error after HTTP 200/ },
    { name: "interrupted", fault: { kind: "disconnect", afterBytes: 600 }, says: /stream was interrupted before a final status/ },
    { name: "rate-limit-429", fault: { kind: "status", status: 429, code: "rate_limit_exceeded" }, says: /HTTP 429 \(rate_limit_exceeded\), cause: rate limit/ },
  ];

  for (const [index, errorCase] of errorCases.entries()) {
    it(`shows a relay ${errorCase.name} error with its cause and request id, sending one request`, async () => {
      const before = (await responsesPosts()).length;
      await queueFault(errorCase.fault);
      await send(`case ${errorCase.name}`);
      const requestId = await nextRequestId(before);
      const answer = await answerContaining(`Request id: ${requestId}`);
      assert.match(answer, errorCase.says);
      assert.equal((await responsesPosts()).length, before + 1, "exactly one request: neither Relay Chat nor VS Code's chat retried");
      await workbench().screenshot(`native-chat-${String(index + 3).padStart(2, "0")}-${errorCase.name}`);
    });
  }

  it("shows an answer cut at the output budget as incomplete, with the request id", async () => {
    // A relay's stream that stops at the output budget after some text.
    const before = (await responsesPosts()).length;
    assert.equal((await fetch(`${controlUrl}/replay`, { method: "POST", body: incompleteStream("The answer starts and then") })).status, 200);
    await send("case incomplete");
    const answer = await answerContaining(`Request id: ${await nextRequestId(before)}`);
    assert.match(answer, /incomplete \(max_output_tokens\)/);
    assert.equal((await responsesPosts()).length, before + 1);
    await workbench().screenshot(`native-chat-${String(errorCases.length + 3).padStart(2, "0")}-incomplete`);
  });
});

function incompleteStream(text: string): string {
  const response = { id: "resp_incomplete", object: "response", status: "in_progress", model: "echo", output: [] as unknown[] };
  const message = { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] as unknown[] };
  const events: Array<Record<string, unknown>> = [
    { type: "response.created", response },
    { type: "response.output_item.added", output_index: 0, item: message },
    { type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
    { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: text },
    {
      type: "response.incomplete",
      response: {
        ...response,
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" },
        output: [{ ...message, status: "incomplete", content: [{ type: "output_text", text, annotations: [] }] }],
        usage: { input_tokens: 120, output_tokens: 16, total_tokens: 136 },
      },
    },
  ];
  return events.map((event, index) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join("");
}
