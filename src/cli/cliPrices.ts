import { readFile } from "node:fs/promises";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import { readPrices } from "../relay/pricing";
import { parsePriceSetting, priceFor } from "../relay/priceSetting";
import type { PriceSettingEntry } from "../relay/priceSetting";
import type { RelayKind } from "../relay/relayKind";

// The price `ask` computes its cost estimate with: the relay's published price list, else a `--prices
// FILE` in the shape of the relayChat.prices setting. The price list is asked for beside the request,
// never before it, and a relay that publishes none leaves the estimate unknown.

const PRICE_LIST_TIMEOUT_MS = 5_000;

/** Reads and checks a prices file; throws an Error whose message says what to fix. */
export async function readPricesFile(file: string): Promise<PriceSettingEntry[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`--prices ${file}: ${(error as Error).message}`);
  }
  const setting = parsePriceSetting(parsed);
  if (setting.problems.length > 0) throw new Error(`--prices ${file}: ${setting.problems.join(" ")}`);
  return setting.entries;
}

/** The model's price from the relay's price list, else from the file's entries; null when neither has it. */
export async function cliPriceOf(client: RelayClient, model: string, entries: readonly PriceSettingEntry[], kind: RelayKind | null, signal: AbortSignal): Promise<ModelPrice | null> {
  const published = await readPrices(
    { root: client.root, getJson: (path, options) => client.getJson(path, { ...options, timeoutMs: PRICE_LIST_TIMEOUT_MS }) },
    { kind, signal },
  ).catch(() => null);
  return priceFor(model, null, published?.ok ? published.prices : null, entries);
}
