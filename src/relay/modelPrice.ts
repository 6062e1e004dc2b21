// A model's price as Relay Chat uses it: money per million tokens, in one currency. Readers of the
// relays' price lists (pricing.ts) and the `relayChat.prices` setting (priceSetting.ts) both produce it;
// the cost of a request is computed from it in src/chat/cost.ts.

export interface ModelPrice {
  inputPerMillion: number;
  /** The price of input tokens read from the prompt cache; null when the relay names none (the input price applies). */
  cachedInputPerMillion: number | null;
  outputPerMillion: number;
  /** ISO 4217 code, e.g. "USD" or "CNY". */
  currency: string;
  /** The model's context window in tokens, where the price list says it (OpenRouter, LiteLLM). */
  contextWindow?: number;
}

/** Prices by model id, as one relay publishes them. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;
