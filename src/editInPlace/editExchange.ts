import { randomUUID } from "node:crypto";
import type { InstructionsRecord } from "../chat/conversation";
import type { ModelProtocol } from "../chat/modelSettings";
import type { LedgerContext, RequestLedger } from "../chat/requestLedger";
import { ledgerRowFor, pendingLedgerRow } from "../chat/requestLedger";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import type { RequestResult, ResponseRequest } from "../relay/types";

// The one relay request of an edit in place, read as the panel's are: the ledger gets a pending row as soon as the
// relay answers with headers and the final row when it ends (src/chat/requestLedger.ts), whatever the outcome, a
// cancel included. The text is handed on as it streams; what it means for the file is the caller's.

/** The ledger's conversation for edits in place: they belong to no panel conversation. */
export const EDIT_IN_PLACE_CONVERSATION_ID = "edit-in-place";

export interface EditExchangeOptions {
  client: RelayClient;
  request: ResponseRequest;
  protocol?: ModelProtocol;
  ledger: RequestLedger;
  relay?: string;
  price: ModelPrice | null;
  instructions?: InstructionsRecord;
  signal: AbortSignal;
  /** The answer's text so far, after each piece of it. */
  onText: (textSoFar: string) => void;
  /** A ledger write failed: the edit goes on, the person is told where. */
  onLedgerProblem: (message: string) => void;
}

export async function runEditExchange(options: EditExchangeOptions): Promise<RequestResult> {
  const { request, ledger } = options;
  const context: Omit<LedgerContext, "streamed" | "startedAt"> = {
    entryId: `edit_${randomUUID()}`,
    conversationId: EDIT_IN_PLACE_CONVERSATION_ID,
    turnId: `edit_${randomUUID()}`,
    purpose: "edit_in_place",
    model: request.model,
    ...(options.relay !== undefined ? { relay: options.relay } : {}),
    price: options.price,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  };
  const startedAt = Date.now();
  let pendingRow: Promise<void> = Promise.resolve();
  let text = "";
  let result: RequestResult | null = null;
  for await (const update of options.client.stream(request, { signal: options.signal, ...(options.protocol ? { protocol: options.protocol } : {}) })) {
    if (update.type === "end") {
      result = update.result;
      break;
    }
    if (update.type === "headers") {
      pendingRow = ledger.record(pendingLedgerRow(update.headers, { ...context, streamed: request.stream === true, startedAt })).catch((error: unknown) => options.onLedgerProblem((error as Error).message));
      continue;
    }
    let grew = false;
    for (const event of update.events) {
      if (event.type !== "response.output_text.delta" || typeof event.delta !== "string" || event.delta === "") continue;
      text += event.delta;
      grew = true;
    }
    if (grew) options.onText(text);
  }
  if (!result) throw new Error("The relay stream ended without a result; this is a bug in Relay Chat.");
  await pendingRow;
  try {
    await ledger.record(ledgerRowFor(result, context));
  } catch (error) {
    options.onLedgerProblem((error as Error).message);
  }
  return result;
}
