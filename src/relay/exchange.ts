import * as l10n from "@vscode/l10n";
import type { Dispatcher } from "undici";
import { accumulateEvents, emptySnapshot, snapshotFromResponseBody } from "./accumulate";
import { UNFINISHED_TOOL_CALL_REASON } from "./chatCompletions/chunkTranslator";
import { classifyHttpError, classifyLocalOutcome, classifyNetworkError, classifyServiceError } from "./errorClassifier";
import type { ClassifiedError } from "./errorClassifier";
import { RESPONSE_COST_HEADER, billedCostOf } from "./billedCost";
import { isObject } from "./outputItems";
import { redactSecrets } from "./redact";
import { requestIdFromMessage, requestIdsFromHeaders } from "./requestId";
import type { RelayEvent, RequestOutcome, RequestResult, ResponseHeadersInfo, ResponseSnapshot, StreamProgress } from "./types";
import { countedUsage } from "./usage";

// The bookkeeping of one HTTP exchange: timing, bytes, request ids, the snapshot, and the one result it
// ends with. Every outcome, success included, carries what is known: request ids, usage, latency.

const TIMEOUT_CODES = new Set(["UND_ERR_BODY_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT"]);

/** How many of the latest sequence numbers a resend is recognised among (relays resend a frame just sent). */
const SEQUENCE_WINDOW = 1024;

/**
 * Type, target and delta length: a relay that numbers events carelessly (one number for all) still has its
 * distinct events read; only a true resend matches all of them.
 */
function sameEventShape(earlier: RelayEvent, event: RelayEvent): boolean {
  return (
    earlier.type === event.type &&
    earlier.item_id === event.item_id &&
    earlier.output_index === event.output_index &&
    earlier.content_index === event.content_index &&
    (typeof earlier.delta === "string" ? earlier.delta.length : null) === (typeof event.delta === "string" ? event.delta.length : null)
  );
}

export interface ExchangeSettings {
  apiKey: string;
  requestIdHeaders: readonly string[];
  streamed: boolean;
  extraHeaders: Readonly<Record<string, string>>;
  /** The limit that applies to this request: the idle limit of a stream, or the whole-answer limit otherwise. */
  timeoutMs: number;
  /** A stream's limit on time without content (contentWatch.ts). */
  contentTimeoutMs?: number;
}

export class Exchange {
  snapshot: ResponseSnapshot = emptySnapshot;
  private requestIds: string[] = [];
  private httpStatus: number | null = null;
  private bytes = 0;
  private eventsReceived = 0;
  private readonly startedAt = Date.now();
  private readonly startedClock = performance.now();
  private firstByteMs: number | null = null;
  private responseCostHeader: string | string[] | undefined;
  private retryAfterSeconds: number | null = null;
  /**
   * The last events by sequence number (slot `number % SEQUENCE_WINDOW`), to recognise an event the relay
   * sent twice. Bounded, and nothing is built per event: numbers normally only rise, and that is checked
   * with one comparison; the slots are read only when a number comes again.
   */
  private readonly recentBySequence: Array<RelayEvent | undefined> = new Array(SEQUENCE_WINDOW);
  private highestSequenceNumber = -1;

  constructor(private readonly settings: ExchangeSettings) {}

  get requestId(): string | null {
    return this.requestIds[0] ?? null;
  }

  get progress(): StreamProgress {
    return { bytes: this.bytes, events: this.eventsReceived };
  }

  get bytesReceived(): number {
    return this.bytes;
  }

  receivedHeaders(response: Dispatcher.ResponseData): ResponseHeadersInfo {
    this.firstByteMs = performance.now() - this.startedClock;
    this.httpStatus = response.statusCode;
    this.requestIds = requestIdsFromHeaders(response.headers, this.settings.requestIdHeaders);
    this.responseCostHeader = response.headers[RESPONSE_COST_HEADER];
    this.retryAfterSeconds = retryAfterSecondsOf(response.headers["retry-after"], Date.now());
    return { httpStatus: response.statusCode, requestId: this.requestId, requestIds: [...this.requestIds] };
  }

  countBytes(chunk: Buffer): Buffer {
    this.bytes += chunk.length;
    return chunk;
  }

