import * as vscode from "vscode";
import { baseUrlProblem } from "../../relay/relayProfiles";
import type { RelayCommandsContext } from "./relayCommands";
import { pickRelay } from "./relayCommands";

// Set API Key and Clear API Key: a key per relay address, kept in SecretStorage and never in settings.

export async function setApiKey({ connection, keys, refresh }: RelayCommandsContext): Promise<void> {
  let relay = await pickRelay(connection, vscode.l10n.t("Which relay is the key for?"));
  if (!relay) {
    if (connection.relays.length > 0) return;
    const entered = await vscode.window.showInputBox({
      prompt: vscode.l10n.t("The relay's base URL (the key is stored for this address only)"),
      placeHolder: "https://relay.example.com/v1",
      ignoreFocusOut: true,
      validateInput: (value) => baseUrlProblem(value) ?? undefined,
    });
    if (!entered) return;
    await vscode.workspace.getConfiguration("relayChat").update("baseUrl", entered.trim(), vscode.ConfigurationTarget.Global);
    await refresh();
    relay = connection.relays[0];
    if (!relay) return;
  }
  const baseUrl = relay.baseUrl;
  const key = await vscode.window.showInputBox({
    prompt: vscode.l10n.t("API key for {0}. It is kept in the system keychain (SecretStorage), never in settings.", baseUrl),
    password: true,
    ignoreFocusOut: true,
  });
  if (!key || !key.trim()) return;
  await keys.set(baseUrl, key);
  await refresh();
  void vscode.window.showInformationMessage(vscode.l10n.t("API key saved for {0}.", baseUrl));
}

export async function clearApiKey({ connection, keys, refresh }: RelayCommandsContext): Promise<void> {
  const relay = await pickRelay(connection, vscode.l10n.t("Which relay's key do you want to remove?"));
  if (!relay) return;
  await keys.clear(relay.baseUrl);
  await refresh();
  void vscode.window.showInformationMessage(vscode.l10n.t("API key removed for {0}.", relay.baseUrl));
}
