import { RelayClient, RelayConfigurationError } from "../../relay/client";
import type { RelayProfile } from "../../relay/relayProfiles";
import type { FoundKey } from "./apiKeyStore";

// The clients of the relays: the active relay's, and the others' built on demand. Kept apart from
// RelayConnection (which reads settings and asks questions through vscode) because switching is where a
// race lived: the active relay was switched before its key was read and its client built, so in that
// window the new relay's prices, models and balance were asked of the previous relay, with its key.
// Here a switch changes nothing until the new key is read, then changes the relay, the client and the
// others at once; a switch overtaken by a later one changes nothing. A request for a relay goes to
// that relay, with its key, or nowhere.

export interface RelayClientSource {
  /** The key stored for a relay's address. */
  keyOf(profile: RelayProfile): Promise<FoundKey>;
  /** A client for a relay with its key; throws RelayConfigurationError for a setting it cannot use. */
  build(profile: RelayProfile, key: string): RelayClient;
  /** A key came into use (an other relay's), so it is redacted from then on. */
  keyInUse(key: string): void;
  /** An other relay's client could not be built. */
  problem(message: string): void;
}

export interface RelaySwitch {
  readonly relays: readonly RelayProfile[];
  readonly active: RelayProfile | null;
  readonly found: FoundKey;
  /** Why the active relay has no client although it has a key (a setting it cannot use). */
  readonly problem: string | null;
}

const NO_KEY: FoundKey = { key: null, source: "none" };

export class RelayClients {
  private state: RelaySwitch = { relays: [], active: null, found: NO_KEY, problem: null };
  private client: RelayClient | null = null;
  private source: RelayClientSource | null = null;
  /** Clients of the other relays, built on demand; dropped on every switch. */
  private readonly others = new Map<string, Promise<RelayClient | null>>();
  /** Counts switches, so one overtaken while it read its key changes nothing. */
  private switches = 0;

  get current(): RelaySwitch {
    return this.state;
  }

  get activeClient(): RelayClient | null {
    return this.client;
  }

  /**
   * Makes `active` (one of `relays`, or null) the relay sent to, once its key is read; every client of
   * the previous state is closed. False when a later switch started meanwhile: then nothing changed.
   */
  async switchTo(relays: readonly RelayProfile[], active: RelayProfile | null, source: RelayClientSource): Promise<boolean> {
    const switchNumber = ++this.switches;
    const found = active ? await source.keyOf(active) : NO_KEY;
    if (switchNumber !== this.switches) return false;
    let client: RelayClient | null = null;
    let problem: string | null = null;
    if (active && found.key) {
      try {
        client = source.build(active, found.key);
      } catch (error) {
        problem = error instanceof RelayConfigurationError ? error.message : String(error);
      }
    }
    const previous = this.client;
    const previousOthers = [...this.others.values()];
    this.others.clear();
    this.state = { relays, active, found, problem };
    this.client = client;
    this.source = source;
    void previous?.close();
    for (const other of previousOthers) void other.then((built) => built?.close());
    return true;
  }

  /**
   * The client of relay `name`: the active one's, or one built for another relay with its own key; null
   * without a key, with a setting problem, or for a relay the current settings do not name.
   */
  clientFor(name: string): Promise<RelayClient | null> {
    if (this.state.active?.name === name) return Promise.resolve(this.client);
    const profile = this.state.relays.find((relay) => relay.name === name);
    const source = this.source;
    if (!profile || !source) return Promise.resolve(null);
    let built = this.others.get(name);
    if (!built) {
      const switchNumber = this.switches;
      built = source.keyOf(profile).then((found) => {
        // A switch while the key was read: this client would belong to settings no longer in force.
        if (!found.key || switchNumber !== this.switches) return null;
        source.keyInUse(found.key);
        try {
          return source.build(profile, found.key);
        } catch (error) {
          source.problem(`Relay "${profile.name}": ${error instanceof Error ? error.message : String(error)}`);
          return null;
        }
      });
      this.others.set(name, built);
    }
    return built;
  }

  dispose(): void {
    this.switches++;
    void this.client?.close();
    for (const other of this.others.values()) void other.then((client) => client?.close());
    this.others.clear();
    this.client = null;
  }
}
