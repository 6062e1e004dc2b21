import * as l10n from "@vscode/l10n";
import { request as httpRequest } from "undici";
import type { Dispatcher } from "undici";
import { endpointUrl, normalizeBaseUrl } from "./baseUrl";
import { classifyHttpError } from "./errorClassifier";
import { Exchange } from "./exchange";
import { ContentWatch, DEFAULT_CONTENT_TIMEOUT_MS } from "./contentWatch";
import { checkExtraHeaders } from "./extraHeaders";
import { isObject } from "./outputItems";
import { createDispatcher } from "./proxy";
import { redactJson } from "./redact";
import { relayGetJson } from "./relayGet";
import type { RelayGetOptions, RelayGetResult } from "./relayGet";
import { DEFAULT_REQUEST_ID_HEADERS, requestIdFromMessage } from "./requestId";
import { wireFor } from "./chatCompletions/wire";
import type { WireProtocol } from "./chatCompletions/wire";
import type { ModelInfo, ModelListResult, RelayEvent, RequestResult, ResponseHeadersInfo, ResponseRequest, ResponseSnapshot, StreamProgress, StreamUpdate } from "./types";

export interface RelayClientOptions {
  baseUrl: string | null | undefined;
  apiKey: string | null | undefined;
  /** Headers that may carry the request id; relay-specific ones are trusted before the generic x-request-id. */
  requestIdHeaders?: readonly string[];
  /** Longest silence between bytes of a stream before the request is given up as `timed_out`. */
  idleTimeoutMs?: number;
  /**
   * Longest time a stream may go without content (text, reasoning, tool calls) while keep-alives keep it open,
   * before it is given up as `timed_out` (contentWatch.ts).
   */
  contentTimeoutMs?: number;
  /** How long a non-streamed request may take in all: the relay sends nothing until the whole answer is ready. */
  nonStreamTimeoutMs?: number;
  /**
   * How long to keep reading after an `error` event for the `response.failed` that may follow it. Keep-alive
   * comments keep the idle limit from running out, so without this a relay that only pings on would never end.
   */
  errorGraceMs?: number;
  /** A stream (or whole body) larger than this is stopped and classified, with the text so far kept. */
  maxStreamBytes?: number;
  /** Non-secret headers sent on every request (gateways route by them); checked by `checkExtraHeaders`. */
  extraHeaders?: Readonly<Record<string, unknown>>;
  proxyUrl?: string | null;
  strictSsl?: boolean;
  /** Injected connection pool; the default honours the proxy options and the environment. */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** The wire the request goes over: /v1/responses unless "chat" (/v1/chat/completions); the result reads the same. */
  protocol?: WireProtocol;
  /** Called once when the relay has answered with headers, before the body: the request id is known. */
  onHeaders?: (headers: ResponseHeadersInfo) => void;
  /** Called once per received chunk that completed at least one event. */
  onEvents?: (events: readonly RelayEvent[], snapshot: ResponseSnapshot, progress: StreamProgress) => void;
}

/** Thrown by the constructor when the client cannot be configured; `problem` names what to fix. */
export class RelayConfigurationError extends Error {
  override readonly name = "RelayConfigurationError";
  constructor(
    message: string,
    readonly problem: "address" | "key" | "headers",
  ) {
    super(message);
  }
}

const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
const DEFAULT_NON_STREAM_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_STREAM_BYTES = 64 * 1024 * 1024;
const DEFAULT_ERROR_GRACE_MS = 3_000;
const MAX_ERROR_BODY_BYTES = 256 * 1024;
const FINAL_STATUS_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * Talks to one relay with one key. Every call is exactly one HTTP request: nothing is retried, because a
 * retry is a new, possibly billed request that only the user may ask for.
 */
