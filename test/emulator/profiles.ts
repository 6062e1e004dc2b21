import { supportedEndpointTypesOf } from "./chatOnlyModels";
import type { ServiceErrorFields } from "./errorBodies";
import { messageWithRequestId } from "./errorBodies";
import type { WireEvent } from "./responseEvents";
import type { SseFraming } from "./sseWriter";
import { translatedEvents } from "./translatedStream";

// The relays users have, as emulator profiles (selectable per emulator, per test and in the demo):
// - openai: the strict original. Rejects a resent reasoning item without `encrypted_content` under
//   `store: false` ("Item with id 'rs_…' not found"), and a `function_call` without its output.
// - minimal: a bare relay. No item or part events, no `sequence_number`, no `event:` lines, `: PING`
//   comments, and errors as typeless `{"error":{...}}` frames.
// - new-api: `X-Oneapi-Request-Id`, its error bodies (Chinese messages, empty codes, its status codes),
//   `/v1/models` with `success` and `supported_endpoint_types` (["openai"] for a default channel's model, as
//   new-api lists it; /v1/responses works on it), keep-alive comments.
// - translated: a gateway that turns Responses into Chat Completions and back, shaped like the Portkey 2.x
//   captures in test/fixtures/reference/gateway (see translatedStream.ts).
// - drops-instructions: a gateway that translates to Chat Completions like `translated` but drops the Responses
//   `instructions` field on the way (the model never sees it); a `developer` message in the input gets through.
// - openrouter: a priced model list (`pricing`, `context_length`), `GET /v1/key`, and the billed
//   `usage.cost` in the final event and the body (money endpoints: moneyEndpoints.ts, responseCost.ts).
// - litellm: a LiteLLM proxy: `GET /key/info`, `GET /v1/model/info`, `x-litellm-response-cost` on
//   non-streamed answers and `usage.cost` in a stream's final event.
// - split: a new-api relay whose models split between the wire formats: the chat-only ones (chatOnlyModels.ts)
//   refuse /v1/responses as real relays do; the list shows them as every other model (["openai"]), so only their
//   refusal tells them apart.

export type EmulatorProfile = "openai" | "minimal" | "new-api" | "translated" | "openrouter" | "litellm" | "split" | "drops-instructions";

export const EMULATOR_PROFILES: readonly EmulatorProfile[] = ["openai", "minimal", "new-api", "translated", "openrouter", "litellm", "split", "drops-instructions"];

/** The profile's gateway loses the request's `instructions` field before the model sees it. */
export function dropsInstructions(profile: EmulatorProfile): boolean {
  return profile === "drops-instructions";
}

export function isEmulatorProfile(value: unknown): value is EmulatorProfile {
  return typeof value === "string" && (EMULATOR_PROFILES as readonly string[]).includes(value);
}

/** The request-id header each kind of relay sends (the openai profile keeps the configurable neutral one). */
export function requestIdHeaderOf(profile: EmulatorProfile, configured: string | undefined): string {
  switch (profile) {
    case "new-api":
    case "split":
      return "x-oneapi-request-id";
    case "translated":
    case "drops-instructions":
    case "minimal":
    case "openrouter":
    case "litellm":
      return configured ?? "x-request-id";
    case "openai":
      return configured ?? "x-service-request-id";
  }
}

export function framingOf(profile: EmulatorProfile): SseFraming {
  switch (profile) {
    case "minimal":
      return { eventLines: false, sequenceNumbers: false, pingEvery: 4 };
    case "new-api":
    case "split":
      return { eventLines: true, sequenceNumbers: true, pingEvery: 8 };
    default:
      return { eventLines: true, sequenceNumbers: true, pingEvery: null };
  }
}

const ITEM_AND_PART_EVENTS = new Set([
  "response.output_item.added",
  "response.output_item.done",
  "response.content_part.added",
  "response.content_part.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
]);

/** The profile's version of a generated event sequence (faults already applied). */
export function profileEvents(profile: EmulatorProfile, events: readonly WireEvent[]): WireEvent[] {
  switch (profile) {
    case "minimal":
      return events.filter((event) => !ITEM_AND_PART_EVENTS.has(event.type)).map(typelessError);
    case "translated":
    case "drops-instructions":
      return translatedEvents(events);
    default:
      return [...events];
  }
}

