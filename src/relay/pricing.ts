import * as l10n from "@vscode/l10n";
import type { PriceTable } from "./modelPrice";
import type { PriceReader } from "./pricingReaders";
import { liteLlmModelInfo, newApiPricing, openRouterModels } from "./pricingReaders";
import { lazyQuotaUnit } from "./quotaUnit";
import type { RelayKind } from "./relayKind";
import { relayKindFromRoot } from "./relayKind";
import type { SideRequester } from "./sideAnswer";

// The prices a relay publishes, from whichever price list it has (the first that lists at least one
// priced model wins). Fetched once per relay and cached by the caller (timedCache.ts), never on the send
// path: a request's cost is computed from what is cached, or stays unknown.

/** How long a relay's price list is kept before it is asked for again. */
export const PRICE_LIST_FRESH_MS = 60 * 60_000;

export type PriceTableResult = { ok: true; prices: PriceTable; source: string } | { ok: false; reason: string };

const READERS_BY_KIND: Record<RelayKind, readonly PriceReader[]> = {
  "new-api": [newApiPricing],
  // one-api publishes ratios only to its administrators.
  "one-api": [],
  openrouter: [openRouterModels],
  litellm: [liteLlmModelInfo],
};

const ALL_READERS: readonly PriceReader[] = [newApiPricing, openRouterModels, liteLlmModelInfo];

export async function readPrices(requester: SideRequester & { root: string }, options: { kind?: RelayKind | null; signal?: AbortSignal } = {}): Promise<PriceTableResult> {
  const kind = options.kind ?? relayKindFromRoot(requester.root);
  const quotaUnit = lazyQuotaUnit(requester, options.signal);
  const problems: string[] = [];
  for (const reader of kind ? READERS_BY_KIND[kind] : ALL_READERS) {
    const reading = await reader.read(requester, quotaUnit, options.signal);
    if (reading.ok && reading.prices.size > 0) return { ok: true, prices: reading.prices, source: reader.endpoint };
    problems.push(`${reader.endpoint}: ${reading.ok ? l10n.t("no model with a per-token price") : reading.problem}`);
    if (options.signal?.aborted) break;
  }
  return { ok: false, reason: problems.length > 0 ? l10n.t("The relay publishes no prices. {0}", problems.join("; ")) : l10n.t("This kind of relay publishes no prices.") };
}
