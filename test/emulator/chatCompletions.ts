import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccessRejection, EmulatorKey } from "./accessControl";
import { authenticate, checkFunds, checkModelAccess } from "./accessControl";
import { BodyWriter, delay, nextTurn } from "./bodyWriter";
import { scriptedBaseOf } from "./chatOnlyModels";
import type { ServiceErrorFields } from "./errorBodies";
import { sendJson } from "./errorBodies";
import type { Fault } from "./faults";
import { isCannedAnswerFault, sendCannedFault } from "./faults";
import { newId } from "./ids";
import type { PlannedItem } from "./outputPlan";
import { SCRIPTED_DELTA_INTERVAL_MS, planOutput } from "./scriptedModels";
import { SSE_CONTENT_TYPE } from "./sseWriter";
import { missingReasoningRefusal } from "./thinkingModels";
import { countInputTokens } from "./tokenCounting";

// POST /v1/chat/completions, the way OpenAI-compatible relays answer it: chunks with `choices[0].delta`, the
// finish chunk, a usage chunk with empty `choices` when `stream_options.include_usage` asks for it, `data: [DONE]`.
// The scripted models decide what to write (messages become their Responses input). Variants through the queue:
// `disconnect` cuts the stream, `error_event` sends an error after some text in one of the three real shapes
// (`shape`: plain `{"error":…}` frame as new-api/one-api, `event: error` without [DONE] as Groq, an error key on a
// normal chunk with usage as OpenRouter), and `max_tokens` below the answer's length ends it with `length`.

export interface ChatEndpointView {
  keys: EmulatorKey[];
  models: readonly string[];
  balance: number;
  now: () => number;
  deltaIntervalMs: number | undefined;
  cost(inputTokens: number, outputTokens: number): number;
  charge(record: { requestId: string; key: EmulatorKey; model: string; inputTokens: number; outputTokens: number; status: string }): void;
  reject(response: ServerResponse, rejection: AccessRejection, requestId: string): void;
  sendError(response: ServerResponse, status: number, fields: ServiceErrorFields, requestId: string): void;
}

interface ChatBody {
  model?: unknown;
  messages?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
}

export async function answerChatCompletion(view: ChatEndpointView, request: IncomingMessage, response: ServerResponse, requestId: string, parsed: { ok: true; value: unknown } | { ok: false }, fault: Fault | undefined): Promise<void> {
  if (fault && isCannedAnswerFault(fault)) return sendCannedFault(response, fault, requestId);
  const access = authenticate(request.headers.authorization, view.keys, view.now());
  if (!access.ok) return view.reject(response, access.rejection, requestId);
  const body = (parsed.ok && typeof parsed.value === "object" && parsed.value !== null ? parsed.value : {}) as ChatBody;
  if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
    return view.sendError(response, 400, { message: "'model' and 'messages' are required.", type: "invalid_request_error", code: "invalid_request", param: "messages" }, requestId);
  }
  const modelRejection = checkModelAccess(access.key, body.model, view.models);
  if (modelRejection) return view.reject(response, modelRejection, requestId);
  // A thinking model refuses a history that lost the reasoning it streamed, before anything is generated or billed.
  const missingReasoning = missingReasoningRefusal(body.model, body.messages);
  if (missingReasoning) return sendJson(response, missingReasoning.status, missingReasoning.body);
  const { input, instructions } = responsesInputOf(body.messages);
  const inputTokens = countInputTokens(input) + Math.ceil(instructions.length / 4);
  const maxTokens = typeof body.max_tokens === "number" ? body.max_tokens : typeof body.max_completion_tokens === "number" ? body.max_completion_tokens : null;
  const plan = planOutput({ model: scriptedBaseOf(body.model), input, tools: responsesToolsOf(body.tools), tool_choice: body.tool_choice, max_output_tokens: maxTokens, instructions });
  const fundsRejection = checkFunds(access.key, view.balance, view.cost(inputTokens, maxTokens ?? 0));
  if (fundsRejection) return view.reject(response, fundsRejection, requestId);

  const answer = chatAnswer(plan, maxTokens, fault?.kind === "error_event" ? 2 : null);
  view.charge({ requestId, key: access.key, model: body.model, inputTokens, outputTokens: answer.outputTokens, status: fault?.kind === "error_event" ? "error_event" : answer.finishReason === "length" ? "incomplete" : "completed" });
  const id = newId("chatcmpl", 12);
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: inputTokens, completion_tokens: answer.outputTokens, total_tokens: inputTokens + answer.outputTokens, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: answer.reasoningTokens } };
  const chunk = (delta: object, finishReason: string | null = null, extra: object = {}) => ({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null, ...extra });
  if (body.stream !== true) {
    if (fault?.kind === "error_event") return view.sendError(response, 500, { message: fault.message ?? "upstream error", type: "server_error", code: fault.code ?? "server_error" }, requestId);
    const message = { role: "assistant", content: answer.text === "" ? null : answer.text, ...(answer.calls.length > 0 ? { tool_calls: answer.calls.map(({ index: _index, ...call }) => call) } : {}) };
    return sendJson(response, 200, { id, object: "chat.completion", created, model: body.model, choices: [{ index: 0, message, finish_reason: answer.finishReason }], usage });
  }
  const writer = new BodyWriter(response, { disconnectAfterBytes: fault?.kind === "disconnect" ? fault.afterBytes : undefined, stallAfterBytes: fault?.kind === "stall" ? fault.afterBytes : undefined });
  response.writeHead(200, { "content-type": SSE_CONTENT_TYPE, "cache-control": "no-cache" });
  const frames = answer.deltas.map((delta, index) => `data: ${JSON.stringify(chunk(index === 0 ? { role: "assistant", ...delta } : delta))}\n\n`);
  if (fault?.kind === "error_event") {
    const error = { message: fault.message ?? "upstream error: the connection to the provider was reset", type: "upstream_error", code: fault.code ?? "do_request_failed" };
    const shape = fault.shape ?? "plain";
    if (shape === "event") frames.push(`event: error\ndata: ${JSON.stringify({ error: { ...error, status_code: 500 } })}\n\n`);
    else if (shape === "chunk") frames.push(`data: ${JSON.stringify(chunk({ content: "" }, null, { error: { code: 500, message: error.message }, usage }))}\n\n`, "data: [DONE]\n\n");
    else frames.push(`data: ${JSON.stringify({ error })}\n\n`, "data: [DONE]\n\n");
  } else {
    frames.push(`data: ${JSON.stringify(chunk({}, answer.finishReason))}\n\n`);
    if (body.stream_options?.include_usage === true) frames.push(`data: ${JSON.stringify({ ...chunk({}), choices: [], usage })}\n\n`);
    frames.push("data: [DONE]\n\n");
  }
  const interval = fault?.kind === "drip" ? fault.intervalMs : (SCRIPTED_DELTA_INTERVAL_MS[scriptedBaseOf(body.model)] ?? view.deltaIntervalMs);
  for (const frame of frames) {
    if (fault?.kind === "stall" && fault.afterBytes === undefined && frame !== frames[0]) return writer.stall();
    if ((await writer.write(frame)) === "stopped") return;
    if (interval) await delay(interval);
    else await nextTurn();
  }
  writer.end();
}

