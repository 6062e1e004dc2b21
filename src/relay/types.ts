// Wire shapes of the relay's Responses interface, as a client sees them.
// Items the service returns are kept as opaque JSON objects so that unknown kinds and fields survive
// a round trip byte-for-byte; only the fields the client acts on are typed.

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

/** A user (or assistant/system/developer) message with plain string content, as the spec shows it. */
export interface MessageInputItem extends JsonObject {
  type?: "message";
  role: "user" | "assistant" | "system" | "developer";
  content: string;
}

/** The result of a local function run, matched to the proposal by `call_id`. */
export interface FunctionCallOutputItem extends JsonObject {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** Any item taken unchanged from an earlier response's `output` array. */
export interface OutputItem extends JsonObject {
  type: string;
}

export type InputItem = MessageInputItem | FunctionCallOutputItem | OutputItem;

/** The flat Responses layout of a function tool. */
export interface FunctionToolDefinition extends JsonObject {
  type: "function";
  name: string;
  description?: string;
  parameters: JsonObject;
  strict?: boolean;
}

/** The fields of a `function_call` output item a client acts on: what the model proposes to run. */
export interface FunctionCallProposal {
  readonly call_id: string;
  readonly name: string;
  /** The JSON text the model produced; not trusted to be JSON, an object, or valid for the schema. */
  readonly arguments: string;
}

export interface ResponseRequest {
  model: string;
  /** What the model is told (src/instructions/): sent with every request, never carried over by the service. */
  instructions?: string;
  input: InputItem[];
  tools?: FunctionToolDefinition[];
  /** "required" makes the model call a tool (the connection check uses it); absent leaves it to the model. */
  tool_choice?: "auto" | "required" | "none";
  /** `reasoning.encrypted_content` where reasoning is used: under `store: false` it is the only way to resend reasoning. */
  include?: string[];
  max_output_tokens?: number;
  /** How much a reasoning model may think; models without reasoning reject it (the connection check sets it). */
  reasoning?: { effort: string };
  /** Sampling temperature, 0 to 2 (relayChat.modelSettings); absent leaves it to the relay. */
  temperature?: number;
  stream?: boolean;
  /** Always false: history is carried by the client, never stored by the service. */
  store: false;
}

export interface Usage extends JsonObject {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } & JsonObject;
  output_tokens_details?: { reasoning_tokens?: number } & JsonObject;
}

/** One parsed SSE event as the service sent it. `type` comes from the JSON or, failing that, the `event:` line. */
export interface RelayEvent extends JsonObject {
  type: string;
  sequence_number?: number;
}

export interface ServiceError {
  code: string | null;
  message: string;
  type?: string | null;
}

/** What has been learned about one response so far; derived from events by `accumulate`. */
export interface ResponseSnapshot {
  readonly responseId: string | null;
  readonly model: string | null;
  /** The service's own status (`in_progress`, `completed`, `incomplete`, `failed`, `queued`...), or null. */
  readonly status: string | null;
  readonly output: readonly OutputItem[];
  readonly usage: Usage | null;
  readonly incompleteReason: string | null;
  readonly error: ServiceError | null;
  /** Set once a terminal event (completed / incomplete / failed / error) has been seen. */
  readonly terminal: TerminalKind | null;
  /** Events whose type the client does not know: counted, never kept, never fatal. */
  readonly unknownEventCount: number;
  /** Events whose data could not be read (not JSON, or not an object): the answer may be missing what they held. */
  readonly unreadableEventCount: number;
  /** Streamed items that the final response's `output` left out; they are kept in `output` all the same. */
  readonly omittedStreamedItems: number;
  /** Tool calls the answer proposed beyond the most one answer may hold: refused, never run (chunkTranslator.ts). */
  readonly refusedToolCalls: number;
}

export type TerminalKind = "completed" | "incomplete" | "failed" | "error_event";

/** Why a request failed, as far as the client can tell: maps to the spec's "likely causes". */
export type ErrorCause =
  | "address"
  | "key"
  | "model_permission"
  | "quota"
  | "rate_limit"
  | "bad_request"
  /** The request is longer than the model's context window: summarizing earlier turns helps. */
  | "context_length"
  | "server"
  | "network"
  | "stream"
  | "unknown";

