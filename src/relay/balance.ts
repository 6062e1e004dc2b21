import * as l10n from "@vscode/l10n";
import type { Balance, BalanceReader } from "./balanceReaders";
import { billingSubscription, liteLlmKeyInfo, newApiTokenUsage, openRouterKey } from "./balanceReaders";
import { lazyQuotaUnit } from "./quotaUnit";
import type { RelayKind } from "./relayKind";
import { relayKindFromRoot } from "./relayKind";
import type { SideRequester } from "./sideAnswer";

// The balance of the relay's key, from whichever balance endpoint the relay has: readers are tried in
// an order picked by the relay's kind (or its host), and the first that answers wins. Nothing here is
// billed; each request is time-limited by the requester. When none answers, the reason lists each.

export type { Balance } from "./balanceReaders";

/** A balance is asked for at most this often per relay (after each turn, on click). */
export const BALANCE_REFRESH_MS = 60_000;

export type BalanceResult = { ok: true; balance: Balance } | { ok: false; reason: string };

const READERS_BY_KIND: Record<RelayKind, readonly BalanceReader[]> = {
  "new-api": [newApiTokenUsage, billingSubscription("/v1"), billingSubscription("")],
  "one-api": [billingSubscription("/v1"), billingSubscription("")],
  openrouter: [openRouterKey],
  litellm: [liteLlmKeyInfo],
};

const ALL_READERS: readonly BalanceReader[] = [...READERS_BY_KIND["new-api"], openRouterKey, liteLlmKeyInfo];

/** The readers in the order they are tried: the kind's own first, then the rest. */
export function balanceReadersFor(kind: RelayKind | null): readonly BalanceReader[] {
  const first = kind ? READERS_BY_KIND[kind] : [];
  return [...first, ...ALL_READERS.filter((reader) => !first.some((own) => own.endpoint === reader.endpoint))];
}

export async function readBalance(requester: SideRequester & { root: string }, options: { kind?: RelayKind | null; signal?: AbortSignal } = {}): Promise<BalanceResult> {
  // Asked at most once, and only by a reader that needs it.
  const quotaUnit = lazyQuotaUnit(requester, options.signal);
  const problems: string[] = [];
  for (const reader of balanceReadersFor(options.kind ?? relayKindFromRoot(requester.root))) {
    const reading = await reader.read(requester, quotaUnit, options.signal);
    if (reading.ok) return reading;
    problems.push(`${reader.endpoint}: ${reading.problem}`);
    if (options.signal?.aborted) break;
  }
  return { ok: false, reason: l10n.t("The relay showed no balance for this key. {0}", problems.join("; ")) };
}

/** True when the balance says something: what is left, what was spent, or that the key has no limit. */
export function balanceWasRead(balance: Balance): boolean {
  return balance.remaining !== null || balance.used !== null || balance.unlimited;
}
