import path from "node:path";
import * as vscode from "vscode";
import type { FileStorage } from "../chat/fileStorage";
import type { ToolSupportFindings } from "../lm/toolSupportFindings";
import { modelSettingsFor } from "../chat/modelSettings";
import { checkConnection } from "../relay/connectionCheck";
import { connectionReportMarkdown } from "../relay/connectionReport";
import { checkInstructions, instructionsCheckNote } from "../relay/instructionsCheck";
import { offerInstructionsFinding } from "./instructionsFinding";
import { redactSecrets } from "../relay/redact";
import { saveModelSettings } from "./modelSettingsWriter";
import type { OutputLog } from "./outputLog";
import type { RelayConnection } from "./relayConnection";
import type { Walkthrough } from "./walkthrough";

// Check Relay Connection: the check-up of one relay, its report written into the extension's storage and
// opened as a Markdown preview (readable, never an unsaved buffer), what it learned kept for VS Code's chat.

/** The last connection check's report, in the storage folder, opened as a Markdown preview. */
export const CONNECTION_REPORT_NAME = "connection-check.md";

export interface RelayCheckUpSources {
  connection: RelayConnection;
  storage: FileStorage;
  storageFolder: string;
  log: OutputLog;
  walkthrough: Walkthrough;
  findings: ToolSupportFindings;
  /** The panel's model for the active relay. */
  activeModel: () => string;
  /** The model another relay would use (its remembered model, else its first listed). */
  modelFor: (relay: string) => Promise<string>;
}

/** The check-up of one relay (the active relay with the panel's model; another with its remembered or first listed model). */
export function relayCheckUp(sources: RelayCheckUpSources): (name: string) => Promise<void> {
  const { connection, storage, storageFolder, log, walkthrough, findings } = sources;
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
    const markdown = connectionReportMarkdown(report, { relay: `${name} (${client.root}/v1)`, model: model || vscode.l10n.t("(none selected)"), keySource: connection.activeRelay === name ? connection.source : "secret-storage", checkedAt: new Date() }, vscode.l10n.t);
    await storage.writeAtomically(CONNECTION_REPORT_NAME, redactSecrets(markdown, connection.secrets()));
    await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(path.join(storageFolder, CONNECTION_REPORT_NAME)));
    log.info(`connection check of ${name}: ${report.ok ? "ok" : "failed"} (request ${report.result?.requestId ?? "-"})`);
    if (report.ok) walkthrough.checkPassed();
    await findings.recordFromCheck(client.root, model, report.steps);
    if (report.protocolFinding === "chat" && model) void offerChatCompletions(name, model, log);
    const profile = connection.relays.find((relay) => relay.name === name);
    if (instructions && profile) await offerInstructionsFinding(profile, instructions);
  };
}

/** The check-up found the model needs Chat Completions: the switch is saved only when the person confirms it. */
async function offerChatCompletions(relay: string, model: string, log: OutputLog): Promise<void> {
  const use = vscode.l10n.t("Use Chat Completions for this model");
  const answer = await vscode.window.showInformationMessage(vscode.l10n.t('"{0}" on {1} answers over Chat Completions, not the Responses interface. Use Chat Completions for it?', model, relay), use);
  if (answer !== use) return;
  await saveModelSettings(relay, model, { protocol: "chat" });
  log.info(`relayChat.modelSettings: ${model} on ${relay} now uses Chat Completions (confirmed after the check-up)`);
}
