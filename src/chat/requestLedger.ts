import type { ModelPrice } from "../relay/modelPrice";
import type { RequestResult, ResponseHeadersInfo, Usage } from "../relay/types";
import { tokenCount, usageDetail, usageFigure } from "../relay/usage";
import { addCost, costOfLedgerRow, costTotal, requestCost } from "./cost";
import type { CostTotal } from "./cost";
import type { InstructionsRecord, RequestPurpose, RequestRecord } from "./conversation";
import type { DocumentStorage } from "./documentStorage";
import type { LedgerRow } from "./ledgerRow";
import { jsonLine, readJsonLines } from "./jsonLines";

// One row per HTTP request, follow-ups after a tool call included, so what the user sees adds up to what
// the relay's console usage log shows (the request id ties the two together). Append-only JSON lines: a
// crash can at worst cut the last line short, and a short line is skipped when reading. A request gets a
// `pending` row as soon as the relay answers with headers (a crash after that still leaves the record of
// a request the relay may bill), and its final row later; both carry the same `entryId` and the final
// one replaces the pending one when reading.

/** The outcome of a row whose request had not ended when it was written (and, after a crash, never did). */
export const PENDING_OUTCOME = "pending";

export type { LedgerRow } from "./ledgerRow";

export interface LedgerTotals {
  requests: number;
  /**
   * Requests that may have been billed but whose usage is unknown (not reported, or the request never
   * ended). When this is above 0 the sums below are lower bounds, and a total should read "unknown" (or
   * "at least ..."). Requests refused with an HTTP error or that never reached the relay are not counted.
   */
  requestsWithoutUsage: number;
  /** Requests the relay reported usage for. With none, the sums below say nothing: the tokens are unknown, not 0. */
  requestsWithUsage: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  bytesReceived: number;
  /** What the requests cost: billed where the relay said, else estimated from prices (see src/chat/cost.ts). */
  cost: CostTotal;
}

const LEDGER_NAME = "ledger.jsonl";

export interface LedgerContext {
  entryId: string;
  conversationId: string;
  turnId: string;
  purpose: RequestPurpose;
  model: string;
  streamed: boolean;
  startedAt: number;
  /** The relay profile's name, and the model's price there (for the estimate), where known. */
  relay?: string;
  price?: ModelPrice | null;
  instructions?: InstructionsRecord;
}

/** The row written when the relay has answered with headers and the body is still to come. */
export function pendingLedgerRow(headers: ResponseHeadersInfo, context: LedgerContext): LedgerRow {
  return {
    entryId: context.entryId,
    time: new Date(context.startedAt).toISOString(),
    conversationId: context.conversationId,
    turnId: context.turnId,
    purpose: context.purpose,
    model: context.model,
    streamed: context.streamed,
    outcome: PENDING_OUTCOME,
    httpStatus: headers.httpStatus,
    requestId: headers.requestId,
    ...(headers.requestIds.length > 1 ? { requestIds: headers.requestIds } : {}),
    ...instructionFields(context.instructions),
    responseId: null,
    inputTokens: null,
    cachedTokens: null,
    outputTokens: null,
    reasoningTokens: null,
    firstByteMs: null,
    totalMs: 0,
    bytesReceived: 0,
    relay: context.relay ?? null,
  };
}

export function ledgerRowFor(result: RequestResult, context: Omit<LedgerContext, "streamed" | "startedAt">): LedgerRow {
  // Only usage the relay really reported: zeros for a non-empty answer are unknown, not free.
  const usage = result.usage;
  const cost = requestCost(result, context.price ?? null);
  return {
    entryId: context.entryId,
    time: new Date(result.timing.startedAt).toISOString(),
    conversationId: context.conversationId,
    turnId: context.turnId,
    purpose: context.purpose,
    model: result.snapshot.model ?? context.model,
    streamed: result.streamed,
    outcome: result.outcome.kind,
    httpStatus: result.httpStatus,
    requestId: result.requestId,
    ...(result.requestIds.length > 1 ? { requestIds: result.requestIds } : {}),
    responseId: result.snapshot.responseId,
    ...tokenFigures(usage),
    firstByteMs: result.timing.firstByteMs === null ? null : Math.round(result.timing.firstByteMs),
    totalMs: Math.round(result.timing.totalMs),
    bytesReceived: result.bytesReceived,
    relay: context.relay ?? null,
    estimatedCost: cost.estimated,
    billedCost: cost.billed,
    costCurrency: cost.currency,
    ...instructionFields(context.instructions),
  };
}

export class RequestLedger {
  constructor(private readonly storage: DocumentStorage) {}