/** `{type:"error", code, message}` or the nested form, as a bare `{"error":{...}}` frame without a type. */
function typelessError(event: WireEvent): WireEvent {
  if (event.type !== "error") return event;
  const { type: _type, ...rest } = event;
  const error = typeof rest.error === "object" && rest.error !== null ? rest.error : { code: rest.code ?? null, message: rest.message, type: "server_error" };
  return { type: "", error } as WireEvent;
}

/** The error body a relay of this kind sends for a rejection. */
export function errorBodyOf(profile: EmulatorProfile, status: number, fields: ServiceErrorFields, requestId: string): { status: number; body: unknown } {
  if (profile !== "new-api" && profile !== "split") {
    return { status, body: { error: { message: messageWithRequestId(fields.message, requestId), type: fields.type, code: fields.code, param: fields.param ?? null } } };
  }
  const mapped = newApiError(status, fields);
  return { status: mapped.status, body: { error: { message: messageWithRequestId(mapped.message, requestId), type: "new_api_error", code: mapped.code } } };
}

/** new-api's wording and codes: Chinese messages, empty codes for key and model errors, 503 for a model without a channel. */
function newApiError(status: number, fields: ServiceErrorFields): { status: number; code: string; message: string } {
  switch (fields.code) {
    case "invalid_api_key":
      return { status: 401, code: "", message: "无效的令牌" };
    case "key_disabled":
      return { status: 401, code: "", message: "该令牌状态不可用" };
    case "key_expired":
      return { status: 401, code: "", message: "该令牌已过期" };
    case "model_not_allowed":
      return { status: 403, code: "", message: `该令牌无权使用模型：${modelNamed(fields.message)}` };
    case "model_not_found":
      return { status: 503, code: "model_not_found", message: `当前分组 default 下对于模型 ${modelNamed(fields.message)} 无可用渠道` };
    case "insufficient_quota":
      return { status: 403, code: "insufficient_user_quota", message: "用户额度不足，剩余额度不足以支付本次请求" };
    case "insufficient_token_quota":
      return { status: 403, code: "pre_consume_token_quota_failed", message: "令牌额度不足" };
    default:
      return { status, code: fields.code ?? "", message: fields.message };
  }
}

function modelNamed(message: string): string {
  return /model '([^']+)'/.exec(message)?.[1] ?? "";
}

/** The model list as this kind of relay sends it; `endpointTypes`: new-api's `supported_endpoint_types` of models not on a default channel. */
export function modelListOf(profile: EmulatorProfile, ids: readonly string[], endpointTypes: Readonly<Record<string, readonly string[]>> = {}): unknown {
  if (profile === "new-api" || profile === "split") {
    return { success: true, object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "openai", supported_endpoint_types: supportedEndpointTypesOf(id, endpointTypes) })) };
  }
  return { object: "list", data: ids.map((id) => ({ id, object: "model", owned_by: "emulator" })) };
}

/**
 * The checks a strict relay makes on a valid body (openai profile only): under `store: false` nothing is
 * kept between requests, so a reasoning item can only come back with its `encrypted_content`, and every
 * `function_call` needs its `function_call_output`.
 */
export function strictInputProblem(profile: EmulatorProfile, body: { input?: unknown; store?: boolean }): ServiceErrorFields | null {
  if (profile !== "openai" || !Array.isArray(body.input)) return null;
  const items = body.input.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null);
  if (body.store === false) {
    const lost = items.find((item) => item.type === "reasoning" && (typeof item.encrypted_content !== "string" || item.encrypted_content === ""));
    if (lost) {
      return {
        message: `Item with id '${String(lost.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        type: "invalid_request_error",
        code: null,
        param: "input",
      };
    }
  }
  const answered = new Set(items.filter((item) => item.type === "function_call_output").map((item) => item.call_id));
  const unanswered = items.find((item) => item.type === "function_call" && !answered.has(item.call_id));
  if (unanswered) return { message: `No tool output found for function call ${String(unanswered.call_id)}.`, type: "invalid_request_error", code: null, param: "input" };
  return null;
}
