import * as l10n from "@vscode/l10n";
import { isObject } from "./outputItems";
import type { QuotaUnit } from "./quotaUnit";
import { quotaToMoney } from "./quotaUnit";
import type { SideRequester } from "./sideAnswer";
import { successfulJson } from "./sideAnswer";
import { MAX_BALANCE, saneNumber } from "./saneNumber";

/** An amount of money or quota as the relay wrote it, or null when it is not a sane one (saneNumber.ts). */
function amount(value: unknown): number | null {
  return saneNumber(value, { max: MAX_BALANCE });
}

// One reader per balance endpoint a relay may have, each asking with the same key the chat uses and
// never billed. Shapes, from the relays' sources:
// - new-api `GET /api/usage/token/` (with the slash: the router answers 301 without it, router/api-router.go):
//   `{"code": true, "data": {"object": "token_usage", "total_granted", "total_used", "total_available",
//   "unlimited_quota", ...}}` in raw quota (controller/token.go GetTokenUsage). An unlimited key still
//   reports what it used; its total_available is whatever its remaining quota counter says (it may be
//   below 0), so it means nothing then.
// - new-api / one-api `GET [/v1]/dashboard/billing/subscription`: `{"hard_limit_usd"}` = remaining plus
//   used, in the site's display unit, 100000000 for an unlimited key; `.../billing/usage`:
//   `{"total_usage"}` = used x 100 (controller/billing.go).
// - OpenRouter `GET /api/v1/key`: `{"data": {"limit", "limit_remaining", "usage"}}` in US dollars; a
//   null limit is a key without a spending limit.
// - LiteLLM `GET /key/info`: `{"info": {"spend", "max_budget"}}` in US dollars; a null budget is a key
//   without one.

export interface Balance {
  /** What is left, in `unit`; null when unknown or unlimited. */
  remaining: number | null;
  /** What has been spent, in `unit`; null when the relay does not say. */
  used: number | null;
  /** An ISO 4217 currency code ("USD", "CNY"), "quota" for a relay's raw units, or null when unknown. */
  unit: string | null;
  /** The key has no limit of its own (the account behind it may still run dry). */
  unlimited: boolean;
  /** The endpoint that answered, e.g. "GET /api/usage/token/". */
  source: string;
}

export type BalanceReading = { ok: true; balance: Balance } | { ok: false; problem: string };

export interface BalanceReader {
  /** "GET /path", as reported in `Balance.source` and in the reasons. */
  readonly endpoint: string;
  read(requester: SideRequester, quotaUnit: () => Promise<QuotaUnit | null>, signal?: AbortSignal): Promise<BalanceReading>;
}

/** new-api's unlimited key on the OpenAI-compatible billing endpoints (controller/billing.go). */
const UNLIMITED_SENTINEL = 100_000_000;

export const newApiTokenUsage: BalanceReader = {
  endpoint: "GET /api/usage/token/",
  async read(requester, quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/api/usage/token/", { signal }));
    if (!answer.ok) return answer;
    const data = answer.json.data;
    if (!isObject(data) || (amount(data.total_available) === null && amount(data.total_used) === null)) return { ok: false, problem: l10n.t("not a token usage answer") };
    const unit = await quotaUnit();
    const money = (quota: number | null) => (quota === null ? null : unit ? quotaToMoney(quota, unit) : quota);
    const unlimited = data.unlimited_quota === true;
    return {
      ok: true,
      balance: { remaining: unlimited ? null : money(amount(data.total_available)), used: money(amount(data.total_used)), unit: unit ? unit.currency : "quota", unlimited, source: this.endpoint },
    };
  },
};

/** new-api / one-api's OpenAI-compatible billing endpoints, under `/v1` or at the root. */
export function billingSubscription(prefix: "/v1" | ""): BalanceReader {
  const subscriptionPath = `${prefix}/dashboard/billing/subscription`;
  const usagePath = `${prefix}/dashboard/billing/usage`;
  return {
    endpoint: `GET ${subscriptionPath}`,
    async read(requester, quotaUnit, signal) {
      const subscription = successfulJson(await requester.getJson(subscriptionPath, { signal }));
      if (!subscription.ok) return subscription;
      const total = amount(subscription.json.hard_limit_usd);
      if (total === null) return { ok: false, problem: l10n.t("not a billing subscription answer (no hard_limit_usd)") };
      const unit = await quotaUnit();
      const money = (value: number) => (unit?.billingReportsQuota ? quotaToMoney(value, unit) : value);
      const currency = unit ? unit.currency : null;
      const usage = successfulJson(await requester.getJson(usagePath, { signal }));
      const usedTimes100 = usage.ok ? amount(usage.json.total_usage) : null;
      const used = usedTimes100 === null ? null : usedTimes100 / 100;
      // An unlimited key has nothing left to show, but what it spent is still worth knowing.
      if (total === UNLIMITED_SENTINEL) return { ok: true, balance: { remaining: null, used: used === null ? null : money(used), unit: currency, unlimited: true, source: this.endpoint } };
      if (!usage.ok) return { ok: false, problem: l10n.t("{0} answered, but {1} did not: {2}", subscriptionPath, usagePath, usage.problem) };
      if (used === null) return { ok: false, problem: l10n.t("not a billing usage answer (no total_usage)") };
      return { ok: true, balance: { remaining: money(total - used), used: money(used), unit: currency, unlimited: false, source: this.endpoint } };
    },
  };
}

export const openRouterKey: BalanceReader = {
  endpoint: "GET /v1/key",
  async read(requester, _quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/v1/key", { signal }));
    if (!answer.ok) return answer;
    const data = answer.json.data;
    if (!isObject(data) || !("limit" in data)) return { ok: false, problem: l10n.t("not an OpenRouter key answer") };
    const unlimited = data.limit === null;
    return { ok: true, balance: { remaining: unlimited ? null : amount(data.limit_remaining), used: amount(data.usage), unit: "USD", unlimited, source: this.endpoint } };
  },
};

export const liteLlmKeyInfo: BalanceReader = {
  endpoint: "GET /key/info",
  async read(requester, _quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/key/info", { signal }));
    if (!answer.ok) return answer;
    const info = answer.json.info;
    if (!isObject(info) || amount(info.spend) === null) return { ok: false, problem: l10n.t("not a LiteLLM key info answer") };
    const spend = amount(info.spend) as number;
    const budget = amount(info.max_budget) ?? (isObject(info.litellm_budget_table) ? amount(info.litellm_budget_table.max_budget) : null);
    return { ok: true, balance: { remaining: budget === null ? null : budget - spend, used: spend, unit: "USD", unlimited: budget === null, source: this.endpoint } };
  },
};
