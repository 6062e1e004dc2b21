// Two parts of a request's record (conversation.ts RequestRecord) that other modules work out: what the
// request cost (cost.ts) and the model settings it went with (modelRequestOptions.ts). Kept apart so
// the record's types import nothing that imports them back.

/** What one request cost: the estimate from the model's price and the usage, and what the relay billed. */
export interface RequestCost {
  /** From the model's price and the usage; null when either is unknown. */
  estimated: number | null;
  /** What the relay says it charged; null when it did not say. */
  billed: number | null;
  /** The currency of both figures; null when neither is known. */
  currency: string | null;
}

/** The per-model settings a request went with, as saved in its record; only what differs from the defaults. */
export interface SentModelSettings {
  reasoningEffort?: string;
  temperature?: number;
  /** The model's own output cap (the request's budget, relayChat.maxOutputTokens overridden). */
  maxOutputTokens?: number;
  /** The model is set to receive no tools: none were offered. */
  noTools?: true;
}
