import type { ModelPrice } from "../relay/modelPrice";
import { MAX_REQUEST_COST, saneNumber } from "../relay/saneNumber";
import type { BilledCost, Usage } from "../relay/types";
import { usageDetail, usageFigure } from "../relay/usage";
import type { LedgerRow } from "./ledgerRow";
import type { RequestCost } from "./requestRecordParts";

// What a request cost, in money: the relay's billed figure where it reports one, and an estimate from
// the model's price and the reported usage. Either may be unknown (null), never 0 for want of a price:
// a request whose usage or price is unknown still cost something.

export const UNKNOWN_COST: RequestCost = Object.freeze({ estimated: null, billed: null, currency: null });

/**
 * Usage x price. Input tokens include the cached ones (the Responses usage counts them in
 * `input_tokens`), which cost the cached price where the model has one; reasoning tokens are part of
 * the output tokens.
 */
export function estimatedCost(usage: Usage | null, price: ModelPrice | null): number | null {
  if (!usage || !price) return null;
  const input = usageFigure(usage, "input_tokens");
  const output = usageFigure(usage, "output_tokens");
  if (input === null || output === null) return null;
  const cached = Math.min(usageDetail(usage, "cached_tokens") ?? 0, input);
  const cachedPrice = price.cachedInputPerMillion ?? price.inputPerMillion;
  // Absurd counts or prices (saneNumber.ts) make an absurd figure: unknown, not Infinity.
  return saneCost(((input - cached) * price.inputPerMillion + cached * cachedPrice + output * price.outputPerMillion) / 1_000_000);
}

/**
 * The cost of one request. When the billed figure and the price are in different currencies the
 * estimate is left out: the billed one is preferred anyway, and the two could not be added up.
 */
export function requestCost(result: { usage: Usage | null; billedCost: BilledCost | null }, price: ModelPrice | null): RequestCost {
  const billed = result.billedCost;
  const estimated = estimatedCost(result.usage, price);
  if (billed) return { estimated: price?.currency === billed.currency ? estimated : null, billed: billed.amount, currency: billed.currency };
  return estimated === null || !price ? UNKNOWN_COST : { estimated, billed: null, currency: price.currency };
}

/** The figure to show: billed when the relay said, else the estimate. */
export function preferredCost(cost: RequestCost): { amount: number; currency: string; estimated: boolean } | null {
  if (cost.currency === null) return null;
  if (cost.billed !== null) return { amount: cost.billed, currency: cost.currency, estimated: false };
  return cost.estimated !== null ? { amount: cost.estimated, currency: cost.currency, estimated: true } : null;
}

export interface CostTotal {
  /** The sum of the preferred figures in `currency`; null when no request has a known cost. */
  amount: number | null;
  currency: string | null;
  /** At least one part of the sum is an estimate. */
  estimated: boolean;
  /** Requests whose cost is unknown (or in another currency): the sum is then a lower bound. */
  requestsWithoutCost: number;
}

/** A ledger row's cost; rows written before costs were recorded are unknown. */
export function costOfLedgerRow(row: Pick<LedgerRow, "estimatedCost" | "billedCost" | "costCurrency">): RequestCost {
  const estimated = saneCost(row.estimatedCost);
  const billed = saneCost(row.billedCost);
  return estimated === null && billed === null ? UNKNOWN_COST : { estimated, billed, currency: row.costCurrency ?? null };
}

/** The total of a conversation's (or any list of) request costs, in the currency of the first known one. */
export function costTotal(costs: readonly RequestCost[]): CostTotal {
  return costs.reduce(addCost, { amount: null, currency: null, estimated: false, requestsWithoutCost: 0 });
}

/** `total` with one more request's cost. */
export function addCost(total: CostTotal, cost: RequestCost): CostTotal {
  const preferred = preferredCost(cost);
  if (!preferred || (total.currency !== null && preferred.currency !== total.currency)) return { ...total, requestsWithoutCost: total.requestsWithoutCost + 1 };
  return { amount: (total.amount ?? 0) + preferred.amount, currency: preferred.currency, estimated: total.estimated || preferred.estimated, requestsWithoutCost: total.requestsWithoutCost };
}

function saneCost(amount: unknown): number | null {
  return saneNumber(amount, { max: MAX_REQUEST_COST });
}

