import * as vscode from "vscode";
import type { RequestLedger } from "../chat/requestLedger";
import type { OutputLog } from "../host/outputLog";
import type { RelayConnection } from "../host/relays/relayConnection";
import { RELAY_CHAT_VENDOR, RelayChatModelProvider } from "./relayChatModelProvider";
import { RelayModelCatalog } from "./relayModelCatalog";
import { showRequestLog } from "./requestLogView";
import { ToolSupportFindings } from "./toolSupportFindings";

// Wires the relay's models into VS Code's language-model API and registers the request log command, so
// the composition root (extension.ts) needs one call. Registering sends nothing: the model list is
// fetched the first time VS Code asks for it.

export interface LanguageModelSetup {
  /** Where "Check Relay Connection" records what it found about function calls. */
  findings: ToolSupportFindings;
  disposables: vscode.Disposable[];
}

export function registerRelayLanguageModels(options: { connection: RelayConnection; ledger: RequestLedger; log: OutputLog; globalState: vscode.Memento }): LanguageModelSetup {
  const { connection, ledger, log } = options;
  // Called only after the provider exists: findings change when a check-up runs.
  const findings = new ToolSupportFindings(options.globalState, () => modelProvider.modelsChanged());
  const catalog = new RelayModelCatalog(connection, findings, log);
  const modelProvider = new RelayChatModelProvider({ connection, catalog, ledger, log });

  // The connection is rebuilt on any relayChat setting; only a new relay or key changes the models.
  let fingerprint = catalog.fingerprint();
  const disposables: vscode.Disposable[] = [
    modelProvider,
    vscode.lm.registerLanguageModelChatProvider(RELAY_CHAT_VENDOR, modelProvider),
    connection.onDidChange(() => {
      const next = catalog.fingerprint();
      if (next === fingerprint) return;
      fingerprint = next;
      modelProvider.modelsChanged();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("relayChat.languageModels")) modelProvider.modelsChanged();
    }),
    vscode.commands.registerCommand("relayChat.showRequestLog", () => showRequestLog(ledger)),
  ];
  // VS Code asks a vendor for its models only when something selects them; without Copilot nothing does,
  // and the picker would offer only "Sign in". Telling VS Code once that models are there (when its chat
  // is on and a relay and key are set) lets it ask now, with one unbilled GET /v1/models.
  if (vscode.workspace.getConfiguration("chat").get<boolean>("disableAIFeatures") !== true && connection.current()) modelProvider.modelsChanged();
  return { findings, disposables };
}
