import { isObject } from "./outputItems";
import type { RelayGetResult } from "./relayGet";
import type { SideRequester } from "./sideAnswer";
import { MAX_BALANCE, saneNumber } from "./saneNumber";

// new-api and one-api count money in "quota": by default 500 000 quota make one US dollar
// (`quota_per_unit`). What their billing endpoints report depends on the site's display setting, read
// from the public `GET /api/status`: new-api's `quota_display_type` (USD, CNY, TOKENS or CUSTOM; CNY
// converts with `usd_exchange_rate`, TOKENS reports raw quota, CUSTOM is reported as USD), one-api's
// `display_in_currency` (false: raw quota). Relay Chat shows money, so raw quota is converted to the
// site's currency.

export const DEFAULT_QUOTA_PER_UNIT = 500_000;

export interface QuotaUnit {
  /** Quota per US dollar. */
  quotaPerUnit: number;
  /** The currency the site displays money in (ISO 4217). */
  currency: "USD" | "CNY";
  /** Units of `currency` per US dollar (1 for USD). */
  perUsd: number;
  /** The OpenAI-compatible billing endpoints report raw quota rather than money. */
  billingReportsQuota: boolean;
}

/** Reads the quota unit from a `GET /api/status` answer (`{"success": true, "data": {...}}`), or null. */
export function quotaUnitFromStatus(result: RelayGetResult): QuotaUnit | null {
  if (!result.ok || result.status !== 200 || !isObject(result.json) || !isObject(result.json.data)) return null;
  const data = result.json.data;
  const quotaPerUnit = positive(data.quota_per_unit) ?? DEFAULT_QUOTA_PER_UNIT;
  const displayType = typeof data.quota_display_type === "string" ? data.quota_display_type.toUpperCase() : null;
  const rate = positive(data.usd_exchange_rate);
  if (displayType === "CNY" && rate !== null) return { quotaPerUnit, currency: "CNY", perUsd: rate, billingReportsQuota: false };
  const billingReportsQuota = displayType === "TOKENS" || (displayType === null && data.display_in_currency === false);
  return { quotaPerUnit, currency: "USD", perUsd: 1, billingReportsQuota };
}

/** Raw quota in the site's currency. */
export function quotaToMoney(quota: number, unit: QuotaUnit): number {
  return (quota / unit.quotaPerUnit) * unit.perUsd;
}

/** A positive, sane factor: a quota per unit of 1e-300 or an exchange rate of 1e303 would make every amount absurd. */
function positive(value: unknown): number | null {
  const number = saneNumber(value, { max: MAX_BALANCE });
  return number !== null && number >= 1e-6 ? number : null;
}

/** A function that asks `GET /api/status` the first time it is called (public: without the key), then answers the same. */
export function lazyQuotaUnit(requester: SideRequester, signal: AbortSignal | undefined): () => Promise<QuotaUnit | null> {
  let unit: Promise<QuotaUnit | null> | null = null;
  return () => (unit ??= requester.getJson("/api/status", { signal, withKey: false }).then(quotaUnitFromStatus));
}
