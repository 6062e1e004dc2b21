import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Conversation, RequestRecord, Turn } from "../../src/chat/conversation";
import { createConversation } from "../../src/chat/conversation";
import { curlCommandFor } from "../../src/panel/editor/curlCommand";
import { MAX_IMAGE_BASE64_CHARS, MAX_IMAGES_PER_MESSAGE } from "../../src/panel/protocol";
import { isToHost, isToWebview } from "../../src/panel/protocolGuards";
import { actionsFor, fixesFor } from "../../src/panel/turns/turnFixes";
import { turnViewsOf } from "../../src/panel/turns/turnView";
import { webviewHtml } from "../../src/panel/webviewHtml";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";

function request(overrides: Partial<RequestRecord>): RequestRecord {
  return {
    purpose: "send",
    startedAt: 1,
    model: "echo",
    streamed: true,
    maxOutputTokens: null,
    outcome: { kind: "completed" },
    explanation: null,
    httpStatus: 200,
    requestId: "req_1",
    responseId: "resp_1",
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 2 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 1 } },
    firstByteMs: 40,
    totalMs: 120,
    input: [],
    output: [],
    ...overrides,
  };
}

function turn(id: string, parentId: string | null, overrides: Partial<Turn>): Turn {
  return { id, parentId, userText: `question ${id}`, createdAt: 1, requests: [], toolCalls: [], outcome: { kind: "completed" }, notice: null, ...overrides };
}

const message = (text: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });

describe("panel view model", () => {
  it("notes in the receipt when the relay's final response left out streamed items, and hides a request still under way", () => {
    const conversation: Conversation = createConversation("c1", "echo", 1);
    conversation.turns.push(
      turn("t1", null, {
        outcome: { kind: "in_progress" },
        requests: [request({ omittedStreamedItems: 2 }), request({ requestId: "req_2", outcome: { kind: "in_progress" } })],
      }),
    );
    conversation.activeTurnId = "t1";
    const [view] = turnViewsOf(conversation, { streamingTurnId: "t1", liveText: "" });
    assert.deepEqual(view.receipts.map((receipt) => receipt.requestId), ["req_1"], "no receipt before a request ends");
    assert.match(view.receipts[0].note ?? "", /left out 2 streamed items; Relay Chat kept them/);
    const single: Conversation = createConversation("c2", "echo", 1);
    single.turns.push(turn("t1", null, { requests: [request({ omittedStreamedItems: 1 })] }));
    single.activeTurnId = "t1";
    assert.match(turnViewsOf(single, { streamingTurnId: null, liveText: null })[0].receipts[0].note ?? "", /left out 1 streamed item; Relay Chat kept it from/, "one item, in the singular");
  });

  it("gives a refused turn its refusal, and notes in the receipt the events that could not be read", () => {
    const conversation: Conversation = createConversation("c1", "echo", 1);
    const refusal = { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] };
    conversation.turns.push(turn("t1", null, { requests: [request({ output: [refusal], unreadableEvents: 3 })] }));
    conversation.activeTurnId = "t1";
    const [view] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual([view.answerText, view.refusal, view.outcome], ["", "I can't help with that.", "completed"]);
    assert.match(view.receipts[0].note ?? "", /3 events from the relay could not be read: the answer may be missing text/);
  });

  it("shows answer text, reasoning as a note, unknown kinds listed, and one receipt per request", () => {
    const conversation: Conversation = createConversation("c1", "echo", 1);
    conversation.turns.push(
      turn("t1", null, {
        requests: [
          request({ output: [{ type: "reasoning", encrypted_content: "x", summary: [] }, { type: "function_call", name: "f", call_id: "c", arguments: "{}" }] }),
          request({ purpose: "tool_follow_up", requestId: "req_2", output: [message("Hello **world**"), { type: "brand_new_kind" }] }),
        ],
        toolCalls: [{ callId: "c", name: "f", arguments: '{"a":1}', status: "ready", output: { type: "function_call_output", call_id: "c", output: "42" } }],
      }),
    );
    conversation.activeTurnId = "t1";
    const [view] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.equal(view.answerText, "Hello **world**");
    assert.equal(view.hasReasoning, true);
    assert.deepEqual(view.otherItemKinds, ["brand_new_kind"]);
    assert.deepEqual(view.receipts.map((receipt) => [receipt.requestId, receipt.outcomeLabel, receipt.latencyMs, receipt.usage?.cachedTokens]), [
      ["req_1", "completed", 120, 2],
      ["req_2", "completed", 120, 2],
    ]);
    assert.equal(view.toolCalls[0].argumentsJson, '{\n  "a": 1\n}');
    assert.deepEqual(view.actions, []);
  });

  it("shows the forwarded text of the streaming turn, never one rebuilt from its requests", () => {
    const conversation: Conversation = createConversation("c1", "echo", 1);
    conversation.turns.push(turn("t1", null, { outcome: { kind: "in_progress" }, requests: [request({ output: [message("first request")] })] }));
    conversation.activeTurnId = "t1";
    const [streaming] = turnViewsOf(conversation, { streamingTurnId: "t1", liveText: "first request\n\nsecond, so far" });
    assert.equal(streaming.streaming, true);
    assert.equal(streaming.answerText, "first request\n\nsecond, so far");
    assert.deepEqual(streaming.actions, [], "nothing to retry while it runs");
    const [settled] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.equal(settled.streaming, false);
    assert.equal(settled.answerText, "first request");
  });

  it("offers Continue and Retry on an incomplete turn, Retry on failures", () => {
    const conversation = createConversation("c1", "echo", 1);
    conversation.turns.push(
      turn("t1", null, { outcome: { kind: "http_error", status: 401, code: "invalid_api_key", message: "bad", body: "{}" }, notice: "Check the API key", requests: [request({ outcome: { kind: "http_error", status: 401, code: "invalid_api_key", message: "bad", body: "{}" } })] }),
      turn("t2", null, { outcome: { kind: "incomplete", reason: "max_output_tokens" }, requests: [request({ outcome: { kind: "incomplete", reason: "max_output_tokens" }, output: [message("partial")] })] }),
    );
    conversation.activeTurnId = "t1";
    const [failed] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(failed.actions, ["retry"]);
    assert.deepEqual(failed.fixes, ["setApiKey", "checkConnection"]);
    assert.equal(failed.outcomeLabel, "HTTP 401 (invalid_api_key)");
    assert.equal(failed.explanation, "Check the API key");
    assert.deepEqual([failed.branchIndex, failed.branchCount], [0, 2], "two first turns are two branches");
    conversation.activeTurnId = "t2";
    const [incomplete] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(incomplete.actions, ["continue", "retry"]);
    assert.equal(incomplete.outcomeLabel, "incomplete (max_output_tokens)");
  });
});

