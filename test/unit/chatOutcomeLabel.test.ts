import assert from "node:assert/strict";
import { conversationToMarkdown } from "../../src/chat/exportMarkdown";
import type { TurnOutcome } from "../../src/chat/conversation";
import { englishText, outcomeLabel } from "../../src/chat/outcomeLabel";
import { receiptLine } from "../../src/cli/receipt";
import { emptySnapshot } from "../../src/relay/accumulate";
import type { RequestResult } from "../../src/relay/types";
import { sampleConversation } from "../fixtures/chat/sampleConversations";

// One wording of an outcome for the panel, the Markdown export and the CLI (issue 12).

const OUTCOMES: TurnOutcome[] = [
  { kind: "completed" },
  { kind: "incomplete", reason: "max_output_tokens" },
  { kind: "failed", code: "server_error", message: "m" },
  { kind: "error_event", code: null, message: "m" },
  { kind: "interrupted", bytes: 1, events: 1 },
  { kind: "interrupted", bytes: 1, events: 1, reason: "client_stopped" },
  { kind: "interrupted", bytes: 1, events: 1, reason: "size_limit" },
  { kind: "timed_out", limitMs: 1 },
  { kind: "cancelled" },
  { kind: "http_error", status: 401, code: "invalid_api_key", message: "m", body: "" },
  { kind: "network_error", code: "ECONNREFUSED", message: "m" },
  { kind: "in_progress" },
  { kind: "tool_round_limit", rounds: 3 },
  { kind: "not_finished" },
];

describe("outcome labels", () => {
  it("words every outcome through the caller's localize function, with its details", () => {
    const asked: string[] = [];
    const localize = (english: string, ...args: Array<string | number>) => {
      asked.push(english);
      return englishText(english, ...args);
    };
    const labels = OUTCOMES.map((outcome) => outcomeLabel(outcome, localize));
    assert.equal(new Set(labels).size, labels.length, "each outcome reads differently");
    assert.deepEqual(labels.slice(0, 3), ["completed", "incomplete (max_output_tokens)", "failed (server_error)"]);
    assert.equal(labels[5], "interrupted (Relay Chat stopped during this request)");
    assert.equal(labels[9], "HTTP 401 (invalid_api_key)");
    assert.ok(asked.length >= OUTCOMES.length, "every string goes through localize, so the translation pass finds it");
  });

  it("is the wording the Markdown export and the CLI receipt use", () => {
    const conversation = sampleConversation(1, 1);
    conversation.turns[0].outcome = { kind: "interrupted", bytes: 10, events: 2, reason: "client_stopped" };
    assert.ok(conversationToMarkdown(conversation).includes(`Not completed: ${outcomeLabel(conversation.turns[0].outcome, englishText)}.`));
    const result = { outcome: { kind: "incomplete", reason: "max_output_tokens" }, snapshot: emptySnapshot, usage: null, requestIds: [], timing: { totalMs: 10 } } as unknown as RequestResult;
    assert.ok(receiptLine(result).startsWith("incomplete (max_output_tokens) · usage not reported"));
  });
});
