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
