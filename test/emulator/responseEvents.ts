import { newId, obfuscationPadding } from "./ids";
import type { PlannedItem } from "./outputPlan";
import { plannedDeltaCount } from "./outputPlan";

/** One streaming event before framing; `sequence_number` is added when it is written. */
export interface WireEvent {
  type: string;
  [field: string]: unknown;
}

export interface WireUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface ResponseContext {
  responseId: string;
  model: string;
  createdAt: number;
  inputTokens: number;
  request: { tools?: unknown; max_output_tokens?: number | null; store?: boolean; instructions?: string | null; include?: unknown };
}

export interface ResponseState {
  status: "in_progress" | "completed" | "incomplete" | "failed";
  output: unknown[];
  usage: WireUsage | null;
  incompleteReason?: string;
  error?: { code: string; message: string };
}

export interface GeneratedResponse {
  events: WireEvent[];
  /** The final response object (what response.completed / .incomplete carry, and the non-stream body). */
  response: Record<string, unknown>;
  outputTokens: number;
  reasoningTokens: number;
}

export function wireUsage(inputTokens: number, outputTokens: number, reasoningTokens: number): WireUsage {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

/** Tools as the service echoes them: every field present, defaults filled (strict defaults to true). */
function normalizedTools(tools: unknown): unknown[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: unknown) => {
    if (typeof tool !== "object" || tool === null) return tool;
    const fields = tool as Record<string, unknown>;
    return {
      type: fields.type,
      description: fields.description ?? null,
      name: fields.name,
      parameters: fields.parameters ?? null,
      strict: fields.strict ?? true,
    };
  });
}

/**
 * The full response resource, field for field in the order the real service sends it, plus
 * `completed_at` and the penalties, which the Open Responses schema requires and newer API versions send.
 */
export function responseObject(context: ResponseContext, state: ResponseState): Record<string, unknown> {
  return {
    id: context.responseId,
    object: "response",
    created_at: context.createdAt,
    // Scripted generation takes no model time, so it completes in the second it was created.
    completed_at: state.status === "completed" ? context.createdAt : null,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: context.request.instructions ?? null,
    max_output_tokens: context.request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: context.model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: context.request.store ?? true,
    temperature: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: normalizedTools(context.request.tools),
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: state.usage,
    user: null,
    metadata: {},
  };
}

interface ItemEvents {
  events: WireEvent[];
  doneItem: Record<string, unknown>;
}

function messageEvents(outputIndex: number, deltas: readonly string[], complete: boolean): ItemEvents {
  const id = newId("msg");
  const text = deltas.join("");
  const finalPart = { type: "output_text", annotations: [], logprobs: [], text };
  const doneItem = { id, type: "message", status: complete ? "completed" : "incomplete", content: [finalPart], role: "assistant" };
  const where = { item_id: id, output_index: outputIndex, content_index: 0 };
  return {
    doneItem,
    events: [
      { type: "response.output_item.added", output_index: outputIndex, item: { id, type: "message", status: "in_progress", content: [], role: "assistant" } },
      { type: "response.content_part.added", ...where, part: { type: "output_text", annotations: [], logprobs: [], text: "" } },
      ...deltas.map((delta) => ({ type: "response.output_text.delta", ...where, delta, logprobs: [], obfuscation: obfuscationPadding(delta.length) })),
      { type: "response.output_text.done", ...where, text, logprobs: [] },
      { type: "response.content_part.done", ...where, part: finalPart },
      { type: "response.output_item.done", output_index: outputIndex, item: doneItem },
    ],
  };
}

function functionCallEvents(outputIndex: number, name: string, deltas: readonly string[], complete: boolean): ItemEvents {
  const id = newId("fc");
  const callId = newId("call", 12);
  const argumentsText = deltas.join("");
  const doneItem = { id, type: "function_call", status: complete ? "completed" : "incomplete", arguments: argumentsText, call_id: callId, name };
  const where = { item_id: id, output_index: outputIndex };
  return {
    doneItem,
    events: [
      { type: "response.output_item.added", output_index: outputIndex, item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name } },
      ...deltas.map((delta) => ({ type: "response.function_call_arguments.delta", ...where, delta, obfuscation: obfuscationPadding(delta.length) })),
      { type: "response.function_call_arguments.done", ...where, arguments: argumentsText },
      { type: "response.output_item.done", output_index: outputIndex, item: doneItem },
    ],
  };
}

