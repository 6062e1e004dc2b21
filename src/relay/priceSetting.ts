import * as l10n from "@vscode/l10n";
import type { ModelPrice, PriceTable } from "./modelPrice";
import { isObject } from "./outputItems";
import { MAX_PRICE_PER_MILLION, saneNumber } from "./saneNumber";

// The `relayChat.prices` setting: prices the user types for models whose relay publishes none. Plain
// data, a list of entries:
//   [{ "model": "gpt-4o-mini", "relay": "Cheap relay", "input": 0.15, "cachedInput": 0.075, "output": 0.6, "currency": "USD" }]
// money per million tokens; `relay` (a relay profile's name) and `cachedInput` are optional, `currency`
// defaults to USD. An entry naming the relay wins over one for any relay. A bad entry is reported and
// skipped; the others still apply.

export interface PriceSettingEntry {
  model: string;
  /** The relay profile the price is for; absent: any relay. */
  relay: string | null;
  price: ModelPrice;
}

export interface ParsedPriceSetting {
  entries: PriceSettingEntry[];
  /** One sentence per entry that was skipped, naming it and what to fix. */
  problems: string[];
}

const CURRENCY = /^[A-Z]{3}$/;

export function parsePriceSetting(value: unknown): ParsedPriceSetting {
  const entries: PriceSettingEntry[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { entries, problems };
  if (!Array.isArray(value)) return { entries, problems: [l10n.t('relayChat.prices must be a list of entries like {"model": "gpt-4o-mini", "input": 0.15, "output": 0.6}.')] };
  value.forEach((entry, index) => {
    const where = l10n.t("relayChat.prices entry {0}", index + 1);
    if (!isObject(entry)) return problems.push(l10n.t("{0} is not an object.", where));
    if (typeof entry.model !== "string" || entry.model.trim() === "") return problems.push(l10n.t('{0} needs a "model" (the model id as the relay lists it).', where));
    if (entry.relay !== undefined && (typeof entry.relay !== "string" || entry.relay.trim() === "")) return problems.push(l10n.t('{0} ({1}): "relay" must be the name of a relay profile.', where, entry.model));
    const amounts = [entry.input, entry.output, entry.cachedInput ?? 0];
    if (!amounts.every((amount) => saneNumber(amount, { max: MAX_PRICE_PER_MILLION }) !== null)) {
      return problems.push(l10n.t('{0} ({1}): "input" and "output" (and "cachedInput" if given) must be numbers of 0 or more, in money per million tokens.', where, entry.model));
    }
    const currency = entry.currency === undefined ? "USD" : typeof entry.currency === "string" ? entry.currency.trim().toUpperCase() : "";
    if (!CURRENCY.test(currency)) return problems.push(l10n.t('{0} ({1}): "currency" must be a three-letter code such as USD or CNY.', where, entry.model));
    entries.push({
      model: entry.model.trim(),
      relay: typeof entry.relay === "string" ? entry.relay.trim() : null,
      price: { inputPerMillion: entry.input as number, cachedInputPerMillion: typeof entry.cachedInput === "number" ? entry.cachedInput : null, outputPerMillion: entry.output as number, currency },
    });
  });
  return { entries, problems };
}

/**
 * The price of `model` on the relay named `relayName`: the relay's own price list first, then the
 * setting (an entry for this relay before one for any relay), else null: unknown, never 0.
 */
export function priceFor(model: string, relayName: string | null, relayPrices: PriceTable | null, settingEntries: readonly PriceSettingEntry[]): ModelPrice | null {
  const published = relayPrices?.get(model);
  if (published) return published;
  const forModel = settingEntries.filter((entry) => entry.model === model);
  return (forModel.find((entry) => relayName !== null && entry.relay === relayName) ?? forModel.find((entry) => entry.relay === null))?.price ?? null;
}
