import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { OutcomeKind } from "../../src/relay/types";
import { referenceDirectory } from "./fixturePaths";

// Expectations for the recorded streams and bodies in test/fixtures/reference (see its SOURCES.md for
// where each came from).

export { referenceDirectory };

export interface StreamExpectation {
  file: string;
  outcome: OutcomeKind;
  text: string;
  outputTypes: string[];
  functionCalls: string[];
  code?: string;
}

export const streamExpectations: StreamExpectation[] = [
  { file: "text-basic.sse", outcome: "completed", text: "Hello! How can I assist you today?", outputTypes: ["message"], functionCalls: [] },
  { file: "text-logprobs.sse", outcome: "completed", text: "The capital of Minas Gerais is Belo Horizonte.", outputTypes: ["message"], functionCalls: [] },
  { file: "background-queued.sse", outcome: "completed", text: "2 + 2 equals 4.", outputTypes: ["message"], functionCalls: [] },
  { file: "function-call.sse", outcome: "completed", text: "", outputTypes: ["function_call"], functionCalls: ["get_weather_at_location"] },
  { file: "legacy-no-sequence-number-function-call.sse", outcome: "completed", text: "", outputTypes: ["function_call"], functionCalls: ["get_capital"] },
  { file: "reasoning-function-calls.sse", outcome: "completed", text: "", outputTypes: ["reasoning", "function_call"], functionCalls: ["final_result"] },
  { file: "sdk-mock-data-only-with-done.sse", outcome: "completed", text: "Hello world", outputTypes: ["message"], functionCalls: [] },
  { file: "error-event-then-failed-insufficient-quota.sse", outcome: "error_event", text: "", outputTypes: [], functionCalls: [], code: "insufficient_quota" },
  { file: "failed-rate-limit.sse", outcome: "failed", text: "", outputTypes: [], functionCalls: [], code: "rate_limit_exceeded" },
  { file: "refusal-synthetic-partial.sse", outcome: "interrupted", text: "", outputTypes: ["message"], functionCalls: [] },
];

export function readReferenceStream(file: string): Buffer {
  return readFileSync(path.join(referenceDirectory, "streams", file));
}

export function referenceStreamFiles(): string[] {
  return readdirSync(path.join(referenceDirectory, "streams")).filter((name) => name.endsWith(".sse")).sort();
}

export function readReferenceBody(file: string): unknown {
  return JSON.parse(readFileSync(path.join(referenceDirectory, "bodies", file), "utf8"));
}

/** Byte offsets just after each frame's closing blank line (test oracle only; the fixtures use LF). */
export function frameEndOffsets(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let index = bytes.indexOf("\n\n"); index !== -1; index = bytes.indexOf("\n\n", index + 1)) offsets.push(index + 2);
  return offsets;
}

export interface GatewayExpectation {
  file: string;
  outcome: OutcomeKind;
  text: string;
  functionCalls: Array<{ name: string; arguments: string; call_id: string }>;
  /** Streamed items the gateway's final `response.output` left out (kept by a correct client). */
  omittedStreamedItems: number;
  /** [input, output] tokens as a correct client counts them; null when usage is not reported (all zeros). */
  usage: [number, number] | null;
  requestId: string;
}

/**
 * What a correct client concludes from each gateway capture (see gateway/README.md): passthrough is a
 * plain completed answer; the translating adapter's zero usage is "not reported", its function call is
 * recovered from the stream although the final output leaves it out, and its cut-at-length answer reads
 * as completed because nothing in the stream says otherwise.
 */
export const gatewayExpectations: GatewayExpectation[] = [
  { file: "pk115-pass-resp-crlf-stream", outcome: "completed", text: "Hi there", functionCalls: [], omittedStreamedItems: 0, usage: [5, 2], requestId: "up_36" },
  { file: "pk115-pass-resp-dataonly-stream", outcome: "completed", text: "Hi there", functionCalls: [], omittedStreamedItems: 0, usage: [5, 2], requestId: "up_40" },
  { file: "pk115-pass-resp-done-stream", outcome: "completed", text: "Hi there", functionCalls: [], omittedStreamedItems: 0, usage: [5, 2], requestId: "up_42" },
  { file: "pk2-chat-text-stream", outcome: "completed", text: "Hello from the chat upstream.", functionCalls: [], omittedStreamedItems: 0, usage: null, requestId: "up_9" },
  {
    file: "pk2-chat-tool-stream",
    outcome: "completed",
    text: "",
    functionCalls: [{ name: "get_weather", arguments: '{"city":"Paris"}', call_id: "call_up_1" }],
    omittedStreamedItems: 1,
    usage: null,
    requestId: "up_11",
  },
  { file: "pk2-chat-length-stream", outcome: "completed", text: "This answer is cut by the", functionCalls: [], omittedStreamedItems: 0, usage: null, requestId: "up_17" },
];

/** A gateway capture's body and the response headers worth replaying (all but transport framing). */
export function readGatewayCapture(name: string): { body: Buffer; headers: Record<string, string> } {
  const folder = path.join(referenceDirectory, "gateway");
  const headers: Record<string, string> = {};
  for (const line of readFileSync(path.join(folder, `${name}.headers`), "utf8").split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const header = line.slice(0, colon).trim().toLowerCase();
    if (["connection", "keep-alive", "transfer-encoding", "date", "content-type"].includes(header)) continue;
    headers[header] = line.slice(colon + 1).trim();
  }
  return { body: readFileSync(path.join(folder, `${name}.sse`)), headers };
}
