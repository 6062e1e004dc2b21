// What VS Code's chat is told about each relay model. Relays list model ids only (no context window, no
// feature list), so the limits come from the `relayChat.languageModels` setting, keyed by model id or
// "*", else from the defaults below, which docs/vscode-chat.md and the setting's description state.
import type { JsonObject } from "../relay/types";

/** A context window most current models have; VS Code trims the prompt to fit it. */
export const DEFAULT_MAX_INPUT_TOKENS = 128_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 16_000;

export interface ModelLimits {
  maxInputTokens: number;
  maxOutputTokens: number;
  /** False when the setting says so or the relay check-up found the model without tools. */
  toolCalling: boolean;
  /** Whether VS Code's chat may attach images: only when the setting says the model reads them (relays do not tell). */
  imageInput: boolean;
  /** Where the numbers came from, for the tooltip. */
  source: "setting" | "default";
}

export interface ModelOverride {
  maxInputTokens?: number;
  maxOutputTokens?: number;
  toolCalling?: boolean;
  imageInput?: boolean;
}

/** Reads the setting's value defensively: a hand-edited settings.json may hold anything. */
export function modelOverridesFrom(value: unknown): Map<string, ModelOverride> {
  const overrides = new Map<string, ModelOverride>();
  if (typeof value !== "object" || value === null || Array.isArray(value)) return overrides;
  for (const [modelId, entry] of Object.entries(value as JsonObject)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const override: ModelOverride = {};
    if (isPositiveInteger(entry.maxInputTokens)) override.maxInputTokens = entry.maxInputTokens;
    if (isPositiveInteger(entry.maxOutputTokens)) override.maxOutputTokens = entry.maxOutputTokens;
    if (typeof entry.toolCalling === "boolean") override.toolCalling = entry.toolCalling;
    if (typeof entry.imageInput === "boolean") override.imageInput = entry.imageInput;
    overrides.set(modelId, override);
  }
  return overrides;
}

/**
 * The model's own entry wins over "*", which wins over the defaults. `knownWithoutTools` is what the
 * check-up found; an explicit `toolCalling: true` in the setting overrides it (the user knows better).
 */
export function limitsFor(modelId: string, overrides: ReadonlyMap<string, ModelOverride>, knownWithoutTools: boolean): ModelLimits {
  const own = overrides.get(modelId) ?? {};
  const all = overrides.get("*") ?? {};
  const maxInputTokens = own.maxInputTokens ?? all.maxInputTokens;
  const maxOutputTokens = own.maxOutputTokens ?? all.maxOutputTokens;
  const toolCalling = own.toolCalling ?? all.toolCalling;
  return {
    maxInputTokens: maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS,
    maxOutputTokens: maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    toolCalling: toolCalling ?? !knownWithoutTools,
    imageInput: own.imageInput ?? all.imageInput ?? false,
    source: maxInputTokens !== undefined || maxOutputTokens !== undefined ? "setting" : "default",
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}
