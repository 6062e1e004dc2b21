import { createHash } from "node:crypto";
import { buildResponseRequest } from "../relay/requestBuilder";
import type { FunctionToolDefinition, ResponseRequest } from "../relay/types";
import type { Conversation, RequestRecord } from "./conversation";
import { findTurn } from "./conversation";
import { historyBeforeRequest, sendableItems } from "./historyItems";
import { sentInstructionsText } from "./sentInstructions";

// Exactly the request that was sent for a receipt, rebuilt from what each request recorded (its input,
// the instructions and tools it carried, its budget, stream flag and headers) and the history before it, which never
// changes once sent. "Copy as curl" uses it, so the command repeats that request, not one rebuilt from
// the conversation as it is now.

export interface SentRequest {
  /** The body, byte for byte what was sent (`JSON.stringify` of it). */
  body: ResponseRequest;
  /** The extra, non-secret headers it carried; the key is never among them. */
  extraHeaders: Readonly<Record<string, string>>;
  /** "chat": it went over Chat Completions (the body is then said in that wire's words when repeated). */
  protocol?: "chat";
}

/** The request sent for request `requestIndex` of turn `turnId`, or null when there is no such request. */
export function requestSentFor(conversation: Conversation, turnId: string, requestIndex: number): SentRequest | null {
  const turn = findTurn(conversation, turnId);
  const record = turn?.requests[requestIndex];
  if (!turn || !record) return null;
  const instructions = record.instructions ? sentInstructionsText(conversation, record.instructions.hash) : undefined;
  return { body: requestBodyFor(conversation, record, [...historyBeforeRequest(conversation, turn, requestIndex, record.relay), ...record.input], instructions), extraHeaders: record.extraHeaders ?? {}, ...(record.protocol === "chat" ? { protocol: "chat" as const } : {}) };
}

/** The body of a request from its record and its whole input (history and its own items, before filtering). */
export function requestBodyFor(
  conversation: Conversation,
  record: Pick<RequestRecord, "model" | "toolSetId" | "include" | "maxOutputTokens" | "streamed" | "modelSettings" | "instructionsAs" | "protocol">,
  input: Parameters<typeof sendableItems>[0],
  instructions?: string,
): ResponseRequest {
  return buildResponseRequest({
    model: record.model,
    instructions,
    instructionsAs: record.instructionsAs,
    input: sendableItems(input, record.protocol),
    tools: record.toolSetId ? conversation.toolSets?.[record.toolSetId] : undefined,
    include: record.include,
    maxOutputTokens: record.maxOutputTokens,
    reasoningEffort: record.modelSettings?.reasoningEffort,
    temperature: record.modelSettings?.temperature,
    stream: record.streamed,
  });
}

/** Stores a tool list once in the conversation and returns its id; undefined when no tools are offered. */
export function rememberToolSet(conversation: Conversation, tools: readonly FunctionToolDefinition[] | undefined): string | undefined {
  if (!tools || tools.length === 0) return undefined;
  const json = JSON.stringify(tools);
  const id = `tools_${createHash("sha256").update(json).digest("hex").slice(0, 16)}`;
  conversation.toolSets ??= {};
  conversation.toolSets[id] ??= JSON.parse(json) as FunctionToolDefinition[];
  return id;
}
