import { request as httpRequest } from "undici";
import type { Dispatcher } from "undici";
import { accumulateEvents, emptySnapshot, isObject, snapshotFromResponseBody } from "./accumulate";
import { endpointUrl, normalizeBaseUrl } from "./baseUrl";
import { classifyHttpError, classifyLocalOutcome, classifyNetworkError, classifyServiceError } from "./errorClassifier";
import type { ClassifiedError } from "./errorClassifier";
import { createDispatcher } from "./proxy";
import { redactSecrets } from "./redact";
import { DEFAULT_REQUEST_ID_HEADERS, requestIdFromHeaders, requestIdFromMessage } from "./requestId";
import { SseEventDecoder } from "./sseDecoder";
import type { ModelInfo, ModelListResult, RelayEvent, RequestOutcome, RequestResult, ResponseRequest, ResponseSnapshot, StreamUpdate } from "./types";

export interface RelayClientOptions {
  baseUrl: string | null | undefined;
  apiKey: string | null | undefined;
  /** Headers that may carry the request id, tried in order. */
  requestIdHeaders?: readonly string[];
  /** Longest silence between bytes before the request is given up as `timed_out`. */
  idleTimeoutMs?: number;
  proxyUrl?: string | null;
  strictSsl?: boolean;
  /** Injected connection pool; the default honours the proxy options and the environment. */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Called once per received chunk that completed at least one event. */
  onEvents?: (events: readonly RelayEvent[], snapshot: ResponseSnapshot) => void;
}

/** Thrown by the constructor when the client cannot be configured; `cause` names what to fix. */
export class RelayConfigurationError extends Error {
  override readonly name = "RelayConfigurationError";
  constructor(
    message: string,
    readonly problem: "address" | "key",
  ) {
    super(message);
  }
}

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
const MAX_ERROR_BODY_BYTES = 256 * 1024;
const TIMEOUT_CODES = new Set(["UND_ERR_BODY_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT"]);

/**
 * Talks to one relay with one key. Every call is exactly one HTTP request: nothing is retried, because a
 * retry is a new, possibly billed request that only the user may ask for.
 */
export class RelayClient {
  readonly root: string;
  readonly baseUrlAdjustments: readonly string[];
  private readonly apiKey: string;
  private readonly requestIdHeaders: readonly string[];
  private readonly idleTimeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private readonly userAgent: string;

  constructor(options: RelayClientOptions) {
    let normalized;
    try {
      normalized = normalizeBaseUrl(options.baseUrl);
    } catch (error) {
      throw new RelayConfigurationError((error as Error).message, "address");
    }
    if (!options.apiKey || !options.apiKey.trim()) {
      throw new RelayConfigurationError("No API key is set. Set it with \"Relay Chat: Set API Key\" or the RELAY_CHAT_API_KEY environment variable.", "key");
    }
    this.root = normalized.root;
    this.baseUrlAdjustments = normalized.adjustments;
    this.apiKey = options.apiKey.trim();
    this.requestIdHeaders = options.requestIdHeaders?.length ? options.requestIdHeaders : DEFAULT_REQUEST_ID_HEADERS;
    this.idleTimeoutMs = options.idleTimeoutMs && options.idleTimeoutMs > 0 ? options.idleTimeoutMs : DEFAULT_IDLE_TIMEOUT_MS;
    this.dispatcher = options.dispatcher ?? createDispatcher({ proxyUrl: options.proxyUrl, strictSsl: options.strictSsl });
    this.userAgent = options.userAgent ?? "relay-chat";
  }