/**
 * Reasoning carries `encrypted_content` only when the request asked for it (`include`), as the real
 * service does under `store: false`; without it the item cannot be resent.
 */
function reasoningEvents(outputIndex: number, deltas: readonly string[], encryptedContent: string | null): ItemEvents {
  const id = newId("rs");
  const text = deltas.join("");
  const where = { item_id: id, output_index: outputIndex, summary_index: 0 };
  const encrypted = encryptedContent === null ? {} : { encrypted_content: encryptedContent };
  const doneItem = { id, type: "reasoning", ...encrypted, summary: [{ type: "summary_text", text }] };
  return {
    doneItem,
    events: [
      { type: "response.output_item.added", output_index: outputIndex, item: { id, type: "reasoning", ...encrypted, summary: [] } },
      { type: "response.reasoning_summary_part.added", ...where, part: { type: "summary_text", text: "" } },
      ...deltas.map((delta) => ({ type: "response.reasoning_summary_text.delta", ...where, delta, obfuscation: obfuscationPadding(delta.length) })),
      { type: "response.reasoning_summary_text.done", ...where, text },
      { type: "response.reasoning_summary_part.done", ...where, part: { type: "summary_text", text } },
      { type: "response.output_item.done", output_index: outputIndex, item: doneItem },
    ],
  };
}

function itemEvents(item: PlannedItem, outputIndex: number, allowedDeltas: number, context: ResponseContext): ItemEvents {
  const complete = allowedDeltas >= plannedDeltaCount(item);
  switch (item.kind) {
    case "message":
      return messageEvents(outputIndex, item.deltas.slice(0, allowedDeltas), complete);
    case "function_call":
      return functionCallEvents(outputIndex, item.name, item.argumentDeltas.slice(0, allowedDeltas), complete);
    case "reasoning":
      return reasoningEvents(outputIndex, item.summaryDeltas.slice(0, allowedDeltas), asksForEncryptedReasoning(context) ? item.encryptedContent : null);
  }
}

function asksForEncryptedReasoning(context: ResponseContext): boolean {
  return Array.isArray(context.request.include) && context.request.include.includes("reasoning.encrypted_content");
}

/**
 * Turns a plan into the exact event sequence of a streamed response, cutting it at
 * `max_output_tokens` (one token per delta) the way the service reports `incomplete`.
 */
export function generateResponse(plan: readonly PlannedItem[], context: ResponseContext): GeneratedResponse {
  const inProgress = responseObject(context, { status: "in_progress", output: [], usage: null });
  const events: WireEvent[] = [
    { type: "response.created", response: inProgress },
    { type: "response.in_progress", response: inProgress },
  ];
  let remainingBudget = context.request.max_output_tokens ?? Number.POSITIVE_INFINITY;
  let outputTokens = 0;
  let reasoningTokens = 0;
  let budgetExhausted = false;
  const output: unknown[] = [];
  for (const item of plan) {
    const wanted = plannedDeltaCount(item);
    if (remainingBudget <= 0 && wanted > 0) {
      budgetExhausted = true;
      break;
    }
    const allowed = Math.min(wanted, remainingBudget);
    remainingBudget -= allowed;
    outputTokens += allowed;
    if (item.kind === "reasoning") reasoningTokens += allowed;
    const generated = itemEvents(item, output.length, allowed, context);
    events.push(...generated.events);
    output.push(generated.doneItem);
    if (allowed < wanted) {
      budgetExhausted = true;
      break;
    }
  }
  const usage = wireUsage(context.inputTokens, outputTokens, reasoningTokens);
  const response = budgetExhausted
    ? responseObject(context, { status: "incomplete", output, usage, incompleteReason: "max_output_tokens" })
    : responseObject(context, { status: "completed", output, usage });
  events.push({ type: budgetExhausted ? "response.incomplete" : "response.completed", response });
  return { events, response, outputTokens, reasoningTokens };
}