export class RelayClient {
  readonly root: string;
  readonly baseUrlAdjustments: readonly string[];
  /** The extra headers every request carries, already checked; shown in "Copy as curl". */
  readonly extraHeaders: Readonly<Record<string, string>>;
  private readonly apiKey: string;
  private readonly requestIdHeaders: readonly string[];
  private readonly idleTimeoutMs: number;
  private readonly contentTimeoutMs: number;
  private readonly nonStreamTimeoutMs: number;
  private readonly maxStreamBytes: number;
  private readonly errorGraceMs: number;
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
      throw new RelayConfigurationError(l10n.t('No API key is set. Set it with "Relay Chat: Set API Key" or the RELAY_CHAT_API_KEY environment variable.'), "key");
    }
    const headers = checkExtraHeaders(options.extraHeaders);
    if (!headers.ok) throw new RelayConfigurationError(headers.problem, "headers");
    this.root = normalized.root;
    this.baseUrlAdjustments = normalized.adjustments;
    this.extraHeaders = Object.freeze(headers.headers);
    this.apiKey = options.apiKey.trim();
    this.requestIdHeaders = options.requestIdHeaders?.length ? options.requestIdHeaders : DEFAULT_REQUEST_ID_HEADERS;
    this.idleTimeoutMs = positiveOr(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
    this.contentTimeoutMs = positiveOr(options.contentTimeoutMs, DEFAULT_CONTENT_TIMEOUT_MS);
    this.nonStreamTimeoutMs = positiveOr(options.nonStreamTimeoutMs, DEFAULT_NON_STREAM_TIMEOUT_MS);
    this.maxStreamBytes = positiveOr(options.maxStreamBytes, DEFAULT_MAX_STREAM_BYTES);
    this.errorGraceMs = positiveOr(options.errorGraceMs, DEFAULT_ERROR_GRACE_MS);
    this.dispatcher = options.dispatcher ?? createDispatcher({ proxyUrl: options.proxyUrl, strictSsl: options.strictSsl });
    this.userAgent = options.userAgent ?? "relay-chat";
  }

  /**
   * Sends a request and yields the headers, then event batches as they arrive, then exactly one `end`
   * with the result. Stop early through the signal (the result is then `cancelled`); breaking out of the
   * loop also aborts the HTTP request, but yields no result.
   */
  async *stream(request: ResponseRequest, options: { signal?: AbortSignal; protocol?: WireProtocol } = {}): AsyncGenerator<StreamUpdate, void, undefined> {
    const streamed = request.stream === true;
    const wire = wireFor(options.protocol, request);
    // A non-streamed answer arrives in one piece when it is all written, so it gets its own, longer limit.
    const timeoutMs = streamed ? this.idleTimeoutMs : this.nonStreamTimeoutMs;
    const exchange = new Exchange({ apiKey: this.apiKey, requestIdHeaders: this.requestIdHeaders, streamed, extraHeaders: this.extraHeaders, timeoutMs, contentTimeoutMs: this.contentTimeoutMs });
    const abort = new AbortController();
    const sentAt = performance.now();
    const onOuterAbort = () => abort.abort();
    options.signal?.addEventListener("abort", onOuterAbort, { once: true });
    if (options.signal?.aborted) abort.abort();
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await httpRequest(endpointUrl(this.root, wire.endpoint), {
          method: "POST",
          dispatcher: this.dispatcher,
          headers: this.headers(streamed ? "text/event-stream" : "application/json", true),
          body: wire.body,
          signal: abort.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        yield { type: "end", result: exchange.finishThrown(error, abort.signal.aborted) };
        return;
      }
      yield { type: "headers", headers: exchange.receivedHeaders(response) };
      const contentType = headerText(response.headers["content-type"]);
      const success = response.statusCode >= 200 && response.statusCode < 300;
      const chunks = response.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      // Some relays label their event stream text/plain (or nothing): a success body is read as a stream
      // when it begins like one, whatever its label says.
      const opening = success && !/text\/event-stream/i.test(contentType) ? await readOpening(chunks).catch((error: unknown) => error as Error) : [];
      if (opening instanceof Error) {
        yield { type: "end", result: exchange.finishThrown(opening, abort.signal.aborted) };
        return;
      }
      const body = withOpening(opening, chunks);
      if (!success || (!/text\/event-stream/i.test(contentType) && !looksLikeEventStream(opening))) {
        const whole = await exchange.readBody(body, success ? this.maxStreamBytes : MAX_ERROR_BODY_BYTES).catch((error: unknown) => error as Error);
        response.body.destroy();
        if (whole instanceof Error || abort.signal.aborted) {
          yield { type: "end", result: exchange.finishThrown(whole, abort.signal.aborted) };
          return;
        }
        if (success && whole.overflowed) {
          yield { type: "end", result: exchange.finishOversizedBody() };
          return;
        }
        yield { type: "end", result: exchange.finishWholeBody(response.statusCode, success ? wire.wholeBody(whole.text) : whole.text, contentType) };
        return;
      }
      const decoder = wire.decoder();
      let thrown: unknown = null;
      let sizeLimitHit = false;
      let errorGrace: NodeJS.Timeout | null = null;
      let contentTimedOut = false;
      // Counted from the send: a relay that answers its headers at once and then only keeps alive has sent nothing.
      const contentWatch = new ContentWatch(Math.max(0, this.contentTimeoutMs - (performance.now() - sentAt)), () => {
        contentTimedOut = true;
        response.body.destroy();
      });
      try {
        for await (const chunk of body) {
          let events = exchange.acceptEvents(decoder.push(exchange.countBytes(chunk)));
          // Chunks that came in the same read wait in the body's buffer: taken now, a burst of them costs one
          // step of this generator instead of one each (only when the body is read straight, without an opening).
          while (opening.length === 0 && response.body.readableLength > 0 && !exchange.snapshot.terminal && exchange.bytesReceived <= this.maxStreamBytes) {
            const buffered = response.body.read() as Buffer | null;
            if (buffered === null) break;
            const more = exchange.acceptEvents(decoder.push(exchange.countBytes(buffered)));
            if (more.length > 0) events = events.length === 0 ? more : events.concat(more);
          }
          if (events.length > 0) {
            contentWatch.saw(events);
            yield { type: "events", events, snapshot: exchange.snapshot, progress: exchange.progress };
            // After a final status the answer is settled. An `error` event may still be followed by
            // `response.failed`, which is waited for a short while, then the read ends with the error.
            if (exchange.snapshot.terminal && (exchange.snapshot.terminal !== "error_event" || events.some((event) => FINAL_STATUS_EVENTS.has(event.type)))) break;
            if (exchange.snapshot.terminal === "error_event") errorGrace ??= setTimeout(() => response.body.destroy(), this.errorGraceMs);
          }
          if (exchange.bytesReceived > this.maxStreamBytes) {
            sizeLimitHit = true;
            break;
          }
        }
        const rest = sizeLimitHit ? [] : exchange.acceptEvents(decoder.end());
        if (rest.length > 0) {
          yield { type: "events", events: rest, snapshot: exchange.snapshot, progress: exchange.progress };
        }
      } catch (error) {
        thrown = error;
      } finally {
        if (errorGrace) clearTimeout(errorGrace);
        contentWatch.stop();
      }
      response.body.destroy();
      yield { type: "end", result: exchange.finishStream(thrown, abort.signal.aborted, sizeLimitHit, contentTimedOut) };
    } finally {
      options.signal?.removeEventListener("abort", onOuterAbort);
      abort.abort();
    }
  }

  /** Sends one request (streamed or not, as the request says) and resolves with its result. */
  async send(request: ResponseRequest, options: SendOptions = {}): Promise<RequestResult> {
    for await (const update of this.stream(request, { signal: options.signal, protocol: options.protocol })) {
      if (update.type === "headers") options.onHeaders?.(update.headers);
      else if (update.type === "events") options.onEvents?.(update.events, update.snapshot, update.progress);
      else return update.result;
    }
    throw new Error("The relay stream ended without a result; this is a bug in Relay Chat.");
  }

  /** `GET /v1/models`: the models this key may see (a listed model may still lack a feature). */
  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelListResult> {
    const exchange = new Exchange({ apiKey: this.apiKey, requestIdHeaders: this.requestIdHeaders, streamed: false, extraHeaders: this.extraHeaders, timeoutMs: this.idleTimeoutMs });
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
      body = (await exchange.readBody(response.body, this.maxStreamBytes)).text;
      response.body.destroy();
    } catch (error) {
      const result = exchange.finishThrown(error, options.signal?.aborted === true);
      return { ok: false, outcome: result.outcome, cause: result.cause ?? "network", explanation: result.explanation ?? "", requestId: result.requestId, httpStatus: result.httpStatus };
    }
    const contentType = headerText(response.headers["content-type"]);
    const success = response.statusCode >= 200 && response.statusCode < 300;
    const list = success ? parseModelList(body) : null;
    // Model ids and fields are read from decoded JSON: redacted again, as a key echoed JSON-escaped is only the key once decoded.
    if (list && list.ok) return { ok: true, models: redactJson(list.models, [this.apiKey]) as ModelInfo[], requestId: exchange.requestId, httpStatus: response.statusCode };
    const classified = exchange.redactClassified(classifyHttpError(response.statusCode, body, contentType));
    const requestId = exchange.requestId ?? requestIdFromMessage(classified.message);
    const explanation = !success
      ? classified.explanation
      : list?.refusal !== undefined
        ? exchange.redact(l10n.t('The relay refused the model list (HTTP 200 with "success": false): {0}. Check the key and the relay\'s console.', list.refusal || l10n.t("no message")))
        : `${l10n.t('The model list is not in the expected form ({"data":[{"id":...}]}).')} ${classified.explanation}`;
    return {
      ok: false,
      outcome: { kind: "http_error", status: response.statusCode, code: classified.code, message: classified.message, body: exchange.redact(body.slice(0, 2000)) },
      cause: list?.refusal !== undefined ? "unknown" : classified.cause ?? "unknown",
      explanation,
      requestId,
      httpStatus: response.statusCode,
    };
  }

  /**
   * GETs one of the relay's side endpoints (balance, prices, status; `path` from the root, e.g.
   * "/api/status"): never billed, time-limited, through the same proxy and extra headers.
   */
  async getJson(path: string, options: RelayGetOptions = {}): Promise<RelayGetResult> {
    return relayGetJson({ root: this.root, apiKey: this.apiKey, extraHeaders: this.extraHeaders, dispatcher: this.dispatcher, userAgent: this.userAgent }, path, options);
  }

  private closing = false;

  /** True once close() was called: a request failing after that was cut by the replacement, not by the relay. */
  get closed(): boolean {
    return this.closing;
  }

  /** Releases pooled connections; call when the client is replaced. */
  async close(): Promise<void> {
    this.closing = true;
    await this.dispatcher.close().catch(() => undefined);
  }

  private headers(accept: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { ...this.extraHeaders, authorization: `Bearer ${this.apiKey}`, accept, "user-agent": this.userAgent };
    if (hasBody) headers["content-type"] = "application/json";
    return headers;
  }
}

