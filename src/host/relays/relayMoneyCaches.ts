import type { Balance } from "../../relay/balance";
import { BALANCE_REFRESH_MS } from "../../relay/balance";
import type { PriceTable } from "../../relay/modelPrice";
import { PRICE_LIST_FRESH_MS } from "../../relay/pricing";
import type { RelayProfile } from "../../relay/relayProfiles";
import { TimedCache } from "../../relay/timedCache";

// What was read about each relay's money, by relay name: its price list (kept an hour) and its key's
// balance (a minute). Both belong to the address they were read from: when a relay's base URL changes
// (or the relay is removed), what the old address said is dropped at once rather than shown for the
// rest of the hour as the new address's.

export class RelayMoneyCaches {
  readonly prices: TimedCache<PriceTable | null>;
  readonly balances: TimedCache<Balance | null>;
  /** Each relay's base URL when its prices or balance were last asked for. */
  private readonly addresses = new Map<string, string>();

  constructor(loaders: { prices: (relay: string) => Promise<PriceTable | null>; balance: (relay: string) => Promise<Balance | null> }, now?: () => number) {
    this.prices = new TimedCache(loaders.prices, { freshForMs: PRICE_LIST_FRESH_MS, now });
    this.balances = new TimedCache(loaders.balance, { freshForMs: BALANCE_REFRESH_MS, now });
  }

  /** The relays as the settings now say; drops what was read from an address no longer theirs. Returns the relays dropped. */
  relaysChanged(relays: readonly RelayProfile[]): string[] {
    const dropped: string[] = [];
    const current = new Map(relays.map((relay) => [relay.name, relay.baseUrl]));
    for (const [name, address] of this.addresses) {
      if (current.get(name) === address) continue;
      this.prices.delete(name);
      this.balances.delete(name);
      dropped.push(name);
    }
    this.addresses.clear();
    for (const [name, address] of current) this.addresses.set(name, address);
    return dropped;
  }
}
