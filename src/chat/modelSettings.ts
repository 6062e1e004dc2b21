import * as l10n from "@vscode/l10n";

// What the person set for one model (on one relay, or on every relay): the wire protocol it speaks, reasoning
// effort, temperature, output cap, whether tools go with its requests, and instructions of its own. Plain data read
// from `relayChat.modelSettings` (User settings only: a workspace never changes what is sent or where). The host
// writes an entry when the person confirms a change (Model settings…, or the check-up's protocol finding).

/** The two wire formats a relay may offer for a model. */
export type ModelProtocol = "responses" | "chat";

export const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ModelSettings {
  /** Which endpoint the model's requests go to; "responses" (/v1/responses) unless set. */
  readonly protocol?: ModelProtocol;
  readonly reasoningEffort?: ReasoningEffort;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** false: requests to this model carry no tools (for models or channels that reject them). */
  readonly sendTools?: boolean;
  /** Sent after relayChat.instructions (and the relay's own), before the project rules. */
  readonly instructions?: string;
}

export interface ModelSettingsEntry extends ModelSettings {
  /** The relay's name as in the picker; absent means every relay. */
  readonly relay?: string;
  readonly model: string;
}

export interface ReadModelSettings {
  entries: ModelSettingsEntry[];
  /** One sentence per entry or field that was skipped, saying what to fix. */
  problems: string[];
}

/** Reads the setting's raw value; a wrong field is skipped and said, never thrown. */
export function readModelSettings(raw: unknown): ReadModelSettings {
  const entries: ModelSettingsEntry[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { entries, problems };
  if (!Array.isArray(raw)) return { entries, problems: [l10n.t("relayChat.modelSettings must be a list of {0} entries.", '{"model": …}')] };
  raw.forEach((item, index) => {
    const where = `relayChat.modelSettings[${index}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push(l10n.t("{0} is not an object; it was skipped.", where));
      return;
    }
    const record = item as Record<string, unknown>;
    const model = typeof record.model === "string" ? record.model.trim() : "";
    if (!model) {
      problems.push(l10n.t("{0} has no \"model\"; it was skipped.", where));
      return;
    }
    const entry: { -readonly [K in keyof ModelSettingsEntry]: ModelSettingsEntry[K] } = { model };
    if (typeof record.relay === "string" && record.relay.trim()) entry.relay = record.relay.trim();
    const skip = (field: string, expected: string): void => {
      problems.push(l10n.t("{0} should be {1}; it was ignored.", `${where}.${field}`, expected));
    };
    if (record.protocol !== undefined) {
      if (record.protocol === "responses" || record.protocol === "chat") entry.protocol = record.protocol;
      else skip("protocol", '"responses" or "chat"');
    }
    if (record.reasoningEffort !== undefined) {
      if ((REASONING_EFFORTS as readonly unknown[]).includes(record.reasoningEffort)) entry.reasoningEffort = record.reasoningEffort as ReasoningEffort;
      else skip("reasoningEffort", REASONING_EFFORTS.map((value) => `"${value}"`).join(", "));
    }
    if (record.temperature !== undefined) {
      if (typeof record.temperature === "number" && Number.isFinite(record.temperature) && record.temperature >= 0 && record.temperature <= 2) entry.temperature = record.temperature;
      else skip("temperature", l10n.t("a number from 0 to 2"));
    }
    if (record.maxOutputTokens !== undefined) {
      if (Number.isInteger(record.maxOutputTokens) && (record.maxOutputTokens as number) > 0) entry.maxOutputTokens = record.maxOutputTokens as number;
      else skip("maxOutputTokens", l10n.t("a whole number above 0"));
    }
    if (record.sendTools !== undefined) {
      if (typeof record.sendTools === "boolean") entry.sendTools = record.sendTools;
      else skip("sendTools", "true / false");
    }
    if (record.instructions !== undefined) {
      if (typeof record.instructions === "string") entry.instructions = record.instructions;
      else skip("instructions", l10n.t("text"));
    }
    entries.push(entry);
  });
  return { entries, problems };
}

/**
 * The settings for `model` on `relay`: an entry for every relay first, then the relay's own on top (the more
 * specific wins field by field). Model ids compare exactly, relay names without regard to case.
 */
export function modelSettingsFor(entries: readonly ModelSettingsEntry[], relay: string, model: string): ModelSettings {
  const relayKey = relay.toLowerCase();
  const everyRelay = entries.filter((entry) => entry.model === model && entry.relay === undefined);
  const thisRelay = entries.filter((entry) => entry.model === model && entry.relay?.toLowerCase() === relayKey);
  const merged: Record<string, unknown> = {};
  for (const entry of [...everyRelay, ...thisRelay]) {
    for (const [field, value] of Object.entries(entry)) {
      if (field !== "relay" && field !== "model" && value !== undefined) merged[field] = value;
    }
  }
  return merged as ModelSettings;
}

/** The protocol to use for `model` on `relay`: what the person set, else Responses. */
export function protocolFor(entries: readonly ModelSettingsEntry[], relay: string, model: string): ModelProtocol {
  return modelSettingsFor(entries, relay, model).protocol ?? "responses";
}

/**
 * The setting's new value with `changes` applied to the entry for exactly this relay and model (created when
 * missing; a field set to undefined is removed; an entry left with nothing is dropped). Other entries, including
 * ones the person wrote by hand with fields we do not know, are kept as they were.
 */
export function withModelSettings(raw: unknown, relay: string, model: string, changes: Partial<Record<keyof ModelSettings, unknown>>): unknown[] {
  const list = Array.isArray(raw) ? [...raw] : [];
  const relayKey = relay.toLowerCase();
  const index = list.findIndex((item) => {
    if (typeof item !== "object" || item === null) return false;
    const record = item as Record<string, unknown>;
    return record.model === model && typeof record.relay === "string" && record.relay.toLowerCase() === relayKey;
  });
  const current: Record<string, unknown> = index >= 0 ? { ...(list[index] as Record<string, unknown>) } : { relay, model };
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) delete current[field];
    else current[field] = value;
  }
  const meaningful = Object.keys(current).some((field) => field !== "relay" && field !== "model");
  if (index >= 0) {
    if (meaningful) list[index] = current;
    else list.splice(index, 1);
  } else if (meaningful) {
    list.push(current);
  }
  return list;
}
