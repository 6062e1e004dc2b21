import type { FunctionToolDefinition, InputItem, ResponseRequest } from "./types";

/** The Responses schema rejects smaller budgets; a smaller setting is raised to this. */
const MIN_MAX_OUTPUT_TOKENS = 16;

export interface RequestParameters {
  model: string;
  /** The request's instructions; blank or absent sends none. */
  instructions?: string | null;
  input: readonly InputItem[];
  tools?: readonly FunctionToolDefinition[];
  toolChoice?: ResponseRequest["tool_choice"];
  include?: readonly string[];
  maxOutputTokens?: number | null;
  reasoningEffort?: string | null;
  stream: boolean;
}

/**
 * Builds the request body. History items are passed through untouched (the service needs them exactly
 * as it sent them); `store` is always false because the client carries the history.
 */
export function buildResponseRequest(parameters: RequestParameters): ResponseRequest {
  const request: ResponseRequest = {
    model: parameters.model,
    ...(parameters.instructions ? { instructions: parameters.instructions } : {}),
    input: [...parameters.input],
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
  return request;
}

/**
 * A user message with plain string content, as the spec shows it. `type: "message"` is sent explicitly:
 * the Open Responses schema requires it, and the service accepts it.
 */
export function userMessage(text: string): InputItem {
  return { type: "message", role: "user", content: text };
}
