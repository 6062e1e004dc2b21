import * as vscode from "vscode";
import { baseUrlProblem, relayNameFromUrl, uniqueRelayName } from "../../relay/relayProfiles";
import type { RelayProfile } from "../../relay/relayProfiles";
import type { ApiKeyStore } from "./apiKeyStore";
import { relayOrigin } from "./apiKeyStore";
import type { RelayConnection } from "./relayConnection";

// Add, rename and remove relays, and pick which relay a per-relay command (key, check-up) is for. The
// list lives in the User settings (relayChat.relays, application scope), the keys in SecretStorage.

const RELAYS_SETTING = "relays";

/** An entry of relayChat.relays as written to the User settings. */
type RelayEntry = Record<string, unknown> & { name: string; baseUrl: string };

export interface RelayCommandsContext {
  connection: RelayConnection;
  keys: ApiKeyStore;
  /** Reads the settings and keys again (after a change made here). */
  refresh(): Promise<void>;
  /** Runs the check-up on relay `name` and shows its report. */
  checkRelay(name: string): Promise<void>;
}

/**
 * The relay a command is for: the only one, or the one the person picks (the active relay first).
 * Undefined when there is none or the pick was dismissed.
 */
export async function pickRelay(connection: RelayConnection, placeHolder: string): Promise<RelayProfile | undefined> {
  const relays = connection.relays;
  if (relays.length <= 1) return relays[0];
  const active = connection.active?.name;
  const items = [...relays]
    .sort((a, b) => Number(b.name === active) - Number(a.name === active))
    .map((relay) => ({ label: relay.name, description: relay.baseUrl, detail: relay.name === active ? vscode.l10n.t("The relay the panel sends to") : undefined, relay }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.relay;
}

/** Add Relay…: address, name, key, then the check-up. */
export async function addRelay(context: RelayCommandsContext): Promise<void> {
  const { connection, keys } = context;
  const baseUrl = (
    await vscode.window.showInputBox({
      title: vscode.l10n.t("Add Relay (1/3): address"),
      prompt: vscode.l10n.t("The relay's Responses API address"),
      placeHolder: "https://relay.example.com/v1",
      ignoreFocusOut: true,
      validateInput: (value) => baseUrlProblem(value) ?? undefined,
    })
  )?.trim();
  if (!baseUrl) return;
  const taken = new Set(connection.relays.map((relay) => relay.name.toLowerCase()));
  const name = (
    await vscode.window.showInputBox({
      title: vscode.l10n.t("Add Relay (2/3): name"),
      prompt: vscode.l10n.t("What you call this relay, e.g. Cheap relay. It is shown in the model picker and on receipts."),
      value: uniqueRelayName(relayNameFromUrl(baseUrl), taken),
      ignoreFocusOut: true,
      validateInput: (value) => nameProblem(value, taken),
    })
  )?.trim();
  if (!name) return;
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t("Add Relay (3/3): API key"),
    prompt: vscode.l10n.t("API key for {0}. It is kept in the system keychain (SecretStorage), never in settings.", baseUrl),
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  await writeRelays([...configuredRelays(), { name, baseUrl }]);
  if (key.trim()) await keys.set(baseUrl, key);
  await context.refresh();
  await connection.select(name);
  if (!key.trim()) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Relay "{0}" added without a key. Run "Relay Chat: Set API Key" to add one.', name));
    return;
  }
  // The check-up's requests may be billed: said before any is sent, with the choice to skip them.
  const check = vscode.l10n.t("Check now");
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Relay "{0}" added. Check it now?', name),
    { modal: true, detail: vscode.l10n.t("The check-up sends a model list request and three small requests (a short answer and two function calls), then one or two tiny ones about instructions. The relay may bill each of them.") },
    check,
    vscode.l10n.t("Skip the check-up"),
  );
  if (choice !== check) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Relay "{0}" added without a check-up. Run "Relay Chat: Check Relay Connection" to check it.', name));
    return;
  }
  await context.checkRelay(name);
}

