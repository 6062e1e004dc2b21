import { isObject } from "./outputItems";
import type { OutputItem, Usage } from "./types";

// What the relay said the request used, when that can be believed. Gateways that translate to Chat
// Completions send usage objects of all zeros from start to finish (they never ask their upstream), and
// some relays send no usage at all. Such a figure is "not reported": a receipt never shows it and a total
// never adds it as 0, because the relay still billed the request.

/** The usage to show and add up, or null when it is missing, carries no figures, or is all zeros for a non-empty answer. */
export function countedUsage(usage: Usage | null, output: readonly OutputItem[]): Usage | null {
  if (!usage) return null;
  const figures = [usage.input_tokens, usage.output_tokens, usage.total_tokens].filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  if (figures.length === 0) return null;
  if (figures.every((value) => value === 0) && hasAnswer(output)) return null;
  return usage;
}

/** Any function call, reasoning or other item, or a message with text: output that cost tokens. */
function hasAnswer(output: readonly OutputItem[]): boolean {
  return output.some((item) => {
    if (item.type !== "message") return true;
    const parts = Array.isArray(item.content) ? item.content : [];
    return parts.some((part) => isObject(part) && ((typeof part.text === "string" && part.text !== "") || (typeof part.refusal === "string" && part.refusal !== "")));
  });
}
