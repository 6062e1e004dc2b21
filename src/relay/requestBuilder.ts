import type { FunctionToolDefinition, InputItem, ResponseRequest } from "./types";

/**
 * How a relay takes the request's instructions: the Responses `instructions` field, or (for gateways that drop
 * that field, often ones translating to Chat Completions) a `developer` message first in the input.
 */
export type InstructionsAs = "instructions" | "developer";

/** Where a request's instructions travel on the wire: the Responses field, a developer message, or Chat Completions' system message. */
export type InstructionsCarrier = "instructions" | "developer" | "system";

/** How the request built here carries its instructions (Chat Completions maps either form to the first system message). */
export function instructionsCarrier(wire: "responses" | "chat", instructionsAs: InstructionsAs | undefined): InstructionsCarrier {
  if (wire === "chat") return "system";
  return instructionsAs === "developer" ? "developer" : "instructions";
}

/** The Responses schema rejects smaller budgets; a smaller setting is raised to this. */
const MIN_MAX_OUTPUT_TOKENS = 16;

export interface RequestParameters {
  model: string;
  /** The request's instructions; blank or absent sends none. */
  instructions?: string | null;
  /** Where the instructions go; the `instructions` field unless the relay was found to ignore it. */
  instructionsAs?: InstructionsAs;
  input: readonly InputItem[];
  tools?: readonly FunctionToolDefinition[];
  toolChoice?: ResponseRequest["tool_choice"];
  include?: readonly string[];
  maxOutputTokens?: number | null;
  reasoningEffort?: string | null;
  temperature?: number | null;
  stream: boolean;
}

/**
 * Builds the request body. History items are passed through untouched (the service needs them exactly
 * as it sent them); `store` is always false because the client carries the history.
 */
export function buildResponseRequest(parameters: RequestParameters): ResponseRequest {
  const asMessage = parameters.instructions && parameters.instructionsAs === "developer";
  const request: ResponseRequest = {
    model: parameters.model,
    ...(parameters.instructions && !asMessage ? { instructions: parameters.instructions } : {}),
    input: asMessage ? [developerMessage(parameters.instructions as string), ...parameters.input] : [...parameters.input],
    stream: parameters.stream,
    store: false,
  };
  if (parameters.tools && parameters.tools.length > 0) request.tools = [...parameters.tools];
  if (parameters.toolChoice && request.tools) request.tool_choice = parameters.toolChoice;
  if (parameters.include && parameters.include.length > 0) request.include = [...parameters.include];
  if (parameters.maxOutputTokens && parameters.maxOutputTokens > 0) {
    request.max_output_tokens = Math.max(MIN_MAX_OUTPUT_TOKENS, Math.floor(parameters.maxOutputTokens));
  }
  if (parameters.reasoningEffort) request.reasoning = { effort: parameters.reasoningEffort };
  if (typeof parameters.temperature === "number") request.temperature = parameters.temperature;
  return request;
}

/** The instructions as the first input item, for a relay that drops the `instructions` field. */
export function developerMessage(text: string): InputItem {
  return { type: "message", role: "developer", content: text };
}

/**
 * A user message with plain string content, as the spec shows it. `type: "message"` is sent explicitly:
 * the Open Responses schema requires it, and the service accepts it.
 */
export function userMessage(text: string): InputItem {
  return { type: "message", role: "user", content: text };
}