/** The one outcome of one HTTP request. Only `completed` is success. */
export type RequestOutcome =
  | { kind: "completed" }
  | { kind: "incomplete"; reason: string | null }
  | { kind: "failed"; code: string | null; message: string }
  | { kind: "error_event"; code: string | null; message: string }
  /**
   * The answer stopped without a final status. `reason`: the client stopped reading because the stream
   * outgrew its size limit, or Relay Chat itself stopped (the editor closed or crashed) during the request.
   */
  | { kind: "interrupted"; bytes: number; events: number; reason?: "size_limit" | "client_stopped" }
  /**
   * `limitMs` is the limit that ran out: the idle limit of a stream, the whole-answer limit of a non-streamed
   * request, or (`withoutContent`) the limit on time without content while keep-alives came (contentWatch.ts).
   */
  | { kind: "timed_out"; limitMs: number; nonStreamed?: true; withoutContent?: true }
  | { kind: "cancelled" }
  | { kind: "http_error"; status: number; code: string | null; message: string; body: string }
  | { kind: "network_error"; code: string | null; message: string };

export type OutcomeKind = RequestOutcome["kind"];

export interface RequestTiming {
  /** Epoch ms when the request was sent. */
  startedAt: number;
  /** ms from send to the first response byte (headers count), or null if none arrived. */
  firstByteMs: number | null;
  /** ms from send to the end of the request, whatever the outcome. */
  totalMs: number;
}

/** Everything recorded about one request, for every outcome, success included. */
export interface RequestResult {
  outcome: RequestOutcome;
  /** Classified cause for anything but `completed`; null on success. */
  cause: ErrorCause | null;
  /** A sentence for the user naming the likely cause and what to do. Never contains the key. */
  explanation: string | null;
  /** For an HTTP error: how long the relay asked to wait before sending again (its Retry-After), or null. Never acted on by itself. */
  retryAfterSeconds: number | null;
  snapshot: ResponseSnapshot;
  /**
   * Usage a receipt may show and a total may add: null when the relay reported none, or only zeros for a
   * non-empty answer (gateways that never ask their upstream). `snapshot.usage` keeps what the relay sent.
   */
  usage: Usage | null;
  /** What the relay says it charged (OpenRouter's `usage.cost`, LiteLLM's cost header), or null when it did not say. */
  billedCost: BilledCost | null;
  httpStatus: number | null;
  /** The request id that matches the relay's usage log: a relay-specific header before a generic one. */
  requestId: string | null;
  /** Every request id the answer carried (each header, the error text), `requestId` first; proxies add their own. */
  requestIds: string[];
  /** The extra, non-secret headers the request was sent with (from the settings); empty when none. */
  extraHeaders: Readonly<Record<string, string>>;
  streamed: boolean;
  timing: RequestTiming;
  bytesReceived: number;
  eventsReceived: number;
}

/** What is known once the relay has answered with headers (before any of the body). */
export interface ResponseHeadersInfo {
  httpStatus: number;
  requestId: string | null;
  requestIds: string[];
}

/** How much of the body has arrived so far. */
export interface StreamProgress {
  bytes: number;
  events: number;
}

/** What `RelayClient.stream` yields: the headers, batches of events with the snapshot after them, then the end. */
export type StreamUpdate =
  | { type: "headers"; headers: ResponseHeadersInfo }
  | { type: "events"; events: readonly RelayEvent[]; snapshot: ResponseSnapshot; progress: StreamProgress }
  | { type: "end"; result: RequestResult };

export interface ModelInfo extends JsonObject {
  id: string;
}

export type ModelListResult =
  | { ok: true; models: ModelInfo[]; requestId: string | null; httpStatus: number }
  | { ok: false; outcome: RequestOutcome; cause: ErrorCause; explanation: string; requestId: string | null; httpStatus: number | null };

/** What the relay says it charged for one request (billedCost.ts reads it from the answer). */
export interface BilledCost {
  amount: number;
  /** ISO 4217 code; every relay that reports a billed cost today bills in US dollars. */
  currency: string;
  /** Where the figure came from, for the receipt's tooltip and the ledger: the usage, or billedCost.ts RESPONSE_COST_HEADER. */
  source: "usage.cost" | "x-litellm-response-cost";
}
