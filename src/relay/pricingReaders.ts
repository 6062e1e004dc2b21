import * as l10n from "@vscode/l10n";
import type { ModelPrice } from "./modelPrice";
import { isObject } from "./outputItems";
import type { QuotaUnit } from "./quotaUnit";
import { DEFAULT_QUOTA_PER_UNIT, quotaToMoney } from "./quotaUnit";
import type { SideRequester } from "./sideAnswer";
import { finiteNumber, successfulJson } from "./sideAnswer";
import { MAX_FACTOR, MAX_PRICE_PER_MILLION, saneNumber } from "./saneNumber";
import type { JsonObject } from "./types";

// One reader per price list a relay may publish. Shapes, from the relays' sources:
// - new-api `GET /api/pricing` (public): `{"success": true, "data": [{"model_name", "quota_type",
//   "model_ratio", "completion_ratio", "cache_ratio"?, "enable_groups"}], "group_ratio": {...}}`
//   (model/pricing.go, controller/pricing.go). quota_type 0 is priced per token: a ratio of 1 costs 1
//   quota per token, so a million tokens cost ratio x group ratio x 1e6 quota, turned into money with
//   `/api/status` (quotaUnit.ts); with the default 500 000 quota per dollar that is the price page's
//   "model_ratio x 2 USD". Output costs completion_ratio times the input, cached input cache_ratio times.
//   The group ratio is the one the price page shows by default: the lowest of the model's groups, else 1.
//   quota_type 1 (a price per call) has no per-token price and is left out.
// - OpenRouter `GET /api/v1/models`: `{"data": [{"id", "context_length", "pricing": {"prompt",
//   "completion", "input_cache_read"}}]}`, US dollars per token as strings; "-1" means variable.
// - LiteLLM `GET /v1/model/info`: `{"data": [{"model_name", "model_info": {"input_cost_per_token",
//   "output_cost_per_token", "cache_read_input_token_cost", "max_input_tokens"}}]}`, US dollars.

export type PriceReading = { ok: true; prices: Map<string, ModelPrice> } | { ok: false; problem: string };

export interface PriceReader {
  readonly endpoint: string;
  read(requester: SideRequester, quotaUnit: () => Promise<QuotaUnit | null>, signal?: AbortSignal): Promise<PriceReading>;
}

const MILLION = 1_000_000;

export const newApiPricing: PriceReader = {
  endpoint: "GET /api/pricing",
  async read(requester, quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/api/pricing", { signal, withKey: false }));
    if (!answer.ok) return answer;
    if (!Array.isArray(answer.json.data)) return { ok: false, problem: l10n.t("not a pricing answer (no data list)") };
    const unit = (await quotaUnit()) ?? { quotaPerUnit: DEFAULT_QUOTA_PER_UNIT, currency: "USD", perUsd: 1, billingReportsQuota: false };
    const groupRatios = isObject(answer.json.group_ratio) ? answer.json.group_ratio : {};
    return { ok: true, prices: new Map(answer.json.data.filter(isObject).flatMap((entry) => newApiEntryPrice(entry, groupRatios, unit))) };
  },
};

function newApiEntryPrice(entry: JsonObject, groupRatios: JsonObject, unit: QuotaUnit): [string, ModelPrice][] {
  const ratio = saneNumber(entry.model_ratio, { max: MAX_FACTOR });
  const completionRatio = saneNumber(entry.completion_ratio, { max: MAX_FACTOR });
  if (typeof entry.model_name !== "string" || entry.quota_type !== 0 || ratio === null || completionRatio === null) return [];
  const inputPerMillion = perMillion(quotaToMoney(ratio * lowestGroupRatio(entry.enable_groups, groupRatios) * MILLION, unit));
  const outputPerMillion = inputPerMillion === null ? null : perMillion(inputPerMillion * completionRatio);
  if (inputPerMillion === null || outputPerMillion === null) return [];
  const cacheRatio = saneNumber(entry.cache_ratio, { max: MAX_FACTOR });
  return [[entry.model_name, { inputPerMillion, cachedInputPerMillion: cacheRatio === null ? null : perMillion(inputPerMillion * cacheRatio), outputPerMillion, currency: unit.currency }]];
}