  /**
   * Sends a request and yields event batches as they arrive, then exactly one `end` with the result.
   * Stop early through the signal (the result is then `cancelled`); breaking out of the loop also aborts
   * the HTTP request, but yields no result.
   */
  async *stream(request: ResponseRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<StreamUpdate, void, undefined> {
    const exchange = new Exchange(this.apiKey, this.requestIdHeaders, request.stream === true);
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    options.signal?.addEventListener("abort", onOuterAbort, { once: true });
    if (options.signal?.aborted) abort.abort();
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await httpRequest(endpointUrl(this.root, "responses"), {
          method: "POST",
          dispatcher: this.dispatcher,
          headers: this.headers(request.stream ? "text/event-stream" : "application/json", true),
          body: JSON.stringify(request),
          signal: abort.signal,
          headersTimeout: this.idleTimeoutMs,
          bodyTimeout: this.idleTimeoutMs,
        });
      } catch (error) {
        yield { type: "end", result: exchange.finishThrown(error, abort.signal.aborted, this.idleTimeoutMs) };
        return;
      }
      exchange.receivedHeaders(response);
      const contentType = headerText(response.headers["content-type"]);
      if (response.statusCode < 200 || response.statusCode >= 300 || !/text\/event-stream/i.test(contentType)) {
        const body = await exchange.readBody(response, abort.signal.aborted).catch((error: unknown) => error as Error);
        if (body instanceof Error) {
          yield { type: "end", result: exchange.finishThrown(body, abort.signal.aborted, this.idleTimeoutMs) };
          return;
        }
        yield { type: "end", result: exchange.finishWholeBody(response.statusCode, body, contentType) };
        return;
      }
      const decoder = new SseEventDecoder();
      let thrown: unknown = null;
      try {
        for await (const chunk of response.body) {
          const events = decoder.push(exchange.countBytes(chunk as Buffer));
          if (events.length === 0) continue;
          exchange.applyEvents(events);
          yield { type: "events", events, snapshot: exchange.snapshot };
          // After a final status the answer is settled; an `error` event may still be followed by
          // `response.failed`, so only the response.* terminals end the read early.
          if (exchange.snapshot.terminal && exchange.snapshot.terminal !== "error_event") break;
        }
        const rest = decoder.end();
        if (rest.length > 0) {
          exchange.applyEvents(rest);
          yield { type: "events", events: rest, snapshot: exchange.snapshot };
        }
      } catch (error) {
        thrown = error;
      }
      response.body.destroy();
      yield { type: "end", result: exchange.finishStream(thrown, abort.signal.aborted, this.idleTimeoutMs) };
    } finally {
      options.signal?.removeEventListener("abort", onOuterAbort);
      abort.abort();
    }
  }

  /** Sends one request (streamed or not, as the request says) and resolves with its result. */
  async send(request: ResponseRequest, options: SendOptions = {}): Promise<RequestResult> {
    for await (const update of this.stream(request, { signal: options.signal })) {
      if (update.type === "events") options.onEvents?.(update.events, update.snapshot);
      else return update.result;
    }
    throw new Error("The relay stream ended without a result; this is a bug in Relay Chat.");
  }

  /** `GET /v1/models`: the models this key may see (a listed model may still lack a feature). */
  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelListResult> {
    const exchange = new Exchange(this.apiKey, this.requestIdHeaders, false);
    let response: Dispatcher.ResponseData;
    let body: string;
    try {
      response = await httpRequest(endpointUrl(this.root, "models"), {
        method: "GET",
        dispatcher: this.dispatcher,
        headers: this.headers("application/json", false),
        signal: options.signal,
        headersTimeout: this.idleTimeoutMs,
        bodyTimeout: this.idleTimeoutMs,
      });
      exchange.receivedHeaders(response);
      body = await exchange.readBody(response, false);
    } catch (error) {
      const result = exchange.finishThrown(error, options.signal?.aborted === true, this.idleTimeoutMs);
      return { ok: false, outcome: result.outcome, cause: result.cause ?? "network", explanation: result.explanation ?? "", requestId: result.requestId, httpStatus: result.httpStatus };
    }
    const contentType = headerText(response.headers["content-type"]);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const models = parseModelList(body);
      if (models) return { ok: true, models, requestId: exchange.requestId, httpStatus: response.statusCode };
    }
    const classified = exchange.redactClassified(classifyHttpError(response.statusCode, body, contentType));
    const requestId = exchange.requestId ?? requestIdFromMessage(classified.message);
    const explanation = response.statusCode < 300 ? `The model list is not in the expected form ({"data":[{"id":...}]}). ${classified.explanation}` : classified.explanation;
    return {
      ok: false,
      outcome: { kind: "http_error", status: response.statusCode, code: classified.code, message: classified.message, body: exchange.redact(body.slice(0, 2000)) },
      cause: classified.cause ?? "unknown",
      explanation,
      requestId,
      httpStatus: response.statusCode,
    };
  }

  /** Releases pooled connections; call when the client is replaced. */
  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }

  private headers(accept: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept, "user-agent": this.userAgent };
    if (hasBody) headers["content-type"] = "application/json";
    return headers;
  }
}