/** Rename Relay…: the settings' name; the single relayChat.baseUrl becomes an entry of the list. */
export async function renameRelay(context: RelayCommandsContext): Promise<void> {
  const relay = await pickRelay(context.connection, vscode.l10n.t("Which relay do you want to rename?"));
  if (!relay) return;
  if (relay.origin === "environment") {
    void vscode.window.showWarningMessage(vscode.l10n.t("{0} comes from RELAY_CHAT_BASE_URL. Add it with \"Relay Chat: Add Relay…\" to give it a name.", relay.name));
    return;
  }
  const taken = new Set(context.connection.relays.filter((other) => other.name !== relay.name).map((other) => other.name.toLowerCase()));
  const name = (await vscode.window.showInputBox({ prompt: vscode.l10n.t("New name for {0}", relay.name), value: relay.name, validateInput: (value) => nameProblem(value, taken) }))?.trim();
  if (!name || name === relay.name) return;
  const wasActive = context.connection.active?.name === relay.name;
  if (relay.origin === "relays") {
    await writeRelays(configuredRelays().map((entry) => (entry.name === relay.name ? { ...entry, name } : entry)));
  } else {
    // The single relay of relayChat.baseUrl moves into the list, with its headers and console.
    const moved: RelayEntry = { name, baseUrl: relay.baseUrl };
    if (Object.keys(relay.extraHeaders).length > 0) moved.extraHeaders = relay.extraHeaders;
    if (relay.consoleUrl) moved.consoleUrl = relay.consoleUrl;
    await writeRelays([...configuredRelays(), moved]);
    const config = vscode.workspace.getConfiguration("relayChat");
    for (const setting of ["baseUrl", "extraHeaders", "consoleUrl"]) await config.update(setting, undefined, vscode.ConfigurationTarget.Global);
  }
  await context.refresh();
  if (wasActive) await context.connection.select(name);
}

/** Remove Relay…: asks once, removes it from the settings and removes its key (unless another relay shares its address). */
export async function removeRelay(context: RelayCommandsContext): Promise<void> {
  const relay = await pickRelay(context.connection, vscode.l10n.t("Which relay do you want to remove?"));
  if (!relay) return;
  if (relay.origin === "environment") {
    void vscode.window.showWarningMessage(vscode.l10n.t("{0} comes from RELAY_CHAT_BASE_URL; unset that variable to remove it.", relay.name));
    return;
  }
  const remove = vscode.l10n.t("Remove");
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Remove the relay "{0}" ({1}) and its API key?', relay.name, relay.baseUrl), { modal: true }, remove);
  if (choice !== remove) return;
  if (relay.origin === "relays") {
    await writeRelays(configuredRelays().filter((entry) => entry.name !== relay.name));
  } else {
    await vscode.workspace.getConfiguration("relayChat").update("baseUrl", undefined, vscode.ConfigurationTarget.Global);
  }
  const origin = relayOrigin(relay.baseUrl);
  const shared = context.connection.relays.some((other) => other.name !== relay.name && relayOrigin(other.baseUrl) === origin);
  if (origin && !shared) await context.keys.clear(relay.baseUrl);
  await context.refresh();
  void vscode.window.showInformationMessage(vscode.l10n.t('Relay "{0}" removed.', relay.name));
}

/** relayChat.relays as the User settings hold it (never a workspace's: the setting is application-scoped). */
function configuredRelays(): RelayEntry[] {
  const value = vscode.workspace.getConfiguration("relayChat").inspect<unknown>(RELAYS_SETTING)?.globalValue;
  return Array.isArray(value) ? (value.filter((entry) => typeof entry === "object" && entry !== null) as RelayEntry[]) : [];
}

async function writeRelays(relays: RelayEntry[]): Promise<void> {
  await vscode.workspace.getConfiguration("relayChat").update(RELAYS_SETTING, relays, vscode.ConfigurationTarget.Global);
}

function nameProblem(value: string, taken: ReadonlySet<string>): string | undefined {
  const name = value.trim();
  if (!name) return vscode.l10n.t("Give the relay a name.");
  if (taken.has(name.toLowerCase())) return vscode.l10n.t('A relay is already called "{0}".', name);
  return undefined;
}
