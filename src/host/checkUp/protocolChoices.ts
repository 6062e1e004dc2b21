import path from "node:path";
import * as vscode from "vscode";
import { ChatCompletionsFinding, USE_CHAT_COMPLETIONS_COMMAND } from "./chatCompletionsFinding";
import type { RegisterCommand } from "../commandRegistration";
import { ConnectionReportView } from "./connectionReportView";
import { listOnlyProtocolMigration } from "./listOnlyProtocolMigration";
import { saveModelSettings } from "../models/modelSettingsWriter";
import { closeOrphanedReportPreviews } from "./orphanedReportTabs";
import type { OutputLog } from "../outputLog";
import { CONNECTION_REPORT_NAME } from "./relayCheckUp";
import type { RelayConnection } from "../relays/relayConnection";

// How a model gets onto Chat Completions outside Model settings…, wired for activation: the check-up's finding
// waiting for confirmation (its notification, its report view and the panel carry the button), and the one-time
// drop of choices earlier versions made from a relay's model list alone. A model list never moves a model.

export class ProtocolChoices {
  readonly finding: ChatCompletionsFinding;
  readonly reportView: ConnectionReportView;

  constructor(
    private readonly connection: RelayConnection,
    private readonly globalState: vscode.Memento,
    private readonly log: OutputLog,
  ) {
    this.finding = new ChatCompletionsFinding(log);
    this.reportView = new ConnectionReportView(this.finding);
  }

  /** What the panel needs: the finding it offers, and where a confirmation after a refusal is saved. */
  readonly panelOptions = {
    chatCompletionsFinding: () => this.finding.pending,
    saveModelProtocol: (relay: string, model: string, protocol: "chat") => saveModelSettings(relay, model, { protocol }),
  };

  /** The confirmation's command, the migration (once the relays are read, again when they change) and the panel kept current. */
  register(command: RegisterCommand, ready: Promise<unknown>, storageFolder: string, panelChanged: () => void): vscode.Disposable[] {
    const dropListOnly = listOnlyProtocolMigration(this.connection, this.globalState, this.log);
    const migrate = () => void dropListOnly().catch((error: unknown) => this.log.error(`Looking for Chat Completions chosen from a model list failed: ${String(error)}`));
    void ready.then(migrate);
    return [
      this.finding,
      this.reportView,
      this.finding.onDidChange(panelChanged),
      command(USE_CHAT_COMPLETIONS_COMMAND, (choice) => this.finding.confirm(choice)),
      this.connection.onDidChange(migrate),
      // Markdown previews of the report that earlier versions opened and VS Code restores.
      closeOrphanedReportPreviews(path.join(storageFolder, CONNECTION_REPORT_NAME)),
    ];
  }
}
