import * as l10n from "@vscode/l10n";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import type { FunctionToolDefinition, InputItem, RequestOutcome, RequestResult, ResponseHeadersInfo } from "../relay/types";
import { answerSeparator, answerTextOf } from "./answerText";
import type { ChatSessionListener } from "./chatSessionOptions";
import type { RequestInstructions } from "./chatSettings";
import type { InstructionsAs } from "../relay/requestBuilder";
import { sentModelSettings } from "./modelRequestOptions";
import type { ModelSettings } from "./modelSettings";
import type { Clock, IdFactory } from "./clock";
import type { Conversation, RequestPurpose, RequestRecord, Turn } from "./conversation";
import { requestCost } from "./cost";
import { ENCRYPTED_REASONING, reasoningFromOtherRelays, requestInputFor, wantsEncryptedReasoning } from "./historyItems";
import type { ModelProtocol } from "./modelSettings";
import type { RequestLedger } from "./requestLedger";
import { ledgerRowFor, pendingLedgerRow } from "./requestLedger";
import { rememberToolSet, requestBodyFor } from "./requestSent";
import { instructionsRecordFor } from "./sentInstructions";
import { leftOutOfWire } from "./wireLeftOut";

// One HTTP request of a turn, from building it to recording its receipt, written so that a crash loses
// as little as possible: the request (with the user's message in its input) is on disk, marked
// `in_progress`, before the first byte is sent; when the relay answers with headers a pending ledger row
// with the request id is appended and the conversation saved again; while the answer streams, what has
// arrived is saved at most every PARTIAL_SAVE_INTERVAL_MS; at the end the record and the ledger row are
// completed. Each save appends only this turn to the window's journal of the conversation (HistoryStore),
// so a save costs the turn's size, not the conversation's. After a crash the request reads as interrupted
// (conversationSchema.ts); while this window is alive, another window reads it as still running.

export const PARTIAL_SAVE_INTERVAL_MS = 2000;

export interface TurnRequestContext {
  client: Pick<RelayClient, "send">;
  conversation: Conversation;
  ledger: RequestLedger;
  listener: ChatSessionListener;
  model: string;
  /** The relay profile the request goes to. */
  relay?: string;
  /**
   * The model's price there as known now (null: unknown, tokens only). Read when the request ends: a relay's
   * price list is fetched in the background when first asked for, and has had the request's time to arrive.
   */
  priceOf?: () => ModelPrice | null;
  stream: boolean;
  tools: readonly FunctionToolDefinition[] | undefined;
  clock: Clock;
  ids: IdFactory;
  redact: (text: string) => string;
  /** Saves the conversation; never throws (problems go to the listener). */
  save: () => Promise<void>;
  /** Puts the stored images' data URLs into the body's input (the conversation keeps references only). */
  resolveImages?: (items: InputItem[]) => Promise<InputItem[]>;
  /** What the model is told with this request: its text goes in the body, its sources and hash in the record and ledger. */
  instructions?: RequestInstructions;
  /** The wire the request goes over; absent: Responses. */
  protocol?: ModelProtocol;
  /** Where the instructions go: the `instructions` field unless the relay drops it. */
  instructionsAs?: InstructionsAs;
  /** The model's own settings: reasoning effort and temperature go in the body and the record. */
  modelSettings?: ModelSettings;
}

