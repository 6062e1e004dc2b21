import * as vscode from "vscode";
import type { FileStorage } from "../../chat/fileStorage";
import type { ToolSupportFindings } from "../../lm/toolSupportFindings";
import { modelSettingsFor } from "../../chat/modelSettings";
import { checkConnection } from "../../relay/connectionCheck";
import { connectionReportMarkdown } from "../../relay/connectionReport";
import { checkInstructions, instructionsCheckNote } from "../../relay/instructionsCheck";
import { offerInstructionsFinding } from "./instructionsFinding";
import { redactSecrets } from "../../relay/redact";
import type { ChatCompletionsFinding } from "./chatCompletionsFinding";
import type { ConnectionReportView } from "./connectionReportView";
import type { OutputLog } from "../outputLog";
import type { RelayConnection } from "../relays/relayConnection";
import type { Walkthrough } from "../walkthrough";

// Check Relay Connection: the check-up of one relay, its report written into the extension's storage as Markdown
// and shown in a report view of its own (readable, never an unsaved buffer), what it learned kept for VS Code's
// chat, and a finding that the model needs Chat Completions offered for confirmation (never saved unasked).

/** The last connection check's report, in the storage folder. */
export const CONNECTION_REPORT_NAME = "connection-check.md";

export interface RelayCheckUpSources {
  connection: RelayConnection;
  storage: FileStorage;
  log: OutputLog;
  reportView: ConnectionReportView;
  chatCompletions: ChatCompletionsFinding;
  walkthrough: Walkthrough;
  findings: ToolSupportFindings;
  /** The panel's model for the active relay. */
  activeModel: () => string;
  /** The model another relay would use (its remembered model, else its first listed). */
  modelFor: (relay: string) => Promise<string>;
}

/** The check-up of one relay (the active relay with the panel's model; another with its remembered or first listed model). */
export function relayCheckUp(sources: RelayCheckUpSources): (name: string) => Promise<void> {
  const { connection, storage, log, walkthrough, findings } = sources;
  return async (name) => {
    const client = await connection.clientFor(name);
    if (!client) {
      void vscode.window.showWarningMessage(
        connection.activeRelay === name ? (connection.missing() ?? "") : vscode.l10n.t('No API key is set for "{0}". Run "Relay Chat: Set API Key".', name),
      );
      return;
    }
    const model = connection.activeRelay === name ? sources.activeModel() : await sources.modelFor(name);
    const wire = modelSettingsFor(connection.settings.modelSettings, name, model).protocol;
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Checking the relay: a model list and up to five small requests, which the relay may bill…") },
      // A model set to a wire by the person is checked over it; otherwise the check finds out which one works.
      () => checkConnection(client, model || "unknown-model", { protocol: wire }),
    );
    // Whether the relay passes the instructions on (src/relay/instructionsCheck.ts), once it is known to answer.
    // Over Chat Completions the instructions always go as the system message: nothing to learn there.
    const instructions = report.ok && wire !== "chat" && report.protocolFinding !== "chat" ? await checkInstructions(client, model || "unknown-model") : null;
    if (instructions) {
      report.steps.push(...instructions.steps);
      report.billingNote = `${report.billingNote} ${instructionsCheckNote()}`;
    }
    const context = { relay: `${name} (${client.root}/v1)`, model: model || vscode.l10n.t("(none selected)"), keySource: connection.activeRelay === name ? connection.source : "secret-storage", checkedAt: new Date() };
    await storage.writeAtomically(CONNECTION_REPORT_NAME, redactSecrets(connectionReportMarkdown(report, context, vscode.l10n.t), connection.secrets()));
    // Before the view shows it, so the report carries the confirmation's button from the start.
    if (model) sources.chatCompletions.checked(name, model, report.protocolFinding === "chat");
    sources.reportView.show({ report, context, relay: name, model, secrets: connection.secrets() });
    log.info(`connection check of ${name}: ${report.ok ? "ok" : "failed"} (request ${report.result?.requestId ?? "-"})`);
    if (report.ok) walkthrough.checkPassed();
    await findings.recordFromCheck(client.root, model, report.steps);
    const profile = connection.relays.find((relay) => relay.name === name);
    if (instructions && profile) await offerInstructionsFinding(profile, instructions);
  };
}