/**
 * `{"data":[{"id":...}]}` (new-api adds `"success": true`). A relay may answer HTTP 200 with
 * `{"success": false, "message": ...}` to say it failed: that is a refusal, not an empty list.
 */
function parseModelList(body: string): { ok: true; models: ModelInfo[] } | { ok: false; refusal?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isObject(parsed)) return { ok: false };
    if (parsed.success === false) return { ok: false, refusal: typeof parsed.message === "string" ? parsed.message : "" };
    if (!Array.isArray(parsed.data)) return { ok: false };
    return { ok: true, models: parsed.data.filter((entry) => isObject(entry) && typeof entry.id === "string") as ModelInfo[] };
  } catch {
    return { ok: false };
  }
}

/** Reads the first chunks of a body until it is clear whether it begins like an event stream. */
async function readOpening(chunks: AsyncIterator<Buffer>): Promise<Buffer[]> {
  const opening: Buffer[] = [];
  let length = 0;
  while (length < 64) {
    const next = await chunks.next();
    if (next.done) break;
    opening.push(next.value);
    length += next.value.length;
    const text = Buffer.concat(opening).toString("utf8").replace(/^\uFEFF/, "").trimStart();
    if (text.length >= 6 || text.includes("\n")) break;
  }
  return opening;
}

/** An SSE body opens with a field (`data:`, `event:`, `id:`, `retry:`) or a comment line. */
function looksLikeEventStream(opening: readonly Buffer[]): boolean {
  const text = Buffer.concat(opening).toString("utf8").replace(/^\uFEFF/, "").trimStart();
  return /^(?:(?:data|event|id|retry)[ \t]*:|:)/.test(text);
}

/** The body's chunks, the opening read to recognise it first. */
function withOpening(opening: readonly Buffer[], rest: AsyncIterator<Buffer>): AsyncIterable<Buffer> {
  // A body labelled as an event stream has no opening: its chunks come straight from the body, without a
  // generator step per chunk (the hot path of every answer).
  if (opening.length === 0) return { [Symbol.asyncIterator]: () => rest };
  return openingThenRest(opening, rest);
}

async function* openingThenRest(opening: readonly Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer, void, undefined> {
  yield* opening;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : value ?? "";
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