export async function sendTurnRequest(
  context: TurnRequestContext,
  turn: Turn,
  purpose: RequestPurpose,
  input: InputItem[],
  maxOutputTokens: number | null,
  signal: AbortSignal,
): Promise<RequestResult> {
  const { conversation, listener } = context;
  const history = [...requestInputFor(conversation, turn, context.relay), ...input];
  const record: RequestRecord = {
    purpose,
    startedAt: context.clock.now(),
    model: context.model,
    ...(context.relay === undefined ? {} : { relay: context.relay }),
    streamed: context.stream,
    maxOutputTokens,
    outcome: { kind: "in_progress" },
    explanation: null,
    httpStatus: null,
    requestId: null,
    responseId: null,
    usage: null,
    input,
    output: [],
  };
  const toolSetId = rememberToolSet(conversation, context.tools);
  if (toolSetId) record.toolSetId = toolSetId;
  if (wantsEncryptedReasoning(conversation, turn, context.model)) record.include = [ENCRYPTED_REASONING];
  const leftOut = context.relay === undefined ? 0 : reasoningFromOtherRelays(conversation, turn, context.relay);
  if (leftOut > 0) record.otherRelayReasoningLeftOut = leftOut;
  // The instructions of this request, never stored into the history: a later request sends its own.
  const instructions = context.instructions;
  if (instructions) record.instructions = instructionsRecordFor(conversation, instructions);
  if (context.protocol === "chat") record.protocol = "chat";
  if (instructions && context.instructionsAs === "developer") record.instructionsAs = "developer";
  const sentSettings = sentModelSettings(context.modelSettings);
  if (sentSettings) record.modelSettings = sentSettings;
  const request = requestBodyFor(conversation, record, history, instructions?.text);
  // What one wire cannot carry of what the other gave (reasoning, files) is left out, and the receipt says so.
  Object.assign(record, leftOutOfWire(history, request, record.protocol));
  // As sent: a budget under the schema's minimum was raised.
  record.maxOutputTokens = request.max_output_tokens ?? null;
  // Before anything is recorded: a missing image stops the request with nothing half-written.
  const body = context.resolveImages ? { ...request, input: await context.resolveImages(request.input) } : request;
  const answerBefore = answerTextOf(turn);
  turn.requests.push(record);
  conversation.model = context.model;
  await context.save();

  const entryId = context.ids("req");
  const ledgerContext = { entryId, conversationId: conversation.id, turnId: turn.id, purpose, model: context.model, relay: context.relay, price: context.priceOf?.() ?? null, instructions: record.instructions };
  let pendingRow: Promise<void> = Promise.resolve();
  let lastSavedAt = context.clock.now();
  let separator = answerSeparator(answerBefore, purpose);
  const onHeaders = (headers: ResponseHeadersInfo) => {
    record.httpStatus = headers.httpStatus;
    record.requestId = headers.requestId;
    if (headers.requestIds.length > 1) record.requestIds = headers.requestIds;
    pendingRow = context.ledger.record(pendingLedgerRow(headers, { ...ledgerContext, streamed: context.stream, startedAt: record.startedAt })).catch((error: unknown) => {
      listener.onStorageProblem?.(l10n.t("The request could not be added to the request ledger ({0}).", (error as Error).message));
    });
    lastSavedAt = context.clock.now();
    void context.save();
  };
  listener.onRequestStart?.(turn.id);
  const received = await context.client.send(body, {
    signal,
    ...(record.protocol === "chat" ? { protocol: "chat" as const } : {}),
    onHeaders,
    onEvents: (events, snapshot, progress) => {
      listener.onSnapshot?.(turn.id, snapshot);
      let text = "";
      let reasoning = "";
      for (const event of events) {
        if (typeof event.delta !== "string") continue;
        if (event.type === "response.output_text.delta") text += event.delta;
        else if (event.type === "response.reasoning_summary_text.delta") reasoning += event.delta;
      }
      if (reasoning !== "") listener.onReasoningDelta?.(turn.id, reasoning);
      if (text !== "") {
        listener.onAnswerDelta?.(turn.id, separator + text);
        separator = "";
      }
      const now = context.clock.now();
      if (now - lastSavedAt >= PARTIAL_SAVE_INTERVAL_MS) {
        lastSavedAt = now;
        record.output = [...snapshot.output];
        record.received = { ...progress };
        void context.save();
      }
    },
  });
  const result: RequestResult = { ...received, outcome: redactOutcome(received.outcome, context.redact), explanation: received.explanation === null ? null : context.redact(received.explanation) };
  settleRecord(record, result);
  const price = context.priceOf?.() ?? null;
  const cost = requestCost(result, price);
  if (cost.estimated !== null || cost.billed !== null) record.cost = cost;
  listener.onRequestEnd?.(turn.id, record);
  await pendingRow;
  try {
    await context.ledger.record(ledgerRowFor(result, { ...ledgerContext, price }));
  } catch (error) {
    listener.onStorageProblem?.(l10n.t("The request could not be added to the request ledger ({0}).", (error as Error).message));
  }
  return result;
}

function settleRecord(record: RequestRecord, result: RequestResult): void {
  record.outcome = result.outcome;
  record.explanation = result.explanation;
  record.httpStatus = result.httpStatus;
  record.requestId = result.requestId;
  if (result.requestIds.length > 1) record.requestIds = result.requestIds;
  else delete record.requestIds;
  record.responseId = result.snapshot.responseId;
  record.usage = result.usage;
  // What the relay sent, when it is not what is counted: zeros for an answer, or figures that cannot be believed (usage.ts).
  if (result.snapshot.usage !== null && result.usage !== result.snapshot.usage) record.reportedUsage = result.snapshot.usage;
  record.firstByteMs = result.timing.firstByteMs === null ? null : Math.round(result.timing.firstByteMs);
  record.totalMs = Math.round(result.timing.totalMs);
  record.output = [...result.snapshot.output];
  if (result.snapshot.omittedStreamedItems > 0) record.omittedStreamedItems = result.snapshot.omittedStreamedItems;
  if (result.snapshot.unreadableEventCount > 0) record.unreadableEvents = result.snapshot.unreadableEventCount;
  if (result.snapshot.refusedToolCalls > 0) record.refusedToolCalls = result.snapshot.refusedToolCalls;
  if (Object.keys(result.extraHeaders).length > 0) record.extraHeaders = { ...result.extraHeaders };
  delete record.received;
}

function redactOutcome(outcome: RequestOutcome, redact: (text: string) => string): RequestOutcome {
  const copy: Record<string, unknown> = { ...outcome };
  for (const [field, value] of Object.entries(copy)) if (typeof value === "string" && field !== "kind") copy[field] = redact(value);
  return copy as unknown as RequestOutcome;
}
