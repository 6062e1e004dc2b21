import * as vscode from "vscode";
import type { Balance } from "../../relay/balance";
import type { RelayClient } from "../../relay/client";
import { balanceWasRead, readBalance } from "../../relay/balance";
import type { ModelPrice, PriceTable } from "../../relay/modelPrice";
import { parsePriceSetting, priceFor } from "../../relay/priceSetting";
import type { PriceSettingEntry } from "../../relay/priceSetting";
import { readPrices } from "../../relay/pricing";
import { amountText } from "../../relay/moneyFormat";
import { isRelayKind } from "../../relay/relayKind";
import type { RelayProfile } from "../../relay/relayProfiles";
import type { OutputLog } from "../outputLog";
import type { RelayConnection } from "./relayConnection";
import { RelayMoneyCaches } from "./relayMoneyCaches";

// What the relays cost and what is left: each relay's published prices (read once an hour, never on the
// send path: a request uses whatever price is already known, and asks for the list in the background) and
// its key's balance (after a turn, at most once a minute, and on a click on the status bar item). Nothing
// here is billed. A relay that publishes neither shows tokens only and no balance, and says why once in
// the log.

export class RelayMoney implements vscode.Disposable {
  private readonly caches = new RelayMoneyCaches({ prices: (relay) => this.loadPrices(relay), balance: (relay) => this.loadBalance(relay) });
  private readonly prices = this.caches.prices;
  private readonly balances = this.caches.balances;
  /** Relays whose missing prices or balance were logged already, so the log says it once. */
  private readonly explained = new Set<string>();
  private settingEntries: PriceSettingEntry[] = [];
  private readonly status: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  private readonly balanceRead = new vscode.EventEmitter<void>();
  /** Fires when a balance was read (the panel's title line says it too). */
  readonly onDidReadBalance = this.balanceRead.event;

  constructor(
    private readonly connection: RelayConnection,
    private readonly log: OutputLog,
    showBalanceCommand: string,
  ) {
    this.status = vscode.window.createStatusBarItem("relayChat.balance", vscode.StatusBarAlignment.Right, 100);
    this.status.name = vscode.l10n.t("Relay Chat balance");
    this.status.command = showBalanceCommand;
    this.readSetting();
    this.caches.relaysChanged(connection.relays);
    this.subscriptions.push(
      this.status,
      connection.onDidChange(() => {
        // Prices and a balance read from a relay's old address are not its new address's.
        this.caches.relaysChanged(connection.relays);
        this.readSetting();
        this.render();
        void this.refreshBalance();
      }),
    );
  }

  /** The price of `model` on `relay` as known now (never waits); asks the relay for its list in the background. */
  priceOf(relay: string, model: string): ModelPrice | null {
    const profile = this.profile(relay);
    if (profile?.priceSource === "relay" && !this.prices.isFresh(relay)) void this.prices.get(relay).catch(() => undefined);
    const published = profile?.priceSource === "relay" ? (this.prices.peek(relay) ?? null) : null;
    return priceFor(model, relay, published, this.settingEntries);
  }

  /** The active relay's balance as last read; undefined when not read (yet). */
  balanceOf(relay: string): Balance | null {
    return this.balances.peek(relay) ?? null;
  }

  /** "Balance left on Cheap relay: $1.20." for a quota problem's explanation; null when not known. */
  balanceNote(relay: string | null): string | null {
    const name = relay ?? this.connection.activeRelay;
    const balance = name === null ? null : this.balanceOf(name);
    return name === null || balance === null ? null : vscode.l10n.t("Balance left on {0}: {1}.", name, balanceText(balance));
  }

  /** After a turn: at most once a minute. `force` (a click) reads it again now. */
  async refreshBalance(force = false): Promise<void> {
    const relay = this.connection.activeRelay;
    if (relay === null) return;
    if (force) this.balances.delete(relay);
    if (!force && this.balances.isFresh(relay)) return;
    await this.balances.get(relay).catch(() => undefined);
    this.render();
    this.balanceRead.fire();
  }