/** A computed price per million tokens, or null when it is not a sane one (see saneNumber.ts). */
function perMillion(amount: number): number | null {
  return saneNumber(amount, { max: MAX_PRICE_PER_MILLION });
}

function lowestGroupRatio(groups: unknown, groupRatios: JsonObject): number {
  const ratios = (Array.isArray(groups) ? groups : []).map((group) => (typeof group === "string" ? saneNumber(groupRatios[group], { max: MAX_FACTOR }) : null)).filter((ratio): ratio is number => ratio !== null);
  return ratios.length > 0 ? Math.min(...ratios) : 1;
}

export const openRouterModels: PriceReader = {
  endpoint: "GET /v1/models",
  async read(requester, _quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/v1/models", { signal }));
    if (!answer.ok) return answer;
    if (!Array.isArray(answer.json.data)) return { ok: false, problem: l10n.t("not a model list (no data list)") };
    return { ok: true, prices: pricesFromOpenRouterModels(answer.json.data) };
  },
};

/**
 * Prices from OpenRouter's model list entries; also usable on a model list already fetched (the
 * entries of `RelayClient.listModels` keep every field).
 */
export function pricesFromOpenRouterModels(models: readonly unknown[]): Map<string, ModelPrice> {
  const prices = new Map<string, ModelPrice>();
  for (const model of models) {
    if (!isObject(model) || typeof model.id !== "string" || !isObject(model.pricing)) continue;
    const price = perTokenPrice({ input: model.pricing.prompt, output: model.pricing.completion, cachedInput: model.pricing.input_cache_read, contextWindow: model.context_length });
    if (price) prices.set(model.id, price);
  }
  return prices;
}

/** A price list's US dollars per token as a price per million; null without an input and an output price. */
function perTokenPrice(fields: { input: unknown; output: unknown; cachedInput: unknown; contextWindow: unknown }): ModelPrice | null {
  const input = perTokenText(fields.input);
  const output = perTokenText(fields.output);
  if (input === null || output === null) return null;
  const cached = perTokenText(fields.cachedInput);
  const contextWindow = finiteNumber(fields.contextWindow);
  return {
    inputPerMillion: input,
    cachedInputPerMillion: cached,
    outputPerMillion: output,
    currency: "USD",
    ...(contextWindow !== null && contextWindow > 0 ? { contextWindow } : {}),
  };
}

/**
 * "0.000001" (or a number) per token, as a price per million; negative ("-1", variable pricing), absurd
 * ("1e303", "0x10") and unreadable values are unknown.
 */
function perTokenText(value: unknown): number | null {
  const perToken = saneNumber(value, { max: MAX_FACTOR, text: true });
  return perToken === null ? null : perMillion(perToken * MILLION);
}

export const liteLlmModelInfo: PriceReader = {
  endpoint: "GET /v1/model/info",
  async read(requester, _quotaUnit, signal) {
    const answer = successfulJson(await requester.getJson("/v1/model/info", { signal }));
    if (!answer.ok) return answer;
    if (!Array.isArray(answer.json.data)) return { ok: false, problem: l10n.t("not a model info answer (no data list)") };
    const prices = new Map<string, ModelPrice>();
    for (const entry of answer.json.data) {
      if (!isObject(entry) || typeof entry.model_name !== "string" || !isObject(entry.model_info)) continue;
      const info = entry.model_info;
      const price = perTokenPrice({ input: info.input_cost_per_token, output: info.output_cost_per_token, cachedInput: info.cache_read_input_token_cost, contextWindow: info.max_input_tokens });
      if (price) prices.set(entry.model_name, price);
    }
    return { ok: true, prices };
  },
};
