// The kinds of relay whose side endpoints (balance, prices) Relay Chat knows. A relay profile may name
// its kind; otherwise the host gives a hint where it is unambiguous, and readers try the others in turn.

export type RelayKind = "new-api" | "one-api" | "openrouter" | "litellm";

export const RELAY_KINDS: readonly RelayKind[] = ["new-api", "one-api", "openrouter", "litellm"];

export function isRelayKind(value: unknown): value is RelayKind {
  return typeof value === "string" && (RELAY_KINDS as readonly string[]).includes(value);
}

/** The kind the address itself says, or null: only OpenRouter has a well-known host. */
export function relayKindFromRoot(root: string): RelayKind | null {
  try {
    const host = new URL(root).hostname.toLowerCase();
    return host === "openrouter.ai" || host.endsWith(".openrouter.ai") ? "openrouter" : null;
  } catch {
    return null;
  }
}
