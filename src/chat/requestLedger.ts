import type { RequestResult } from "../relay/types";
import type { RequestPurpose } from "./conversation";
import type { DocumentStorage } from "./documentStorage";

// One row per HTTP request, follow-ups after a tool call included, so what the user sees adds up to what
// the relay's console usage log shows (the request id ties the two together). Append-only JSON lines: a
// crash can at worst cut the last line short, and a short line is skipped when reading.

export interface LedgerRow {
  /** ISO time the request was sent. */
  time: string;
  conversationId: string;
  turnId: string;
  purpose: RequestPurpose;
  model: string;
  streamed: boolean;
  outcome: string;
  httpStatus: number | null;
  requestId: string | null;
  responseId: string | null;
  inputTokens: number | null;
  cachedTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  firstByteMs: number | null;
  totalMs: number;
  bytesReceived: number;
}

export interface LedgerTotals {
  requests: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  bytesReceived: number;
}

const LEDGER_NAME = "ledger.jsonl";

export function ledgerRowFor(result: RequestResult, context: { conversationId: string; turnId: string; purpose: RequestPurpose; model: string }): LedgerRow {
  const usage = result.snapshot.usage;
  return {
    time: new Date(result.timing.startedAt).toISOString(),
    conversationId: context.conversationId,
    turnId: context.turnId,
    purpose: context.purpose,
    model: result.snapshot.model ?? context.model,
    streamed: result.streamed,
    outcome: result.outcome.kind,
    httpStatus: result.httpStatus,
    requestId: result.requestId,
    responseId: result.snapshot.responseId,
    inputTokens: numberOrNull(usage?.input_tokens),
    cachedTokens: numberOrNull(usage?.input_tokens_details?.cached_tokens),
    outputTokens: numberOrNull(usage?.output_tokens),
    reasoningTokens: numberOrNull(usage?.output_tokens_details?.reasoning_tokens),
    firstByteMs: result.timing.firstByteMs === null ? null : Math.round(result.timing.firstByteMs),
    totalMs: Math.round(result.timing.totalMs),
    bytesReceived: result.bytesReceived,
  };
}

export class RequestLedger {
  constructor(private readonly storage: DocumentStorage) {}

  async record(row: LedgerRow): Promise<void> {
    await this.storage.append(LEDGER_NAME, `${JSON.stringify(row)}\n`);
  }

  /** All rows, oldest first; damaged lines (a write cut short by a crash) are skipped. */
  async rows(): Promise<LedgerRow[]> {
    const text = (await this.storage.read(LEDGER_NAME)) ?? "";
    const rows: LedgerRow[] = [];
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const row: unknown = JSON.parse(line);
        if (typeof row === "object" && row !== null && typeof (row as LedgerRow).conversationId === "string") rows.push(row as LedgerRow);
      } catch {
        // A torn last line; the request it described is still in the relay's own usage log.
      }
    }
    return rows;
  }

  async totalsFor(conversationId: string): Promise<LedgerTotals> {
    return totalsOf((await this.rows()).filter((row) => row.conversationId === conversationId));
  }
}

export function totalsOf(rows: readonly LedgerRow[]): LedgerTotals {
  const totals: LedgerTotals = { requests: 0, inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0, bytesReceived: 0 };
  for (const row of rows) {
    totals.requests += 1;
    totals.inputTokens += row.inputTokens ?? 0;
    totals.cachedTokens += row.cachedTokens ?? 0;
    totals.outputTokens += row.outputTokens ?? 0;
    totals.reasoningTokens += row.reasoningTokens ?? 0;
    totals.bytesReceived += row.bytesReceived;
  }
  return totals;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
