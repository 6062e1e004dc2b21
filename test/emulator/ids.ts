import { randomBytes } from "node:crypto";

/** An id in the service's style: a kind prefix and random hex, e.g. `resp_4f1c...`. */
export function newId(prefix: string, bytes = 16): string {
  return `${prefix}_${randomBytes(bytes).toString("hex")}`;
}

/** Random-looking padding the real service adds to deltas so their lengths leak less. */
export function obfuscationPadding(deltaLength: number): string {
  const length = Math.max(1, 16 - deltaLength);
  return randomBytes(length).toString("base64url").slice(0, length);
}