describe("panel protocol guards", () => {
  it("accepts well-formed messages and rejects everything else", () => {
    assert.equal(isToHost({ type: "send", text: "hi" }), true);
    assert.equal(isToHost({ type: "approval", callId: "c", answer: "allow_session" }), true);
    assert.equal(isToHost({ type: "approval", callId: "c", answer: "yes please" }), false);
    assert.equal(isToHost({ type: "send" }), false);
    assert.equal(isToHost({ type: "toString" }), false, "no prototype lookups");
    assert.equal(isToHost({ type: "fix", action: "rm -rf" }), false);
    assert.equal(isToHost(null), false);
    assert.equal(isToHost("send"), false);
    // Images beside the text: an allowed media type, base64 data, under the cap, at most ten.
    const png = { mediaType: "image/png", data: "iVBORw0KGgo=" };
    assert.equal(isToHost({ type: "send", text: "", images: [png] }), true);
    assert.equal(isToHost({ type: "send", text: "", images: [{ ...png, mediaType: "image/svg+xml" }] }), false);
    assert.equal(isToHost({ type: "send", text: "", images: [{ ...png, data: "not base64!" }] }), false);
    assert.equal(isToHost({ type: "send", text: "", images: [{ ...png, data: "" }] }), false);
    assert.equal(isToHost({ type: "send", text: "", images: [{ ...png, data: "A".repeat(MAX_IMAGE_BASE64_CHARS + 4) }] }), false);
    assert.equal(isToHost({ type: "send", text: "", images: Array.from({ length: MAX_IMAGES_PER_MESSAGE + 1 }, () => png) }), false);
    assert.equal(isToHost({ type: "send", text: "", images: png }), false);
    assert.equal(isToWebview({ type: "answerDelta", turnId: "t", text: "x" }), true);
    assert.equal(isToWebview({ type: "answerDelta", turnId: "t" }), false);
    assert.equal(isToWebview({ type: "eval", code: "1" }), false);
  });
});

