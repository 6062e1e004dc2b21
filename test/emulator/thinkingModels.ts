// Thinking models over Chat Completions, the way DeepSeek (V3.2, V4 thinking mode) and Kimi K2 (thinking) answer:
// they stream `reasoning_content` before what they write, and refuse a follow-up whose assistant message with tool
// calls comes back without the `reasoning_content` it was streamed with. The bodies are the real ones, as users of
// other clients reported them in 2026: DeepSeek's (e.g. dataelement/Clawith#570, JohnnyZ93/oai-compatible-copilot#202)
// and Kimi's (VicBilibily/GCMP#162, MoonshotAI/kimi-agent-sdk#169), both HTTP 400. They are chat-only models
// (chatOnlyModels.ts): on the split profile deepseek-reasoner and kimi-k2-thinking answer like the scripted
// `thinking-tools` model; the demo relay's deepseek-v4-flash (DeepSeek V4 thinks by default) like `demo-thinking`.

/** The scripted model these answer like: reasoning first, then the `tools` model's tool call or answer. */
export const THINKING_TOOLS_MODEL = "thinking-tools";

/** The scripted model the demo's thinking model answers like: reasoning first, then what the `demo` model writes. */
export const DEMO_THINKING_MODEL = "demo-thinking";

export type ThinkingRelay = "deepseek" | "kimi";

/** The thinking models and whose refusal each gives. */
export const THINKING_MODELS: Readonly<Record<string, ThinkingRelay>> = {
  "deepseek-reasoner": "deepseek",
  "kimi-k2-thinking": "kimi",
  "deepseek-v4-flash": "deepseek",
};

/** The refusal of a request whose history lacks reasoning the model needs back, or null when it has it all. */
export function missingReasoningRefusal(model: string, messages: readonly unknown[]): { status: 400; body: unknown } | null {
  const relay = THINKING_MODELS[model];
  if (relay === undefined) return null;
  const index = messages.findIndex((message) => {
    const record = typeof message === "object" && message !== null ? (message as Record<string, unknown>) : {};
    return record.role === "assistant" && Array.isArray(record.tool_calls) && record.tool_calls.length > 0 && typeof record.reasoning_content !== "string";
  });
  if (index === -1) return null;
  if (relay === "deepseek") {
    return { status: 400, body: { error: { message: "The `reasoning_content` in the thinking mode must be passed back to the API.", type: "invalid_request_error", param: null, code: "invalid_request_error" } } };
  }
  return { status: 400, body: { error: { type: "invalid_request_error", message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}` }, type: "error" } };
}
