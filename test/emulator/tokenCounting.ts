// Deterministic stand-ins for a tokenizer: tests can predict every figure.

export function countInputTokens(input: unknown): number {
  return Math.ceil(JSON.stringify(input ?? "").length / 4);
}

/** Splits text into word-sized deltas that concatenate back to the exact text: "Hi", " there", "!" */
export function splitIntoWordDeltas(text: string): string[] {
  return text.match(/\s*[^\s]+|\s+$/g) ?? [];
}

/** Splits a JSON string the way function-call argument deltas arrive: `{"`, `city`, `":"`, `Paris`, `"}`. */
export function splitIntoArgumentDeltas(json: string): string[] {
  return json.match(/[A-Za-z0-9_.\-]+|\s+|[^A-Za-z0-9_.\-\s]+/g) ?? [];
}
