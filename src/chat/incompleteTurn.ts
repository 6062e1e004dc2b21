import * as l10n from "@vscode/l10n";
import type { Conversation, Turn } from "./conversation";
import { childrenOf, findTurn, requireTurn } from "./conversation";
import { usageFigure } from "../relay/usage";

// What an `incomplete` answer offers: Continue (one new request carrying the partial answer) and Retry
// with a larger output budget. Both are new requests the relay may bill, so both are offered, never sent.

export interface IncompleteTurnAction {
  action: "continue" | "retry_larger";
  label: string;
  billingNote: string;
  /** For retry_larger: the budget that would be sent. */
  maxOutputTokens?: number;
}

const MINIMUM_RETRY_BUDGET = 1024;

/** The actions an `incomplete` turn offers, with their billing note; empty for any other turn. */
export function incompleteActionsFor(conversation: Conversation, turnId: string): IncompleteTurnAction[] {
  const turn = findTurn(conversation, turnId);
  if (!turn || turn.outcome.kind !== "incomplete" || childrenOf(conversation, turn.id).length > 0) return [];
  const billingNote = l10n.t("This sends a new request with the whole conversation; the relay may bill it.");
  return [
    { action: "continue", label: "Continue", billingNote },
    { action: "retry_larger", label: "Retry with a larger output budget", billingNote, maxOutputTokens: largerBudgetFor(turn) },
  ];
}

/** The turn, when it can be continued or retried: incomplete, and the last on its branch. */
export function requireIncompleteTurn(conversation: Conversation, turnId: string): Turn {
  const turn = requireTurn(conversation, turnId);
  if (turn.outcome.kind !== "incomplete") throw new Error(l10n.t("Only an incomplete answer can be continued or retried with a larger budget."));
  if (childrenOf(conversation, turn.id).length > 0) throw new Error(l10n.t("This answer already has later messages; regenerate it instead."));
  return turn;
}

/** Continue keeps the budget the answer stopped at. */
export function lastBudgetOf(turn: Turn, fallback: number | null): number | null {
  return turn.requests[turn.requests.length - 1]?.maxOutputTokens ?? fallback;
}

export function largerBudgetFor(turn: Turn): number {
  const last = turn.requests[turn.requests.length - 1];
  const used = usageFigure(last?.usage, "output_tokens") ?? 0;
  return Math.max(MINIMUM_RETRY_BUDGET, 2 * (last?.maxOutputTokens ?? 0), 2 * used);
}