  private readSetting(): void {
    const parsed = parsePriceSetting(vscode.workspace.getConfiguration("relayChat").get<unknown>("prices"));
    this.settingEntries = parsed.entries;
    for (const problem of parsed.problems) this.log.error(problem);
  }

  private profile(relay: string): RelayProfile | undefined {
    return this.connection.relays.find((profile) => profile.name === relay);
  }

  private kindOf(relay: string) {
    const kind = this.profile(relay)?.kind;
    return isRelayKind(kind) ? kind : null;
  }

  private async loadPrices(relay: string): Promise<PriceTable | null> {
    const client = await this.requireClient(relay);
    const result = await readPrices(client, { kind: this.kindOf(relay) });
    await this.requireSameClient(relay, client);
    if (result.ok) {
      this.log.info(`prices of ${relay}: ${result.prices.size} models from ${result.source}`);
      return result.prices;
    }
    this.explainOnce(`prices:${relay}`, `No prices from ${relay}; receipts show tokens only unless relayChat.prices names the model. ${result.reason}`);
    return null;
  }

  private async loadBalance(relay: string): Promise<Balance | null> {
    const client = await this.requireClient(relay);
    const result = await readBalance(client, { kind: this.kindOf(relay) });
    await this.requireSameClient(relay, client);
    if (result.ok && balanceWasRead(result.balance)) return result.balance;
    this.explainOnce(`balance:${relay}`, `No balance from ${relay}: ${result.ok ? "the answer said nothing about it" : result.reason}`);
    return null;
  }

  /**
   * The relay's client; without one (no key yet, or the connection is being rebuilt) the load fails, so
   * nothing is remembered as read and the next turn or click asks again.
   */
  private async requireClient(relay: string) {
    const client = await this.connection.clientFor(relay);
    if (!client) throw new Error(`no client for ${relay} yet`);
    return client;
  }

  /**
   * A settings or key change replaced (and closed) the client while it was reading: what it read, or why it
   * failed, says nothing about the relay, so nothing is kept and the next turn or click asks again.
   */
  private async requireSameClient(relay: string, client: RelayClient): Promise<void> {
    if ((await this.connection.clientFor(relay)) !== client) throw new Error(`the connection to ${relay} changed while reading`);
  }

  private explainOnce(what: string, message: string): void {
    if (this.explained.has(what)) return;
    this.explained.add(what);
    this.log.info(message);
  }

  private render(): void {
    const relay = this.connection.activeRelay;
    const balance = relay === null ? null : this.balanceOf(relay);
    if (relay === null || balance === null) {
      this.status.hide();
      return;
    }
    this.status.text = `$(credit-card) ${balanceText(balance)}`;
    this.status.tooltip = balanceTooltip(relay, balance);
    this.status.show();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.balanceRead.dispose();
  }
}

/** "$12.34", "¥80.00", "1,234 quota", or "unlimited". */
export function balanceText(balance: Balance): string {
  if (balance.unlimited && balance.remaining === null) return vscode.l10n.t("unlimited");
  if (balance.remaining === null) return vscode.l10n.t("{0} used", moneyText(balance.used ?? 0, balance.unit));
  return moneyText(balance.remaining, balance.unit);
}

function balanceTooltip(relay: string, balance: Balance): string {
  const lines = [vscode.l10n.t("Balance of {0}: {1}", relay, balanceText(balance))];
  if (balance.used !== null) lines.push(vscode.l10n.t("Used: {0}", moneyText(balance.used, balance.unit)));
  if (balance.unlimited) lines.push(vscode.l10n.t("This key has no limit of its own; the account behind it may still run out."));
  lines.push(vscode.l10n.t("From {0}, never billed. Click to read it again.", balance.source));
  return lines.join("\n");
}

/** Money as everywhere (moneyFormat.ts: "$0.0016", not "$0.00"); a relay's raw quota as a whole number. */
export function moneyText(amount: number, unit: string | null): string {
  return amountText(amount, unit, vscode.env.language);
}
