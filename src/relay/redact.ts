// The key must never reach an error, a log line or an export. Redaction is applied to any text that
// came from the network or from an exception before it leaves the relay module, and again to what is read from
// a JSON answer: a relay may echo the key JSON-escaped ("\u0073k-…", "\/"), which only becomes the key once decoded.

export const REDACTED = "[REDACTED]";

const BEARER_TOKEN = /(Bearer\s+)[^\s"',;]+/gi;

export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  return removeKeys(text, secrets).replace(BEARER_TOKEN, `$1${REDACTED}`);
}

/**
 * The keys alone taken out (as written or JSON-escaped), nothing else touched: for the person's and the workspace's
 * text (attachments, rules files, history), where "Bearer x" may be anything and is no key of theirs.
 */
export function removeKeys(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    // Very short "secrets" would shred ordinary text; real keys are long.
    if (!secret || secret.length < 6) continue;
    result = result.split(secret).join(REDACTED);
    // An escaped form needs \u or \/ in the text: text without either (most of it) skips the slower search.
    if (result.includes("\\u") || result.includes("\\/")) result = result.replace(escapedForms(secret), REDACTED);
  }
  return result;
}

/** Every string (and key) of a parsed JSON value, redacted. */
export function redactJson(value: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((each) => redactJson(each, secrets));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [redactSecrets(key, secrets), redactJson(each, secrets)]));
  }
  return value;
}

/** The secret as JSON text may spell it: any character as \uXXXX (either case of hex), a slash as \/. */
function escapedForms(secret: string): RegExp {
  const characters = [...secret].map((character) => {
    const code = character.codePointAt(0) ?? 0;
    const literal = character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    if (code > 0xffff) return literal;
    const hex = [...code.toString(16).padStart(4, "0")].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join("");
    return `(?:${literal}|\\\\u${hex}${character === "/" ? "|\\\\/" : ""})`;
  });
  return new RegExp(characters.join(""), "g");
}
