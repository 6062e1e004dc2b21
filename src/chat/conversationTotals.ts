import type { Conversation, RequestRecord } from "./conversation";
import { addToTotals, emptyTotals, totalsRowOf } from "./requestLedger";
import type { LedgerTotals } from "./requestLedger";

// The title line's totals, computed from the conversation itself every time they are shown: every request
// of every turn on every branch (edits and regenerations included) and of every summary. Nothing is kept
// between requests, so the totals cannot go stale or vanish when the conversation is read again from disk
// (another window, a save of our own). The rule for what a request adds is the ledger's (addToTotals).

/** Every request the conversation made, in the order its turns are stored. */
export function conversationRequests(conversation: Conversation): RequestRecord[] {
  return conversation.turns.flatMap((turn) => [...turn.requests, ...(turn.summary?.requests ?? [])]);
}

/**
 * The totals of `conversation`; null when there is none on screen. `running`: a request of it is under way
 * in this window; a request still `in_progress` is then that one and is counted when it ends (its receipt
 * comes then). Otherwise an `in_progress` request never ended (a crash, a window closed mid-answer): it may
 * have been billed, so it counts, with its tokens unknown.
 */
export function conversationTotals(conversation: Conversation | null, running: boolean): LedgerTotals | null {
  if (conversation === null) return null;
  return conversationRequests(conversation)
    .filter((request) => !(running && request.outcome.kind === "in_progress"))
    .map((request) => totalsRowOf(request))
    .reduce(addToTotals, emptyTotals());
}
