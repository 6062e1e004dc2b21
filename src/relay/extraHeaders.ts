import * as l10n from "@vscode/l10n";
// Extra request headers from the settings, sent on every request: gateways such as Portkey route by
// non-secret headers (`x-portkey-provider`, `x-portkey-config`). Settings are plain text, synced and shown
// in "Copy as curl", so anything that could carry a secret is refused with a message saying where keys go.

export type ExtraHeadersCheck = { ok: true; headers: Record<string, string> } | { ok: false; problem: string };

const whereKeysGo = (): string =>
  l10n.t('Keys belong in "Relay Chat: Set API Key" (kept in the system keychain) or the RELAY_CHAT_API_KEY environment variable, never in settings.');

/** Headers the client sets itself, or that only the transport may set. */
const RESERVED = new Set(["accept", "content-type", "content-length", "host", "connection", "transfer-encoding", "user-agent", "te", "upgrade", "expect", "keep-alive"]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SECRET_NAME = /(^|[-_])(authorization|auth|cookie|key|apikey|token|secret|password|passwd|credential|credentials|session|signature)($|[-_])|api[-_]?key|virtual[-_]?key/i;

/** True when a value looks like a key, a token or a credential rather than a routing hint. */
function looksLikeSecret(value: string): boolean {
  const text = value.trim();
  if (/^(bearer|basic|token)\s+\S/i.test(text)) return true;
  if (/\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{8,}/.test(text)) return true;
  if (/^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text)) return true; // a JWT
  // A long run of letters and digits mixed, without separators a name or config id would have.
  const longestRun = (text.match(/[A-Za-z0-9+/=_]{24,}/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? "";
  return longestRun.length >= 24 && /[0-9]/.test(longestRun) && /[A-Za-z]/.test(longestRun);
}

/** Checks the configured headers; the first problem found is reported, naming the header and what to do. */
export function checkExtraHeaders(headers: Readonly<Record<string, unknown>> | null | undefined): ExtraHeadersCheck {
  const checked: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers ?? {})) {
    const name = rawName.trim().toLowerCase();
    if (!TOKEN.test(name)) return { ok: false, problem: l10n.t('The extra request header name "{0}" is not a valid HTTP header name.', rawName) };
    if (typeof rawValue !== "string") return { ok: false, problem: l10n.t('The extra request header "{0}" must have a text value.', name) };
    if (/[\r\n\0]/.test(rawValue)) return { ok: false, problem: l10n.t('The extra request header "{0}" contains a line break, which HTTP headers cannot carry.', name) };
    if (name === "authorization" || name === "proxy-authorization") {
      return { ok: false, problem: `${l10n.t('The extra request header "{0}" is refused: Relay Chat sends the API key itself.', name)} ${whereKeysGo()}` };
    }
    if (RESERVED.has(name)) return { ok: false, problem: l10n.t('The extra request header "{0}" is refused: Relay Chat sets it itself.', name) };
    if (SECRET_NAME.test(name)) return { ok: false, problem: `${l10n.t('The extra request header "{0}" is refused: its name says it carries a secret.', name)} ${whereKeysGo()}` };
    if (looksLikeSecret(rawValue)) return { ok: false, problem: `${l10n.t('The extra request header "{0}" is refused: its value looks like a key or token.', name)} ${whereKeysGo()}` };
    checked[name] = rawValue.trim();
  }
  return { ok: true, headers: checked };
}