  /**
   * Applies a batch of events and returns the ones applied: an event repeated under the sequence number
   * it already came with (a relay resending a frame) is dropped, or its delta would be shown twice.
   */
  acceptEvents(events: RelayEvent[]): RelayEvent[] {
    let accepted = events;
    for (let index = 0; index < events.length; index += 1) {
      if (this.isRepeat(events[index])) {
        // Rare: copied only when something is dropped, so the usual batch goes through as it came.
        if (accepted === events) accepted = events.slice(0, index);
      } else if (accepted !== events) {
        accepted.push(events[index]);
      }
    }
    this.snapshot = accumulateEvents(this.snapshot, accepted);
    this.eventsReceived += events.length;
    return accepted;
  }

  /** Reads a whole body, keeping at most `keepBytes` of it; `overflowed` says whether more arrived. */
  async readBody(body: AsyncIterable<unknown>, keepBytes: number): Promise<{ text: string; overflowed: boolean }> {
    const chunks: Buffer[] = [];
    let kept = 0;
    let overflowed = false;
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      this.bytes += buffer.length;
      if (kept + buffer.length <= keepBytes) {
        chunks.push(buffer);
        kept += buffer.length;
      } else {
        overflowed = true;
        break;
      }
    }
    return { text: new TextDecoder("utf-8").decode(Buffer.concat(chunks)), overflowed };
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
      // A response object (with or without an `error` field) is read by its status, and a Chat
      // Completions answer is recognised; anything else is an error body.
      if (isObject(parsed) && (typeof parsed.status === "string" || parsed.object === "chat.completion")) {
        this.snapshot = snapshotFromResponseBody(parsed);
        return this.result(outcomeOfWholeBody(this.snapshot));
      }
    }
    const classified = this.redactClassified(classifyHttpError(status, body, contentType));
    return this.result({ kind: "http_error", status, code: classified.code, message: classified.message, body: this.redact(body.slice(0, 2000)) }, classified);
  }

  finishStream(thrown: unknown, aborted: boolean, sizeLimitHit: boolean, contentTimedOut = false): RequestResult {
    const snapshot = this.snapshot;
    if (snapshot.terminal) return this.result(outcomeOfTerminal(snapshot, this.eventsReceived));
    if (sizeLimitHit) return this.result({ kind: "interrupted", bytes: this.bytes, events: this.eventsReceived, reason: "size_limit" });
    if (aborted) return this.result({ kind: "cancelled" });
    if (contentTimedOut) return this.result({ kind: "timed_out", limitMs: this.settings.contentTimeoutMs ?? this.settings.timeoutMs, withoutContent: true });
    if (thrown && TIMEOUT_CODES.has(codeOf(thrown))) return this.timedOut();
    return this.result({ kind: "interrupted", bytes: this.bytes, events: this.eventsReceived });
  }

  /** A whole (non-stream) body larger than the size limit: stopped, like a stream would be. */
  finishOversizedBody(): RequestResult {
    return this.result({ kind: "interrupted", bytes: this.bytes, events: 0, reason: "size_limit" });
  }

  finishThrown(error: unknown, aborted: boolean): RequestResult {
    if (aborted) return this.result({ kind: "cancelled" });
    if (TIMEOUT_CODES.has(codeOf(error))) return this.timedOut();
    // Once the relay has answered, a broken body is an interrupted answer (possibly billed), not a
    // failure to reach the relay.
    if (this.httpStatus !== null) return this.result({ kind: "interrupted", bytes: this.bytes, events: this.eventsReceived });
    const classified = this.redactClassified(classifyNetworkError(error));
    return this.result({ kind: "network_error", code: classified.code, message: classified.message }, classified);
  }

  redact(text: string): string {
    return redactSecrets(text, [this.settings.apiKey]);
  }

  redactClassified(classified: ClassifiedError): ClassifiedError {
    return { ...classified, message: this.redact(classified.message), explanation: this.redact(classified.explanation) };
  }

  private timedOut(): RequestResult {
    return this.result(this.settings.streamed ? { kind: "timed_out", limitMs: this.settings.timeoutMs } : { kind: "timed_out", limitMs: this.settings.timeoutMs, nonStreamed: true });
  }

  private isRepeat(event: RelayEvent): boolean {
    const sequenceNumber = event.sequence_number;
    if (typeof sequenceNumber !== "number" || !Number.isSafeInteger(sequenceNumber) || sequenceNumber < 0) return false;
    const slot = sequenceNumber % SEQUENCE_WINDOW;
    if (sequenceNumber > this.highestSequenceNumber) {
      this.highestSequenceNumber = sequenceNumber;
      this.recentBySequence[slot] = event;
      return false;
    }
    // A number seen before (or out of order): a resend only when the event under that number is the same.
    // One older than the window is read, since it cannot be shown to be a resend.
    const earlier = this.recentBySequence[slot];
    if (earlier !== undefined && earlier.sequence_number === sequenceNumber && sameEventShape(earlier, event)) return true;
    this.recentBySequence[slot] = event;
    return false;
  }

  private result(unredacted: RequestOutcome, classified?: ClassifiedError): RequestResult {
    // Error text from the service may quote the key; nothing leaves the client unredacted.
    const outcome = "message" in unredacted ? { ...unredacted, message: this.redact(unredacted.message) } : unredacted;
    if (this.snapshot.error) this.snapshot = { ...this.snapshot, error: { ...this.snapshot.error, message: this.redact(this.snapshot.error.message) } };
    const explained = classified ?? this.classifyOutcome(outcome);
    // One-api style relays append "(request id: ...)" to error messages; it is one more id to keep.
    const fromMessage = requestIdFromMessage(explained?.message) ?? requestIdFromMessage(this.snapshot.error?.message);
    const requestIds = fromMessage && !this.requestIds.includes(fromMessage) ? [...this.requestIds, fromMessage] : [...this.requestIds];
    const waitNote = outcome.kind === "http_error" && this.retryAfterSeconds !== null ? ` ${retryAfterNote(this.retryAfterSeconds)}` : "";
    return {
      outcome,
      cause: outcome.kind === "completed" ? null : explained?.cause ?? null,
      explanation: explained ? explained.explanation + waitNote : null,
      retryAfterSeconds: outcome.kind === "http_error" ? this.retryAfterSeconds : null,
      snapshot: this.snapshot,
      usage: countedUsage(this.snapshot.usage, this.snapshot.output),
      billedCost: billedCostOf(this.snapshot.usage, this.responseCostHeader),
      httpStatus: this.httpStatus,
      requestId: requestIds[0] ?? null,
      requestIds,
      extraHeaders: this.settings.extraHeaders,
      streamed: this.settings.streamed,
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
          message: l10n.t("incomplete: {0}", outcome.reason ?? l10n.t("no reason given")),
          explanation:
            outcome.reason === "max_output_tokens"
              ? l10n.t("The answer stopped at the output budget (max_output_tokens). Continue or retry with a larger budget; either is a new, possibly billed request.")
              : outcome.reason === UNFINISHED_TOOL_CALL_REASON
                ? l10n.t("The relay said the answer was finished while a tool call was still half-written, so the call was not run and nothing was sent. Retry asks again (a new, possibly billed request).")
                : l10n.t("The relay stopped before the answer was complete ({0}).", outcome.reason ?? l10n.t("no reason given")),
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
      return { kind: "failed", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? l10n.t("The response failed without a message.") };
    case "error_event":
      return { kind: "error_event", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? l10n.t("The stream reported an error.") };
    default:
      return { kind: "interrupted", bytes: 0, events: eventsReceived };
  }
}

/** A whole response body is success only when its status is `completed`. */
function outcomeOfWholeBody(snapshot: ResponseSnapshot): RequestOutcome {
  if (snapshot.terminal === "failed" && snapshot.error) return { kind: "failed", code: snapshot.error.code, message: snapshot.error.message };
  switch (snapshot.status) {
    case "completed":
      return { kind: "completed" };
    case "incomplete":
      return { kind: "incomplete", reason: snapshot.incompleteReason };
    case "failed":
      return { kind: "failed", code: snapshot.error?.code ?? null, message: snapshot.error?.message ?? l10n.t("The response failed without a message.") };
    default:
      return {
        kind: "failed",
        code: snapshot.status ? `status_${snapshot.status}` : null,
        message: l10n.t('The relay returned status "{0}" instead of "completed"; the answer is not complete.', snapshot.status ?? "none"),
      };
  }
}

/** `Retry-After` as seconds to wait: delta-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterSecondsOf(header: string | string[] | undefined, now: number): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function retryAfterNote(seconds: number): string {
  return l10n.t("The relay asks to wait {0} s before sending again (Retry-After). Nothing was retried.", seconds);
}

function codeOf(error: unknown): string {
  return error && typeof error === "object" && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "";
}