describe("copy as curl", () => {
  it("never contains the key and survives hostile text in the body", () => {
    const hostile = `it's $(rm -rf ~) \`whoami\` $HOME\nRELAY_CHAT_REQUEST_BODY\nnot the end`;
    const command = curlCommandFor("http://127.0.0.1:1/v1/responses", buildResponseRequest({ model: "echo", input: [userMessage(hostile)], stream: true }));
    assert.match(command, /Authorization: Bearer \$RELAY_CHAT_API_KEY/);
    // JSON escapes the newline, so the body can never end the here-document early.
    assert.equal(command.split("\n").filter((line) => line === "RELAY_CHAT_REQUEST_BODY").length, 1);
    const folder = mkdtempSync(path.join(os.tmpdir(), "curl-"));
    try {
      // Replace curl with a script that prints its stdin, then run the command in a real shell.
      writeFileSync(path.join(folder, "curl"), "#!/bin/sh\ncat\n", { mode: 0o755 });
      const run = spawnSync("sh", ["-c", command], { env: { PATH: `${folder}:${process.env.PATH}`, RELAY_CHAT_API_KEY: "k" }, encoding: "utf8" });
      assert.equal(run.status, 0, run.stderr);
      assert.equal((JSON.parse(run.stdout) as { input: Array<{ content: string }> }).input[0].content, hostile);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("webview HTML", () => {
  it("has a strict CSP with a fresh nonce and no inline code", () => {
    const assets = { cspSource: "https://webview.test", scriptUri: "https://webview.test/webview.js", styleUri: "https://webview.test/panel.css", codiconsUri: "https://webview.test/codicon.css", codeBlockStyleUri: "https://webview.test/codeBlocks.css" };
    const first = webviewHtml(assets);
    assert.match(webviewHtml({ ...assets, language: "zh-cn" }), /<html lang="zh-cn">/, "the page says its language");
    assert.match(webviewHtml({ ...assets, language: '"><script>' }), /<html lang="en">/, "anything else is not written into the page");
    const second = webviewHtml(assets);
    const nonce = /nonce-([A-Za-z0-9+/=]+)/.exec(first)?.[1];
    assert.ok(nonce && nonce.length >= 20);
    assert.notEqual(nonce, /nonce-([A-Za-z0-9+/=]+)/.exec(second)?.[1], "a new nonce per page");
    assert.match(first, /default-src 'none'/);
    assert.match(first, /script-src 'nonce-/);
    assert.doesNotMatch(first, /unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(first, /\son[a-z]+=/i, "no inline handlers");
    assert.equal((first.match(/<script/g) ?? []).length, 1);
  });
});

describe("panel turn states: fixes that fit the cause, Retry only where a request was sent", () => {
  const http = (status: number, code: string | null, message = "no") => ({ kind: "http_error" as const, status, code, message, body: JSON.stringify({ error: { code, message } }) });

  it("offers a new key for a key problem, the console for quota, settings for an address", () => {
    assert.deepEqual(fixesFor(http(401, "invalid_api_key"), { consoleConfigured: true }), ["setApiKey", "checkConnection"]);
    assert.deepEqual(fixesFor(http(403, "insufficient_user_quota"), { consoleConfigured: true }), ["openConsole"]);
    assert.deepEqual(fixesFor(http(403, "insufficient_user_quota"), { consoleConfigured: false }), [], "no key or model buttons for a quota problem");
    assert.deepEqual(fixesFor(http(403, null, "model gpt-x is not allowed for this token"), { consoleConfigured: false }), ["selectModel"]);
    assert.deepEqual(fixesFor({ kind: "network_error", code: "ECONNREFUSED", message: "refused" }, { consoleConfigured: false }), ["openSettings", "checkConnection"]);
    assert.deepEqual(fixesFor({ kind: "cancelled" }, { consoleConfigured: true }), []);
    assert.deepEqual(fixesFor({ kind: "incomplete", reason: "max_output_tokens" }, { consoleConfigured: true }), []);
  });

  it("offers Retry where the relay got the request, not after a refused connection", () => {
    assert.deepEqual(actionsFor({ kind: "network_error", code: "ECONNREFUSED", message: "refused" }), []);
    assert.deepEqual(actionsFor({ kind: "network_error", code: "ENOTFOUND", message: "dns" }), []);
    assert.deepEqual(actionsFor({ kind: "network_error", code: "ECONNRESET", message: "reset" }), ["retry"]);
    assert.deepEqual(actionsFor(http(500, "server_error")), ["retry"]);
    assert.deepEqual(actionsFor({ kind: "cancelled" }), ["retry"]);
    assert.deepEqual(actionsFor({ kind: "incomplete", reason: null }), ["continue", "retry"]);
    assert.deepEqual(actionsFor({ kind: "completed" }), []);
  });

  it("shows reasoning summaries collapsed, never as answer text", () => {
    const conversation: Conversation = createConversation("c1", "echo", 1);
    conversation.turns.push(
      turn("t1", null, {
        requests: [request({ output: [{ type: "reasoning", summary: [{ type: "summary_text", text: "**Thinking**\n\nabout it" }] }, message("The answer")] })],
      }),
    );
    conversation.activeTurnId = "t1";
    const [view] = turnViewsOf(conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(view.reasoningSummaries, ["**Thinking**\n\nabout it"]);
    assert.equal(view.answerText, "The answer");
  });
});
