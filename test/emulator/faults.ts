import type { ServerResponse } from "node:http";
import { errorEnvelope, messageWithRequestId, sendJson } from "./errorBodies";
import type { GeneratedResponse, ResponseContext, WireEvent } from "./responseEvents";
import { responseObject } from "./responseEvents";

/** A misbehaviour to apply to the next POST /v1/responses. */
export type Fault =
  /** `response.failed` after some text. */
  | { kind: "failed"; code?: string; message?: string }
  /** An `error` event after HTTP 200 and some text, then the stream ends. */
  | {
      kind: "error_event";
      nested?: boolean;
      code?: string;
      message?: string;
      /** On /v1/chat/completions: a plain `{"error":…}` frame (new-api, one-api), `event: error` (Groq), or an error key on a chunk (OpenRouter). */
      shape?: "plain" | "event" | "chunk";
    }
  /** Destroy the socket after this many body bytes. */
  | { kind: "disconnect"; afterBytes: number }
  /** Stop writing but keep the socket open; by default right after the first delta. */
  | { kind: "stall"; afterBytes?: number }
  /** Wait this long before every delta. */
  | { kind: "drip"; intervalMs: number }
  /** An nginx-style HTML error page from a proxy in front of the relay. */
  | { kind: "html"; status: number }
  /** A JSON error in the usual `{error:{message,type,code}}` envelope. */
  | { kind: "status"; status: number; code?: string; message?: string; retryAfterSeconds?: number }
  | { kind: "non_json"; status: number; body: string }
  /** `{message, code}` without the `error` wrapper, as some relays send. */
  | { kind: "flat_error_body"; status: number; code?: string; message?: string }
  /** Nothing wrong: takes a place in the queue so the fault after it hits the next request. */
  | { kind: "none" }
  /**
   * A relay that breaks function calls only when streaming: argument deltas are dropped and the call
   * items (done events and final output) carry empty arguments. Non-streamed answers are unaffected.
   */
  | { kind: "garble_streamed_calls" };

export type CannedAnswerFault = Extract<Fault, { kind: "html" | "status" | "non_json" | "flat_error_body" }>;
export type EventFault = Extract<Fault, { kind: "failed" | "error_event" }>;
export type TransportFault = Extract<Fault, { kind: "disconnect" | "stall" | "drip" }>;

export function isCannedAnswerFault(fault: Fault): fault is CannedAnswerFault {
  return fault.kind === "html" || fault.kind === "status" || fault.kind === "non_json" || fault.kind === "flat_error_body";
}

export function isEventFault(fault: Fault): fault is EventFault {
  return fault.kind === "failed" || fault.kind === "error_event";
}

export function isTransportFault(fault: Fault): fault is TransportFault {
  return fault.kind === "disconnect" || fault.kind === "stall" || fault.kind === "drip";
}

const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Temporarily Unavailable",
  504: "Gateway Time-out",
};