interface ChatAnswer {
  deltas: object[];
  text: string;
  calls: Array<{ index: number; id: string; type: "function"; function: { name: string; arguments: string } }>;
  finishReason: "stop" | "tool_calls" | "length";
  outputTokens: number;
  reasoningTokens: number;
}

/** One output token per delta, as on the Responses endpoint; `max_tokens` cuts the answer with `length`. `stopAfter` ends after that many deltas (an error follows). */
function chatAnswer(plan: readonly PlannedItem[], maxTokens: number | null, stopAfter: number | null): ChatAnswer {
  const budget = Math.min(maxTokens ?? Infinity, stopAfter ?? Infinity);
  const answer: ChatAnswer = { deltas: [], text: "", calls: [], finishReason: "stop", outputTokens: 0, reasoningTokens: 0 };
  const spend = (): boolean => {
    if (answer.outputTokens >= budget) {
      answer.finishReason = "length";
      return false;
    }
    answer.outputTokens += 1;
    return true;
  };
  for (const item of plan) {
    if (item.kind === "reasoning") {
      for (const piece of item.summaryDeltas) {
        if (!spend()) break;
        answer.deltas.push({ content: null, reasoning_content: piece });
        answer.reasoningTokens += 1;
      }
    } else if (item.kind === "message") {
      for (const piece of item.deltas) {
        if (!spend()) break;
        answer.deltas.push({ content: piece });
        answer.text += piece;
      }
    } else {
      if (answer.outputTokens >= budget) break;
      const call = { index: answer.calls.length, id: newId("call", 12), type: "function" as const, function: { name: item.name, arguments: "" } };
      answer.calls.push(call);
      answer.deltas.push({ content: null, tool_calls: [{ ...call, function: { name: item.name, arguments: "" } }] });
      for (const piece of item.argumentDeltas) {
        if (!spend()) break;
        answer.deltas.push({ tool_calls: [{ index: call.index, function: { arguments: piece } }] });
        call.function.arguments += piece;
      }
    }
  }
  if (answer.finishReason !== "length" && answer.calls.length > 0) answer.finishReason = "tool_calls";
  return answer;
}

/** The messages as the Responses items the scripted models read; the system messages are their instructions. */
function responsesInputOf(messages: unknown[]): { input: unknown[]; instructions: string } {
  const input: unknown[] = [];
  const system: string[] = [];
  for (const raw of messages) {
    const message = (typeof raw === "object" && raw !== null ? raw : {}) as { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };
    if (message.role === "system" || message.role === "developer") system.push(typeof message.content === "string" ? message.content : "");
    else if (message.role === "tool") input.push({ type: "function_call_output", call_id: message.tool_call_id, output: typeof message.content === "string" ? message.content : "" });
    else if (message.role === "user") input.push({ type: "message", role: "user", content: userContentOf(message.content) });
    else if (message.role === "assistant") {
      if (typeof message.content === "string" && message.content !== "") input.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: message.content }] });
      for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }>) : []) {
        input.push({ type: "function_call", call_id: call.id, name: call.function?.name, arguments: call.function?.arguments });
      }
    }
  }
  return { input, instructions: system.join("\n\n") };
}

function userContentOf(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part: { type?: unknown; text?: unknown; image_url?: { url?: unknown } }) =>
    part.type === "image_url" ? { type: "input_image", image_url: part.image_url?.url } : { type: "input_text", text: part.text },
  );
}

/** `{type:"function", function:{name, description, parameters}}` → the flat Responses tool the scripts read. */
function responsesToolsOf(tools: unknown): unknown {
  if (!Array.isArray(tools)) return undefined;
  return tools.map((tool: { function?: Record<string, unknown> }) => ({ type: "function", ...(tool.function ?? {}) }));
}
