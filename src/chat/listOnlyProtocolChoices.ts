import type { ModelInfo } from "../relay/types";
import { withModelSettings } from "./modelSettings";

// Choices of Chat Completions that earlier versions wrote from a relay's model list alone, found so they can be
// dropped once. Those versions read new-api's `supported_endpoint_types` ["openai"] as "Chat Completions only", but
// new-api lists ["openai"] for every model of a default channel, whose /v1/responses works (common/endpoint_type.go).
// The check-up then reported such a model as needing Chat Completions without sending it a Responses request, and
// its "Use Chat Completions for this model" wrote `{relay, model, protocol: "chat"}` into relayChat.modelSettings:
// the same entry a confirmed refusal or Model settings… writes, with no mark of where it came from. What tells
// them apart is what those versions did with such a model: once its relay's list was read, every request for it
// (the panel's and the check-up's) went over Chat Completions, so no Responses refusal could ever be seen for it.
// A choice for a model the list shows that way therefore came from the list, not from a refusal. Entries for every
// relay (no `relay`) were never written by Relay Chat: the person wrote them, and they are kept.

/** A protocol choice in relayChat.modelSettings: the relay its entry names and the model. */
export interface ProtocolChoice {
  relay: string;
  model: string;
}

/** A relay and model as a command's argument names them (a link or a button: untrusted); null when it does not. */
export function protocolChoiceOf(value: unknown): ProtocolChoice | null {
  if (typeof value !== "object" || value === null) return null;
  const { relay, model } = value as Record<string, unknown>;
  return typeof relay === "string" && typeof model === "string" && relay !== "" && model !== "" ? { relay, model } : null;
}

/** How versions before this one read a listed model: "openai" without "openai-response" meant Chat Completions only. */
export function readAsChatOnlyBefore(model: ModelInfo | undefined): boolean {
  const types = model?.supported_endpoint_types;
  return Array.isArray(types) && types.includes("openai") && !types.includes("openai-response");
}

/** The entries of the setting's raw value that choose Chat Completions for a named relay, as written. */
export function chatChoicesOf(raw: unknown): ProtocolChoice[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    if (typeof item !== "object" || item === null) return [];
    const record = item as Record<string, unknown>;
    const named = typeof record.relay === "string" && record.relay.trim() !== "" && typeof record.model === "string" && record.model !== "";
    return named && record.protocol === "chat" ? [{ relay: record.relay as string, model: record.model as string }] : [];
  });
}

/** Whether two choices name the same relay (relay names compare without regard to case, as the setting is read) and model. */
export function sameChoice(a: ProtocolChoice, b: ProtocolChoice): boolean {
  return a.model === b.model && a.relay.toLowerCase() === b.relay.toLowerCase();
}

/** Of `choices` on the relay whose list is `models`, those earlier versions made from the list alone (see the top). */
export function listOnlyChoices(choices: readonly ProtocolChoice[], models: readonly ModelInfo[]): ProtocolChoice[] {
  return choices.filter((choice) => readAsChatOnlyBefore(models.find((model) => model.id === choice.model)));
}

/**
 * The setting's new value with the protocol of each of `choices` set to `protocol`, or removed when undefined (the
 * entry's other fields kept; an entry left empty goes).
 */
export function withProtocolOf(raw: unknown, choices: readonly ProtocolChoice[], protocol: "chat" | undefined): unknown[] {
  let value: unknown[] = Array.isArray(raw) ? raw : [];
  for (const choice of choices) value = withModelSettings(value, choice.relay, choice.model, { protocol });
  return value;
}

/** What the migration needs of the extension (src/host/checkUp/listOnlyProtocolMigration.ts gives the VS Code side). */
export interface ListOnlyMigrationHost {
  /** Kept across sessions (globalState): what is left to look at, so a choice is dropped and told at most once. */
  readonly state: { get(key: string): unknown; update(key: string, value: unknown): Thenable<void> | Promise<void> };
  /** relayChat.modelSettings as the User settings hold it, and a new value for it. */
  readSetting(): unknown;
  writeSetting(value: unknown[]): Promise<void>;
  /** The relay's model list (`relay` in lower case), or null while it cannot be read (no key, not reachable): the relay is looked at later. */
  modelsOf(relay: string): Promise<readonly ModelInfo[] | null>;
}

/** globalState: the choices still to look at, taken from the setting the first time the migration runs. */
export const PENDING_CHOICES_KEY = "relayChat.listOnlyProtocolChoices.pending";

/**
 * Drops, once, the Chat Completions choices earlier versions wrote from a relay's model list alone. The choices to
 * look at are the ones in the setting when this version first runs (a choice made later is the person's, or
 * confirmed after a refusal, and never looked at); each relay is looked at once its list can be read. Returns what
 * was dropped, to tell the person (once: it is remembered as looked at before this returns).
 */
export async function dropListOnlyProtocolChoices(host: ListOnlyMigrationHost): Promise<ProtocolChoice[]> {
  let pending = pendingChoices(host.state.get(PENDING_CHOICES_KEY));
  if (pending === null) {
    pending = chatChoicesOf(host.readSetting());
    await host.state.update(PENDING_CHOICES_KEY, pending);
  }
  if (pending.length === 0) return [];
  const stillChat = chatChoicesOf(host.readSetting());
  const looked: ProtocolChoice[] = [];
  const dropped: ProtocolChoice[] = [];
  // Relay names compare without regard to case, as the setting is read.
  for (const relay of new Set(pending.map((choice) => choice.relay.toLowerCase()))) {
    const ofRelay = pending.filter((choice) => choice.relay.toLowerCase() === relay);
    // A choice the person changed meanwhile is theirs: nothing to look at.
    const current = ofRelay.filter((choice) => stillChat.some((kept) => sameChoice(kept, choice)));
    const models = current.length === 0 ? [] : await host.modelsOf(relay);
    if (models === null) continue;
    looked.push(...ofRelay);
    dropped.push(...listOnlyChoices(current, models));
  }
  if (dropped.length > 0) await host.writeSetting(withProtocolOf(host.readSetting(), dropped, undefined));
  // Remembered before the person is told, so a reload in between neither drops nor tells again.
  await host.state.update(
    PENDING_CHOICES_KEY,
    pending.filter((choice) => !looked.includes(choice)),
  );
  return dropped;
}


function pendingChoices(stored: unknown): ProtocolChoice[] | null {
  if (!Array.isArray(stored)) return null;
  return stored.filter((item): item is ProtocolChoice => typeof item === "object" && item !== null && typeof item.relay === "string" && typeof item.model === "string");
}
