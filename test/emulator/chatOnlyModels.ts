import type { ServiceErrorFields } from "./errorBodies";
import { DEMO_THINKING_MODEL, THINKING_TOOLS_MODEL } from "./thinkingModels";

// The `split` profile: a new-api relay whose models split between the two wire formats. The scripted models speak
// both; the chat-only ones below (listed by the relay like every other model: ["openai"]) answer /v1/responses the way real relays answer for a model whose channel has no
// Responses support (relays' sources: new-api relay/responses_handler.go → `convert_request_failed`, HTTP 500;
// one-api router NoRoute → 404 "Invalid URL (POST /v1/responses)"; one-api's unsupported routes → 501
// `api_not_implemented`; a gateway's 400 "not supported"). On /v1/chat/completions they answer like the scripted
// model named as their `base`. Every profile serves /v1/chat/completions for every model, as real relays do.

export type ResponsesRefusal = "convert_request_failed" | "invalid_url" | "not_supported" | "not_implemented";

export const CHAT_ONLY_MODELS: Readonly<Record<string, { base: string; refusal: ResponsesRefusal }>> = {
  "deepseek-chat": { base: "demo", refusal: "convert_request_failed" },
  "claude-chat": { base: "tools", refusal: "invalid_url" },
  "qwen-chat": { base: "echo", refusal: "not_supported" },
  "gemini-chat": { base: "thinker", refusal: "not_implemented" },
  // Thinking models that need their reasoning back (thinkingModels.ts).
  "deepseek-reasoner": { base: THINKING_TOOLS_MODEL, refusal: "convert_request_failed" },
  "kimi-k2-thinking": { base: THINKING_TOOLS_MODEL, refusal: "convert_request_failed" },
  // The demo's thinking model (scripts/demo.mjs): it answers what it is asked, as the demo model does.
  "deepseek-v4-flash": { base: DEMO_THINKING_MODEL, refusal: "convert_request_failed" },
};

export const CHAT_ONLY_MODEL_IDS = Object.keys(CHAT_ONLY_MODELS);

/** The scripted model whose answers a model gives (itself, unless it is a chat-only one). */
export function scriptedBaseOf(model: string): string {
  return CHAT_ONLY_MODELS[model]?.base ?? model;
}

/** How the relay answers a Responses request for `model`, or null when it has Responses. */
export function responsesRefusalOf(model: unknown): { status: number; fields: ServiceErrorFields } | null {
  const refusal = typeof model === "string" ? CHAT_ONLY_MODELS[model]?.refusal : undefined;
  switch (refusal) {
    case "convert_request_failed":
      return { status: 500, fields: { message: "not implemented", type: "new_api_error", code: "convert_request_failed", param: "" } };
    case "invalid_url":
      return { status: 404, fields: { message: "Invalid URL (POST /v1/responses)", type: "invalid_request_error", code: "", param: "" } };
    case "not_supported":
      return { status: 400, fields: { message: `The model ${String(model)} does not support the /v1/responses endpoint; use /v1/chat/completions.`, type: "invalid_request_error", code: "unsupported_endpoint", param: "" } };
    case "not_implemented":
      return { status: 501, fields: { message: "API not implemented", type: "one_api_error", code: "api_not_implemented", param: "" } };
    default:
      return null;
  }
}

/**
 * new-api's `supported_endpoint_types` for a model (common/endpoint_type.go GetEndpointTypesByChannelType: "all
 * channels support the OpenAI endpoint"): ["openai"] for every model of a default (OpenAI-type) channel, whether
 * or not its /v1/responses works, so the chat-only models above are listed as every other one and found only by
 * their refusal. `overrides` lists a model as other channels do: ["openai-response"] for a Responses-only model,
 * ["anthropic", "openai"] or ["gemini", "openai"] for Anthropic and Gemini channels.
 */
export function supportedEndpointTypesOf(model: string, overrides: Readonly<Record<string, readonly string[]>> = {}): string[] {
  return [...(overrides[model] ?? ["openai"])];
}
