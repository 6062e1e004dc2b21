// The request id ties a request to the relay's usage log. Relays name the header differently, so a
// list is tried in order; some put the id only into the error message, as "(request id: ...)".

export const DEFAULT_REQUEST_ID_HEADERS: readonly string[] = ["x-request-id", "x-oneapi-request-id", "x-service-request-id"];

export type HeaderBag = Record<string, string | string[] | undefined>;

export function requestIdFromHeaders(headers: HeaderBag, names: readonly string[]): string | null {
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    const first = Array.isArray(value) ? value[0] : value;
    if (first && first.trim()) return first.trim();
  }
  return null;
}

const MESSAGE_SUFFIX = /\(request id:\s*([^)\s]+)\s*\)/i;

export function requestIdFromMessage(message: string | null | undefined): string | null {
  if (!message) return null;
  const match = MESSAGE_SUFFIX.exec(message);
  return match ? match[1] : null;
}
