import type { RequestPurpose } from "./conversation";

// One row of the request ledger (requestLedger.ts writes and reads them). Its own module because the
// cost of a row is worked out in cost.ts, which requestLedger.ts uses in turn.

/** One HTTP request as the ledger keeps it. */
export interface LedgerRow {
  /** Ties a request's pending row to its final row; absent in rows written before it existed. */
  entryId?: string;
  /** ISO time the request was sent. */
  time: string;
  conversationId: string;
  turnId: string;
  purpose: RequestPurpose;
  model: string;
  streamed: boolean;
  /** The outcome kind, or `pending` while (or if) the request never ended. */
  outcome: string;
  httpStatus: number | null;
  requestId: string | null;
  /** Every request id the answer carried (a relay's and a proxy's), `requestId` first. */
  requestIds?: string[];
  responseId: string | null;
  /** Token figures are null when the relay reported no usage (or only zeros for a non-empty answer): unknown, never 0. */
  inputTokens: number | null;
  cachedTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  firstByteMs: number | null;
  totalMs: number;
  bytesReceived: number;
  /** The relay profile that answered; absent in rows written before relay profiles. */
  relay?: string | null;
  /** Cost from the model's price and the usage, and what the relay said it billed (src/chat/cost.ts); null: unknown, never 0. */
  estimatedCost?: number | null;
  billedCost?: number | null;
  costCurrency?: string | null;
  /** The instruction sources sent (names, never the text) and a hash of their text; absent when none were sent. */
  instructionSources?: string[];
  instructionsHash?: string;
}