const DEFAULT_STATUS_ERRORS: Record<number, { type: string; code: string; message: string }> = {
  400: { type: "invalid_request_error", code: "invalid_request", message: "The request was invalid." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "model_not_allowed", message: "This key may not use the requested model." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: { type: "rate_limit_error", code: "rate_limit_exceeded", message: "Rate limit reached for requests. Please try again later." },
  500: { type: "server_error", code: "server_error", message: "The server had an error while processing your request." },
  503: { type: "server_error", code: "service_unavailable", message: "The upstream service is temporarily unavailable." },
};

function nginxErrorPage(status: number): string {
  const title = `${status} ${REASON_PHRASES[status] ?? "Error"}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** Answers the request with the fault's canned body instead of any generation. */
export function sendCannedFault(response: ServerResponse, fault: CannedAnswerFault, requestId: string): void {
  switch (fault.kind) {
    case "html": {
      const page = nginxErrorPage(fault.status);
      response.writeHead(fault.status, { "content-type": "text/html", "content-length": Buffer.byteLength(page), server: "nginx" });
      response.end(page);
      return;
    }
    case "status": {
      const defaults = DEFAULT_STATUS_ERRORS[fault.status] ?? DEFAULT_STATUS_ERRORS[500];
      const headers: Record<string, string> = fault.retryAfterSeconds !== undefined ? { "retry-after": String(fault.retryAfterSeconds) } : {};
      const body = errorEnvelope({ type: defaults.type, code: fault.code ?? defaults.code, message: fault.message ?? defaults.message }, requestId);
      sendJson(response, fault.status, body, headers);
      return;
    }
    case "non_json":
      response.writeHead(fault.status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(fault.body) });
      response.end(fault.body);
      return;
    case "flat_error_body": {
      const defaults = DEFAULT_STATUS_ERRORS[fault.status] ?? DEFAULT_STATUS_ERRORS[500];
      sendJson(response, fault.status, { message: messageWithRequestId(fault.message ?? defaults.message, requestId), code: fault.code ?? defaults.code });
      return;
    }
  }
}

const DELTA_EVENT_TYPES = new Set([
  "response.output_text.delta",
  "response.function_call_arguments.delta",
  "response.reasoning_summary_text.delta",
]);

function isDeltaEvent(event: WireEvent): boolean {
  return DELTA_EVENT_TYPES.has(event.type);
}

/** Events up to and including the second delta ("some text"), or the opening events if none. */
function eventsUntilSomeText(events: readonly WireEvent[]): WireEvent[] {
  let deltasSeen = 0;
  let cutAfter = Math.min(1, events.length - 1);
  for (let index = 0; index < events.length; index += 1) {
    if (!isDeltaEvent(events[index])) continue;
    deltasSeen += 1;
    cutAfter = index;
    if (deltasSeen === 2) break;
  }
  return events.slice(0, cutAfter + 1);
}

export interface FaultedEvents {
  events: WireEvent[];
  /** What the response ended as, for the usage log. */
  outcome: "failed" | "error_event";
  outputTokens: number;
  /** The non-stream answer: the failed response object, or an error envelope with its HTTP status. */
  nonStreamAnswer: { status: number; body: unknown };
}

/** The `garble_streamed_calls` fault: function calls lose their arguments in the stream. */
export function garbleStreamedCalls(events: readonly WireEvent[]): WireEvent[] {
  const withoutArguments = (item: unknown) => (typeof item === "object" && item !== null && (item as { type?: unknown }).type === "function_call" ? { ...item, arguments: "" } : item);
  return events
    .filter((event) => event.type !== "response.function_call_arguments.delta" && event.type !== "response.function_call_arguments.done")
    .map((event) => {
      if (event.type === "response.output_item.done") return { ...event, item: withoutArguments(event.item) };
      if (event.type === "response.completed") {
        const response = event.response as { output: unknown[] };
        return { ...event, response: { ...response, output: response.output.map(withoutArguments) } };
      }
      return event;
    });
}

/** Replaces the tail of a generated stream with a failure after some text has been sent. */
export function applyEventFault(generated: GeneratedResponse, fault: EventFault, context: ResponseContext, requestId: string): FaultedEvents {
  const kept = eventsUntilSomeText(generated.events);
  const outputTokens = kept.filter(isDeltaEvent).length;
  const finishedItems = kept.filter((event) => event.type === "response.output_item.done").map((event) => event.item);
  const code = fault.code ?? "server_error";
  const message = fault.message ?? (fault.kind === "failed" ? "The model failed to complete the response." : "An error occurred while streaming the response.");
  if (fault.kind === "failed") {
    // The real service reports usage null on failed responses.
    const failed = responseObject(context, { status: "failed", output: finishedItems, usage: null, error: { code, message } });
    return { events: [...kept, { type: "response.failed", response: failed }], outcome: "failed", outputTokens, nonStreamAnswer: { status: 200, body: failed } };
  }
  const errorEvent: WireEvent = fault.nested
    ? { type: "error", error: { type: "server_error", code, message, param: null } }
    : { type: "error", code, message, param: null };
  return {
    events: [...kept, errorEvent],
    outcome: "error_event",
    outputTokens,
    nonStreamAnswer: { status: 500, body: errorEnvelope({ type: "server_error", code, message }, requestId) },
  };
}
