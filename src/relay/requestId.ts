// The request id ties a request to the relay's usage log. Relays name the header differently, so a list
// is tried in order; a relay-specific header (x-oneapi-request-id, x-service-request-id) always wins over
// the generic x-request-id, which a proxy in front of the relay may add with an id of its own. Some
// relays put the id only into the error message, as "(request id: ...)". Every id seen is kept.

const GENERIC_REQUEST_ID_HEADER = "x-request-id";

export const DEFAULT_REQUEST_ID_HEADERS: readonly string[] = ["x-oneapi-request-id", "x-service-request-id", GENERIC_REQUEST_ID_HEADER];

export type HeaderBag = Record<string, string | string[] | undefined>;

/** The header names in the order they are trusted: as listed, with the generic x-request-id last. */
function requestIdHeaderOrder(names: readonly string[]): string[] {
  const lower = [...new Set(names.map((name) => name.trim().toLowerCase()).filter(Boolean))];
  return [...lower.filter((name) => name !== GENERIC_REQUEST_ID_HEADER), ...lower.filter((name) => name === GENERIC_REQUEST_ID_HEADER)];
}

/** Every distinct request id found in the headers, most trusted first. */
export function requestIdsFromHeaders(headers: HeaderBag, names: readonly string[]): string[] {
  const ids: string[] = [];
  for (const name of requestIdHeaderOrder(names)) {
    const value = headers[name];
    for (const entry of Array.isArray(value) ? value : [value]) {
      const id = entry?.trim();
      if (id && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

const MESSAGE_SUFFIX = /\(request id:\s*([^)\s]+)\s*\)/i;

export function requestIdFromMessage(message: string | null | undefined): string | null {
  if (!message) return null;
  const match = MESSAGE_SUFFIX.exec(message);
  return match ? match[1] : null;
}
