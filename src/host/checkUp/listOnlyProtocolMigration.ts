import * as vscode from "vscode";
import { dropListOnlyProtocolChoices, withProtocolOf } from "../../chat/listOnlyProtocolChoices";
import type { ProtocolChoice } from "../../chat/listOnlyProtocolChoices";
import type { OutputLog } from "../outputLog";
import type { RelayConnection } from "../relays/relayConnection";

// The VS Code side of dropping, once, the Chat Completions choices earlier versions wrote from a relay's model list
// alone (src/chat/listOnlyProtocolChoices.ts says how they are told apart): the User setting, globalState, the
// relays' lists through the connection, and one notification naming what was dropped, with a way to keep it.

export function listOnlyProtocolMigration(connection: RelayConnection, state: vscode.Memento, log: OutputLog): () => Promise<void> {
  let running: Promise<void> | null = null;
  const config = () => vscode.workspace.getConfiguration("relayChat");
  const run = async () => {
    const dropped = await dropListOnlyProtocolChoices({
      state,
      readSetting: () => config().inspect<unknown>("modelSettings")?.globalValue,
      writeSetting: async (value) => config().update("modelSettings", value, vscode.ConfigurationTarget.Global),
      modelsOf: async (relay) => {
        const name = connection.relayNames().find((known) => known.toLowerCase() === relay.toLowerCase());
        // A relay no longer set up: its entry changes nothing, and there is no list to read.
        if (name === undefined) return [];
        const client = await connection.clientFor(name);
        const listed = client ? await client.listModels() : null;
        return listed?.ok ? listed.models : null;
      },
    });
    if (dropped.length === 0) return;
    log.info(`relayChat.modelSettings: Chat Completions dropped for ${dropped.map((choice) => `${choice.model} on ${choice.relay}`).join(", ")} (chosen from the relay's model list alone by an earlier version)`);
    // Not awaited: a notification may stay unanswered, and the relays not read yet are looked at meanwhile.
    void tell(dropped).then(async (keep) => {
      if (!keep) return;
      await config().update("modelSettings", withProtocolOf(config().inspect<unknown>("modelSettings")?.globalValue, dropped, "chat"), vscode.ConfigurationTarget.Global);
      log.info("relayChat.modelSettings: Chat Completions kept for them, as asked");
    });
  };
  // One run at a time: it runs at start and again when the relays or keys change (a relay whose list could not be read).
  return () => (running ??= run().finally(() => (running = null)));
}

async function tell(dropped: readonly ProtocolChoice[]): Promise<boolean> {
  const keep = vscode.l10n.t("Keep Chat Completions for Them");
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      "Relay Chat no longer reads a relay's model list (new-api's supported_endpoint_types) as \"Chat Completions only\": new-api lists every model that way, and the Responses interface works for most. Chat Completions chosen from that list alone was removed for {0}; they go over Responses again. A model that refuses it offers Use Chat Completions for this model.",
      names(dropped),
    ),
    keep,
  );
  return answer === keep;
}

function names(choices: readonly ProtocolChoice[]): string {
  return choices.map((choice) => vscode.l10n.t("{0} on {1}", choice.model, choice.relay)).join(", ");
}