function parseModelList(body: string): ModelInfo[] | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isObject(parsed) || !Array.isArray(parsed.data)) return null;
    return parsed.data.filter((entry) => isObject(entry) && typeof entry.id === "string") as ModelInfo[];
  } catch {
    return null;
  }
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : value ?? "";
}

/** Bookkeeping of one HTTP exchange: timing, bytes, request id, snapshot, and the final result. */
class Exchange {
  snapshot: ResponseSnapshot = emptySnapshot;
  requestId: string | null = null;
  private httpStatus: number | null = null;
  private bytes = 0;
  private eventsReceived = 0;
  private readonly startedAt = Date.now();
  private readonly startedClock = performance.now();
  private firstByteMs: number | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly requestIdHeaders: readonly string[],
    private readonly streamed: boolean,
  ) {}

  receivedHeaders(response: Dispatcher.ResponseData): void {
    this.firstByteMs = performance.now() - this.startedClock;
    this.httpStatus = response.statusCode;
    this.requestId = requestIdFromHeaders(response.headers, this.requestIdHeaders);
  }

  countBytes(chunk: Buffer): Buffer {
    this.bytes += chunk.length;
    return chunk;
  }

  applyEvents(events: readonly RelayEvent[]): void {
    this.snapshot = accumulateEvents(this.snapshot, events);
    this.eventsReceived += events.length;
  }

  async readBody(response: Dispatcher.ResponseData, aborted: boolean): Promise<string> {
    const chunks: Buffer[] = [];
    let kept = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      this.bytes += buffer.length;
      if (kept < MAX_ERROR_BODY_BYTES) {
        chunks.push(buffer);
        kept += buffer.length;
      }
    }
    if (aborted) throw new Error("aborted");
    return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
  }

  /** A body that is not an SSE stream: an error page, an error envelope, or a whole response object. */
  finishWholeBody(status: number, body: string, contentType: string): RequestResult {
    if (status >= 200 && status < 300) {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = null;
      }
      // A response object (with or without an `error` field) is read by its status; anything else is an error body.
      if (isObject(parsed) && typeof parsed.status === "string") {
        this.snapshot = snapshotFromResponseBody(parsed);
        return this.result(outcomeOfWholeBody(this.snapshot));
      }
    }
    const classified = this.redactClassified(classifyHttpError(status, body, contentType));
    this.requestId ??= requestIdFromMessage(classified.message);
    return this.result({ kind: "http_error", status, code: classified.code, message: classified.message, body: this.redact(body.slice(0, 2000)) }, classified);
  }

  finishStream(thrown: unknown, aborted: boolean, idleTimeoutMs: number): RequestResult {
    const snapshot = this.snapshot;
    if (snapshot.terminal) return this.result(outcomeOfTerminal(snapshot, this.eventsReceived));
    if (aborted) return this.result({ kind: "cancelled" });
    if (thrown && TIMEOUT_CODES.has(codeOf(thrown))) return this.result({ kind: "timed_out", idleMs: idleTimeoutMs });
    return this.result({ kind: "interrupted", bytes: this.bytes, events: this.eventsReceived });
  }

  finishThrown(error: unknown, aborted: boolean, idleTimeoutMs: number): RequestResult {
    if (aborted) return this.result({ kind: "cancelled" });
    if (TIMEOUT_CODES.has(codeOf(error))) return this.result({ kind: "timed_out", idleMs: idleTimeoutMs });
    // Once the relay has answered, a broken body is an interrupted answer (possibly billed), not a
    // failure to reach the relay.
    if (this.httpStatus !== null) return this.result({ kind: "interrupted", bytes: this.bytes, events: this.eventsReceived });
    const classified = this.redactClassified(classifyNetworkError(error));
    return this.result({ kind: "network_error", code: classified.code, message: classified.message }, classified);
  }

  redact(text: string): string {
    return redactSecrets(text, [this.apiKey]);
  }

  redactClassified(classified: ClassifiedError): ClassifiedError {
    return { ...classified, message: this.redact(classified.message), explanation: this.redact(classified.explanation) };
  }

  private result(unredacted: RequestOutcome, classified?: ClassifiedError): RequestResult {
    // Error text from the service may quote the key; nothing leaves the client unredacted.
    const outcome = "message" in unredacted ? { ...unredacted, message: this.redact(unredacted.message) } : unredacted;
    if (this.snapshot.error) this.snapshot = { ...this.snapshot, error: { ...this.snapshot.error, message: this.redact(this.snapshot.error.message) } };
    const explained = classified ?? this.classifyOutcome(outcome);
    if (explained) this.requestId ??= requestIdFromMessage(explained.message);
    return {
      outcome,
      cause: outcome.kind === "completed" ? null : explained?.cause ?? null,
      explanation: explained ? explained.explanation : null,
      snapshot: this.snapshot,
      httpStatus: this.httpStatus,
      requestId: this.requestId,
      streamed: this.streamed,
      timing: { startedAt: this.startedAt, firstByteMs: this.firstByteMs, totalMs: performance.now() - this.startedClock },
      bytesReceived: this.bytes,
      eventsReceived: this.eventsReceived,
    };
  }

  private classifyOutcome(outcome: RequestOutcome): ClassifiedError | null {
    switch (outcome.kind) {
      case "failed":
      case "error_event":
        return this.redactClassified(classifyServiceError(outcome.code, outcome.message));
      case "incomplete":
        return {
          cause: "stream",
          code: outcome.reason,
          message: `incomplete: ${outcome.reason ?? "no reason given"}`,
          explanation:
            outcome.reason === "max_output_tokens"
              ? "The answer stopped at the output budget (max_output_tokens). Continue or retry with a larger budget; either is a new, possibly billed request."
              : `The relay stopped before the answer was complete (${outcome.reason ?? "no reason given"}).`,
        };
      default:
        return classifyLocalOutcome(outcome);
    }
  }
}

