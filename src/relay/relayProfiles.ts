import * as l10n from "@vscode/l10n";
import { BaseUrlError, normalizeBaseUrl } from "./baseUrl";
import { checkExtraHeaders } from "./extraHeaders";
import { isObject } from "./outputItems";
import type { InstructionsAs } from "./requestBuilder";

// The relays a person uses, as plain data: the `relayChat.relays` list, plus the single
// `relayChat.baseUrl` (and RELAY_CHAT_BASE_URL) of earlier versions read as one more relay named after its
// host. Several relays are data, not several clients: the host builds one client per profile on demand.
// Where the list comes from (User settings only, never a workspace) is the host's business.

export interface RelayProfile {
  /** What the person calls it ("Cheap relay"); unique, and how turns, the ledger and prices name it. */
  readonly name: string;
  /** As typed; a client normalizes it. */
  readonly baseUrl: string;
  /** Non-secret headers for this relay only; the client built for it refuses secret-looking ones with a message. */
  readonly extraHeaders: Readonly<Record<string, unknown>>;
  readonly consoleUrl: string | null;
  /** "relay": read the relay's published prices (new-api, OpenRouter, LiteLLM); "settings": relayChat.prices only. */
  readonly priceSource: "relay" | "settings";
  /** A relay kind hint (new-api, one-api, openrouter, litellm) for the balance and price readers. */
  readonly kind: string | null;
  /** The person's instructions for every model on this relay, sent after relayChat.instructions; absent: none. */
  readonly instructions?: string | null;
  /** How the relay takes instructions, as the check-up found and the person confirmed; absent: the `instructions` field. */
  readonly instructionsAs?: InstructionsAs | null;
  /** Where it came from, so the panel can say why it cannot be renamed or removed there. */
  readonly origin: "relays" | "baseUrl" | "environment";
}

export interface RelayProfileSources {
  /** The `relayChat.relays` setting, unvalidated. */
  relays: unknown;
  /** `relayChat.baseUrl`. */
  baseUrl: string;
  /** `relayChat.extraHeaders` and `relayChat.consoleUrl`, which go with `relayChat.baseUrl`. */
  extraHeaders: Readonly<Record<string, unknown>>;
  consoleUrl: string;
  /** RELAY_CHAT_BASE_URL, for the demo, shells and CI. */
  environmentBaseUrl: string;
}

export interface ResolvedRelayProfiles {
  profiles: RelayProfile[];
  /** One sentence per entry that was skipped, naming it and what to fix. */
  problems: string[];
}

const KNOWN_FIELDS = new Set(["name", "baseUrl", "extraHeaders", "consoleUrl", "priceSource", "kind", "instructions", "instructionsAs"]);

/** A relay's default name: its host, e.g. "relay.example.com" (with the port when it has one). */
export function relayNameFromUrl(baseUrl: string): string {
  try {
    return new URL(normalizeBaseUrl(baseUrl).root).host;
  } catch {
    return baseUrl.trim();
  }
}

/** `base`, or `base (2)`, `base (3)`… whichever no relay has yet (`taken` holds lower-cased names). */
export function uniqueRelayName(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let suffix = 2; taken.has(name.toLowerCase()); suffix += 1) name = `${base} (${suffix})`;
  return name;
}

