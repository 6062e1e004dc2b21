// Removes the relay key from tool results before they go anywhere: to the model, into history, to the panel,
// into a log. A tool can meet the key in many ways (`cat .env`, `env`, a config file, a test fixture), so every
// result passes through here, whatever tool produced it.

export const redactedMarker = "[REDACTED]";

/** Keys shorter than this are not real keys; replacing them would shred ordinary text. */
const minimumSecretLength = 6;
/**
 * A piece of a key this long or longer is removed too. Tools cut long text (command output keeps its head and
 * tail, search results shorten lines, results are capped), and a cut can fall inside the key, leaving a part
 * that no longer matches it whole. Shorter pieces are kept: they give nothing away and would also match words.
 */
const minimumFragmentLength = 12;

export function redactToolOutput(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < minimumSecretLength) continue;
    result = result.split(secret).join(redactedMarker);
    if (secret.length > minimumFragmentLength) result = removeFragments(result, secret);
  }
  return result;
}

/** Runs of the key's own characters that are a piece of the key: what a cut through the key leaves behind. */
function removeFragments(text: string, secret: string): string {
  const characters = [...new Set(secret)].map((character) => character.replace(/[\\\]^-]/g, "\\$&")).join("");
  const runs = new RegExp(`[${characters}]{${minimumFragmentLength},}`, "gu");
  return text.replace(runs, (run) => (secret.includes(run) ? redactedMarker : run));
}
