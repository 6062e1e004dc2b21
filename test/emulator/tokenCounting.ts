import { imageInputTokens, imageOfPart } from "./inputImages";

// Deterministic stand-ins for a tokenizer: tests can predict every figure.

/**
 * About four characters per token of the input's JSON; an image counts as a vision model bills it (by its size,
 * inputImages.ts), not by the characters of its data URL.
 */
export function countInputTokens(input: unknown): number {
  let imageTokens = 0;
  const text = JSON.stringify(input ?? "", (_key, value: unknown) => {
    const image = imageOfPart(value);
    if (image === null) return value;
    imageTokens += imageInputTokens(image, (value as { detail?: unknown }).detail);
    return { ...(value as object), image_url: "" };
  });
  return Math.ceil(text.length / 4) + imageTokens;
}

/** Splits text into word-sized deltas that concatenate back to the exact text: "Hi", " there", "!" */
export function splitIntoWordDeltas(text: string): string[] {
  return text.match(/\s*[^\s]+|\s+$/g) ?? [];
}

/** Splits a JSON string the way function-call argument deltas arrive: `{"`, `city`, `":"`, `Paris`, `"}`. */
export function splitIntoArgumentDeltas(json: string): string[] {
  return json.match(/[A-Za-z0-9_.\-]+|\s+|[^A-Za-z0-9_.\-\s]+/g) ?? [];
}