export function resolveRelayProfiles(sources: RelayProfileSources): ResolvedRelayProfiles {
  const profiles: RelayProfile[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  const add = (profile: RelayProfile) => {
    names.add(profile.name.toLowerCase());
    profiles.push(profile);
  };

  if (sources.relays !== undefined && sources.relays !== null && !Array.isArray(sources.relays)) {
    problems.push(l10n.t('relayChat.relays must be a list of relays like {"name": "Cheap relay", "baseUrl": "https://relay.example.com/v1"}.'));
  }
  const entries: unknown[] = Array.isArray(sources.relays) ? sources.relays : [];
  entries.forEach((entry, index) => {
    const where = l10n.t("relayChat.relays entry {0}", index + 1);
    if (!isObject(entry)) return problems.push(l10n.t("{0} is not an object.", where));
    const fields = entry;
    const name = typeof fields.name === "string" ? fields.name.trim() : "";
    if (!name) return problems.push(l10n.t('{0} needs a "name", for example "Cheap relay".', where));
    if (names.has(name.toLowerCase())) return problems.push(l10n.t('{0}: the name "{1}" is used twice; names must differ.', where, name));
    const baseUrl = typeof fields.baseUrl === "string" ? fields.baseUrl.trim() : "";
    const urlProblem = baseUrlProblem(baseUrl);
    if (urlProblem) return problems.push(l10n.t("{0} ({1}): {2}", where, name, urlProblem));
    if (fields.extraHeaders !== undefined && !isObject(fields.extraHeaders)) return problems.push(l10n.t('{0} ({1}): "extraHeaders" must be an object of header names and text values.', where, name));
    const headers = checkExtraHeaders(isObject(fields.extraHeaders) ? fields.extraHeaders : {});
    if (!headers.ok) return problems.push(l10n.t("{0} ({1}): {2}", where, name, headers.problem));
    if (fields.priceSource !== undefined && fields.priceSource !== "relay" && fields.priceSource !== "settings") {
      return problems.push(l10n.t('{0} ({1}): "priceSource" is "relay" (the prices the relay publishes) or "settings" (relayChat.prices only).', where, name));
    }
    if (fields.instructions !== undefined && typeof fields.instructions !== "string") return problems.push(l10n.t('{0} ({1}): "instructions" must be text.', where, name));
    if (fields.instructionsAs !== undefined && fields.instructionsAs !== "instructions" && fields.instructionsAs !== "developer") {
      return problems.push(l10n.t('{0} ({1}): "instructionsAs" is "instructions" (the Responses field) or "developer" (a developer message first in the input).', where, name));
    }
    const unknown = Object.keys(fields).filter((field) => !KNOWN_FIELDS.has(field));
    if (unknown.length > 0) return problems.push(l10n.t("{0} ({1}): unknown field {2}. A relay has name, baseUrl, extraHeaders, consoleUrl, priceSource, kind, instructions and instructionsAs; the API key is never a setting.", where, name, unknown.join(", ")));
    add({
      name,
      baseUrl,
      extraHeaders: headers.headers,
      consoleUrl: typeof fields.consoleUrl === "string" && fields.consoleUrl.trim() ? fields.consoleUrl.trim() : null,
      priceSource: fields.priceSource === "settings" ? "settings" : "relay",
      kind: typeof fields.kind === "string" && fields.kind.trim() ? fields.kind.trim() : null,
      ...(typeof fields.instructions === "string" && fields.instructions.trim() ? { instructions: fields.instructions } : {}),
      ...(fields.instructionsAs === "instructions" || fields.instructionsAs === "developer" ? { instructionsAs: fields.instructionsAs } : {}),
      origin: "relays",
    });
  });

  // The single address of earlier versions (and of the environment) is one more relay, unless the list
  // already has a relay at that address.
  const candidates = [
    { baseUrl: sources.baseUrl.trim(), origin: "baseUrl" as const, where: "relayChat.baseUrl" },
    { baseUrl: sources.environmentBaseUrl.trim(), origin: "environment" as const, where: "RELAY_CHAT_BASE_URL" },
  ].filter((candidate) => candidate.baseUrl !== "");
  // An address that cannot be used is said, naming where it was set, rather than skipped in silence.
  for (const candidate of candidates) {
    const problem = baseUrlProblem(candidate.baseUrl);
    if (problem) problems.push(l10n.t("{0}: {1}", candidate.where, problem));
  }
  const single = candidates.find((candidate) => !baseUrlProblem(candidate.baseUrl));
  if (single && !profiles.some((profile) => sameRoot(profile.baseUrl, single.baseUrl))) {
    add({
      name: uniqueRelayName(relayNameFromUrl(single.baseUrl), names),
      baseUrl: single.baseUrl,
      // Checked by the client built for it, which says what is wrong, as for relayChat.extraHeaders before.
      extraHeaders: sources.extraHeaders,
      consoleUrl: sources.consoleUrl.trim() || null,
      priceSource: "relay",
      kind: null,
      origin: single.origin,
    });
  }
  return { profiles, problems };
}

/**
 * The relay the panel sends to until the person picks one: the relay of `relayChat.baseUrl` (or
 * RELAY_CHAT_BASE_URL) when there is one, because that is the relay they used before listing others, and a
 * relay added to `relayChat.relays` by hand must not take its place unasked; otherwise the list's first.
 */
export function defaultRelay(profiles: readonly RelayProfile[]): RelayProfile | undefined {
  return profiles.find((profile) => profile.origin !== "relays") ?? profiles[0];
}

/** Why `baseUrl` cannot be used as a relay's address, in a sentence; null when it can. */
export function baseUrlProblem(baseUrl: string): string | null {
  try {
    normalizeBaseUrl(baseUrl);
    return null;
  } catch (error) {
    if (error instanceof BaseUrlError) return error.message;
    throw error;
  }
}

function sameRoot(a: string, b: string): boolean {
  try {
    return normalizeBaseUrl(a).root === normalizeBaseUrl(b).root;
  } catch {
    return false;
  }
}