  async record(row: LedgerRow): Promise<void> {
    // Each row starts on a new line: a line torn by a crash or a full disk never swallows the next row.
    // A pending row survives a kill once appended; the final row also waits for the disk (see HistoryStore.save).
    await this.storage.append(LEDGER_NAME, jsonLine(row), { flush: row.outcome !== PENDING_OUTCOME });
  }

  /**
   * One row per request, oldest first: a request's final row in place of its pending one, a pending row
   * alone when the request never ended. Damaged lines (a write cut short by a crash) are skipped.
   */
  async rows(): Promise<LedgerRow[]> {
    const text = (await this.storage.read(LEDGER_NAME)) ?? "";
    const rows: LedgerRow[] = [];
    const positionOfEntry = new Map<string, number>();
    // A torn last line is skipped: the request it described is still in the relay's own usage log.
    for (const line of readJsonLines(text)) {
      if (typeof line.conversationId !== "string") continue;
      const row = line as unknown as LedgerRow;
      const entryId = row.entryId;
      const earlier = entryId === undefined ? undefined : positionOfEntry.get(entryId);
      if (earlier !== undefined) {
        rows[earlier] = row;
        continue;
      }
      if (entryId !== undefined) positionOfEntry.set(entryId, rows.length);
      rows.push(row);
    }
    return rows;
  }

  async totalsFor(conversationId: string): Promise<LedgerTotals> {
    return totalsOf((await this.rows()).filter((row) => row.conversationId === conversationId));
  }
}

/** What a row contributes to the totals. */
export type TotalsRow = Pick<LedgerRow, "outcome" | "inputTokens" | "cachedTokens" | "outputTokens" | "reasoningTokens" | "bytesReceived" | "estimatedCost" | "billedCost" | "costCurrency">;

export function emptyTotals(): LedgerTotals {
  return { requests: 0, requestsWithoutUsage: 0, requestsWithUsage: 0, inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0, bytesReceived: 0, cost: costTotal([]) };
}

/** The one rule for totals, used by the ledger and by the panel's running totals alike. */
export function addToTotals(totals: LedgerTotals, row: TotalsRow): LedgerTotals {
  // Rows are read back from a file older versions (or another window) wrote: a figure that cannot be believed is unknown here too.
  const input = tokenCount(row.inputTokens);
  const output = tokenCount(row.outputTokens);
  const withoutUsage = input === null && output === null && mayHaveBeenBilled(row.outcome);
  return {
    requests: totals.requests + 1,
    requestsWithoutUsage: totals.requestsWithoutUsage + (withoutUsage ? 1 : 0),
    requestsWithUsage: totals.requestsWithUsage + (input === null && output === null ? 0 : 1),
    inputTokens: totals.inputTokens + (input ?? 0),
    cachedTokens: totals.cachedTokens + (tokenCount(row.cachedTokens) ?? 0),
    outputTokens: totals.outputTokens + (output ?? 0),
    reasoningTokens: totals.reasoningTokens + (tokenCount(row.reasoningTokens) ?? 0),
    bytesReceived: totals.bytesReceived + row.bytesReceived,
    // A request that produced nothing to bill costs nothing and leaves the sum exact.
    cost: mayHaveBeenBilled(row.outcome) ? addCost(totals.cost, costOfLedgerRow(row)) : totals.cost,
  };
}

export function totalsOf(rows: readonly TotalsRow[]): LedgerTotals {
  return rows.reduce(addToTotals, emptyTotals());
}

/** A request refused before generation (an HTTP error) or never delivered (a network error) produced nothing to bill. */
function mayHaveBeenBilled(outcome: string): boolean {
  return outcome !== "http_error" && outcome !== "network_error";
}

/** The totals row of a request record (the row the ledger gets for it carries the same figures). */
export function totalsRowOf(record: RequestRecord, bytesReceived = 0): TotalsRow {
  const usage = record.usage;
  return {
    outcome: record.outcome.kind,
    ...tokenFigures(usage),
    bytesReceived,
    estimatedCost: record.cost?.estimated ?? null,
    billedCost: record.cost?.billed ?? null,
    costCurrency: record.cost?.currency ?? null,
  };
}

/** The token figures of a row: each one the relay reported and that can be believed (usage.ts), else null (unknown). */
function tokenFigures(usage: Usage | null | undefined): Pick<LedgerRow, "inputTokens" | "cachedTokens" | "outputTokens" | "reasoningTokens"> {
  return { inputTokens: usageFigure(usage, "input_tokens"), cachedTokens: usageDetail(usage, "cached_tokens"), outputTokens: usageFigure(usage, "output_tokens"), reasoningTokens: usageDetail(usage, "reasoning_tokens") };
}

function instructionFields(instructions: InstructionsRecord | undefined): Pick<LedgerRow, "instructionSources" | "instructionsHash"> {
  return instructions ? { instructionSources: instructions.sources, instructionsHash: instructions.hash } : {};
}