function outcomeOfTerminal(snapshot: ResponseSnapshot, eventsReceived: number): RequestOutcome {
  switch (snapshot.terminal) {
    case "completed":
      // A `response.completed` event whose response says otherwise is not trusted as success.
      return snapshot.status === null || snapshot.status === "completed" ? { kind: "completed" } : outcomeOfWholeBody(snapshot);
    case "incomplete":
      return { kind: "incomplete", reason: snapshot.incompleteReason };
    case "failed":
      return { kind: "failed", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? "The response failed without a message." };
    case "error_event":
      return { kind: "error_event", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? "The stream reported an error." };
    default:
      return { kind: "interrupted", bytes: 0, events: eventsReceived };
  }
}

/** A whole response body is success only when its status is `completed`. */
function outcomeOfWholeBody(snapshot: ResponseSnapshot): RequestOutcome {
  switch (snapshot.status) {
    case "completed":
      return { kind: "completed" };
    case "incomplete":
      return { kind: "incomplete", reason: snapshot.incompleteReason };
    case "failed":
      return { kind: "failed", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? "The response failed without a message." };
    default:
      return {
        kind: "failed",
        code: snapshot.status ? `status_${snapshot.status}` : null,
        message: `The relay returned status "${snapshot.status ?? "none"}" instead of "completed"; the answer is not complete.`,
      };
  }
}

function codeOf(error: unknown): string {
  return error && typeof error === "object" && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "";
}
