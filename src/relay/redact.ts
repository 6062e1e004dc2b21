// The key must never reach an error, a log line or an export. Redaction is applied to any text that
// came from the network or from an exception before it leaves the relay module.

export const REDACTED = "[REDACTED]";

const BEARER_TOKEN = /(Bearer\s+)[^\s"',;]+/gi;

export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    // Very short "secrets" would shred ordinary text; real keys are long.
    if (secret && secret.length >= 6) result = result.split(secret).join(REDACTED);
  }
  return result.replace(BEARER_TOKEN, `$1${REDACTED}`);
}
