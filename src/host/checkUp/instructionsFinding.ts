import * as vscode from "vscode";
import type { InstructionsFinding } from "../../relay/instructionsCheck";
import type { RelayProfile } from "../../relay/relayProfiles";
import type { InstructionsAs } from "../../relay/requestBuilder";

// What the check-up learned about how a relay takes instructions, remembered per relay once the person agrees:
// written as "instructionsAs" on the relay's entry in relayChat.relays (User settings). A setting, not hidden
// state: it changes what every request sends, so the person can read it, change it back and carry it with
// Settings Sync like the rest of the relay. The single relay of relayChat.baseUrl moves into the list for it,
// with its name, headers and console, as Rename Relay… does; a relay from RELAY_CHAT_BASE_URL cannot be written.

/** Offers to send instructions the way that works, when that differs from how the relay is set now. */
export async function offerInstructionsFinding(relay: RelayProfile, finding: InstructionsFinding): Promise<void> {
  const now: InstructionsAs = relay.instructionsAs ?? "instructions";
  if (finding.honoured === null || finding.honoured === now) return;
  if (relay.origin === "environment") {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} drops the instructions field; a developer message works. It comes from RELAY_CHAT_BASE_URL: add it with "Relay Chat: Add Relay…" to remember this.', relay.name),
    );
    return;
  }
  const useDeveloper = finding.honoured === "developer";
  const apply = useDeveloper ? vscode.l10n.t("Send as a Developer Message") : vscode.l10n.t("Use the Instructions Field");
  const question = useDeveloper
    ? vscode.l10n.t('{0} drops the Responses instructions field, so the model does not see what it is told. Send it as a developer message for this relay? ("instructionsAs": "developer" in relayChat.relays)', relay.name)
    : vscode.l10n.t("{0} now passes the instructions field on. Send what the model is told in that field again?", relay.name);
  if ((await vscode.window.showInformationMessage(question, apply)) !== apply) return;
  await writeInstructionsAs(relay, useDeveloper ? "developer" : undefined);
}

type RelayEntry = Record<string, unknown>;

async function writeInstructionsAs(relay: RelayProfile, instructionsAs: InstructionsAs | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration("relayChat");
  const stored = config.inspect<unknown>("relays")?.globalValue;
  const entries: RelayEntry[] = Array.isArray(stored) ? stored.filter((entry): entry is RelayEntry => typeof entry === "object" && entry !== null) : [];
  const withField = (entry: RelayEntry): RelayEntry => {
    const { instructionsAs: _old, ...rest } = entry;
    return instructionsAs === undefined ? rest : { ...rest, instructionsAs };
  };
  if (relay.origin === "relays") {
    await config.update("relays", entries.map((entry) => (entry.name === relay.name ? withField(entry) : entry)), vscode.ConfigurationTarget.Global);
    return;
  }
  const moved: RelayEntry = { name: relay.name, baseUrl: relay.baseUrl };
  if (Object.keys(relay.extraHeaders).length > 0) moved.extraHeaders = relay.extraHeaders;
  if (relay.consoleUrl) moved.consoleUrl = relay.consoleUrl;
  await config.update("relays", [...entries, withField(moved)], vscode.ConfigurationTarget.Global);
  for (const setting of ["baseUrl", "extraHeaders", "consoleUrl"]) await config.update(setting, undefined, vscode.ConfigurationTarget.Global);
}
