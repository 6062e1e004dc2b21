import * as vscode from "vscode";
import type { ModelProtocol } from "../../chat/modelSettings";
import { followUpPrompt } from "../../editInPlace/editFollowUp";
import { editInstruction, editPrompt } from "../../editInPlace/editPrompt";
import type { SlashCommand } from "../../instructions/slashCommands";
import { editRegion } from "../../editInPlace/editRegion";
import { editRequest } from "../../editInPlace/editRequest";
import type { InstructionChoices } from "../../panel/chatControllerOptions";
import type { InstructionsAssembly } from "../../panel/context/instructionsAssembly";
import { sessionSettings } from "../../panel/relays/sessionSettings";
import type { ModelPrice } from "../../relay/modelPrice";
import type { WorkspaceFiles } from "../../panel/context/workspaceFiles";
import type { WorkspaceContextSource } from "../../panel/panelServices";
import { composeMessage } from "../../panel/context/messageAttachments";
import type { RelayConnection } from "../relays/relayConnection";
import { editContext } from "./editContext";
import { askInstruction } from "./instructionInput";
import type { EditRunEnd, EditRunServices } from "./editInPlaceRun";
import { receiptOf, runEditInPlace } from "./editInPlaceRun";
import { RefinableEdits } from "./refinableEdits";

// Edit with Relay Chat: from the editor (its context menu, the Command Palette, Ctrl+Alt+E / Cmd+Alt+E; Ctrl+Alt+I is VS Code's Open Chat), the
// selected lines or the cursor's line are changed as the person asks in a quick input, by the model chosen for
// editing (relayChat.editModel) or else the panel's, on the panel's relay. The request is the panel's kind of
// request (settings, instructions and rules for the file, spend warning, ledger); Escape cancels while it streams.
// Run again with the cursor in the change it left pending (or at once after it landed), it takes a follow-up
// instruction that refines that change (src/host/editInPlace/refinableEdits.ts).

export const EDIT_IN_PLACE_COMMAND = "relayChat.editInPlace";
export const CANCEL_EDIT_IN_PLACE_COMMAND = "relayChat.editInPlace.cancel";
export const CHOOSE_EDIT_MODEL_COMMAND = "relayChat.chooseEditModel";
const STREAMING_CONTEXT = "relayChat.editInPlaceStreaming";

export interface EditInPlaceDependencies extends EditRunServices {
  connection: RelayConnection;
  /** The relay settings and key are read. */
  ready: Promise<unknown>;
  /** The panel's instruction assembly for the file worked in (the active editor). */
  instructions: (choices: InstructionChoices) => InstructionsAssembly;
  instructionsReady: () => Promise<void> | undefined;
  /** The model the panel sends to now. */
  panelModel: () => string;
  /** The models the relay lists, for the picker. */
  listedModels: () => Promise<readonly string[]>;
  priceOf: (relay: string, model: string) => ModelPrice | null;
  protocolOf: (relay: string, model: string) => ModelProtocol;
  /** The `/` commands, prompt files included, as the panel has them. */
  slashCommands: () => readonly SlashCommand[];
  /** The panel's `#` context builders: the editor's context, and the workspace's files. */
  workspaceContext: WorkspaceContextSource;
  files: WorkspaceFiles;
}

export function registerEditInPlace(dependencies: EditInPlaceDependencies): vscode.Disposable {
  let running: AbortController | null = null;
  const refinable = new RefinableEdits(dependencies.review);
  const edit = async (instructionArgument?: unknown): Promise<EditRunEnd | undefined> => {
    if (running) return void vscode.window.showInformationMessage(vscode.l10n.t("An edit with Relay Chat is still streaming: wait for it or press Escape to cancel it."));
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage(vscode.l10n.t("Open a file and select the lines to change, then run Edit with Relay Chat."));
    const document = editor.document;
    const selection = editor.selection;
    const refining = refinable.find(document, selection);
    if (!refining && dependencies.review.pendingChanges(document.uri) > 0) {
      return void vscode.window.showWarningMessage(vscode.l10n.t("This file has changes waiting for Keep or Undo. Decide them first, or put the cursor in a change Edit with Relay Chat made to refine it."));
    }
    // A selection of whole lines ends at the start of the next line, which is not part of it.
    const endLine = !selection.isEmpty && selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
    const first = refining ? refining.region.startLine : selection.start.line;
    const last = refining ? refining.region.startLine + Math.max(1, refining.pending.lineCount) - 1 : endLine;
    const lines = first === last ? vscode.l10n.t("line {0}", first + 1) : vscode.l10n.t("lines {0}-{1}", first + 1, last + 1);
    const path = vscode.workspace.asRelativePath(document.uri);
    const instruction = typeof instructionArgument === "string" ? instructionArgument : await askInstruction(refining ? {
      title: vscode.l10n.t("Refine the pending change of {0} of {1}", lines, path),
      placeholder: vscode.l10n.t("A follow-up, for example: shorter, keep the comments (# for context; Undo still brings back the original)"),
      files: dependencies.files,
    } : {
      title: vscode.l10n.t("Edit with Relay Chat: how should {0} of {1} change?", lines, path),
      placeholder: vscode.l10n.t("Describe the change, for example: add error handling (/ for prompt files, # for context)"),
      files: dependencies.files,
    });
    if (!instruction?.trim()) return undefined;

    const { connection } = dependencies;
    await dependencies.ready;
    const client = connection.current();
    if (!client) return void vscode.window.showWarningMessage(connection.missing() ?? vscode.l10n.t("Relay Chat: no relay is configured."));
    const model = vscode.workspace.getConfiguration("relayChat").get<string>("editModel", "").trim() || dependencies.panelModel();
    if (!model) return void vscode.window.showWarningMessage(vscode.l10n.t("Pick a model first: in the chat panel, or for editing with Relay Chat: Choose Model for Edit in Place."));
    await dependencies.instructionsReady();
    const asked = editInstruction(instruction, dependencies.slashCommands());
    const assembly = dependencies.instructions({ toolNames: [], rulesOff: [], command: asked.prompt });
    const settings = sessionSettings({ relay: connection, model, priceOf: dependencies.priceOf, protocolOf: dependencies.protocolOf });
    const context = await editContext(asked.instruction, dependencies);
    if (context.problems.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t("Some context was not added to the edit: {0}", context.problems.join(" ")));
    const region = refining?.region ?? editRegion(document.getText(), selection.start.line, endLine);
    const asPrompt = refining ? followUpPrompt(asked.instruction, document.languageId, refining.turns) : editPrompt(region, { path, languageId: document.languageId, instruction: asked.instruction });
    const prompt = composeMessage(asPrompt, context.attachments);
    const built = editRequest(settings, assembly.assembled, prompt, refining ? { turns: refining.turns, languageId: document.languageId } : null);
    if (built.estimate.needsConfirmation && !(await confirmSpend(built.estimate.inputTokens, built.estimate.inputCost))) return undefined;

    running = new AbortController();
    await vscode.commands.executeCommand("setContext", STREAMING_CONTEXT, true);
    try {
      const end = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t("Relay Chat is editing {0}…", vscode.workspace.asRelativePath(document.uri)) }, () =>
        runEditInPlace(dependencies, { document, region, ...(refining ? { refines: refining.pending } : {}), client, settings, built, instructions: assembly.assembled, signal: running!.signal }),
      );
      if (end.kind === "proposed") refinable.remember(document, region, [...(refining?.turns ?? []), { prompt, answer: end.replacement }]);
      report(end, settings);
      return end;
    } finally {
      running = null;
      await vscode.commands.executeCommand("setContext", STREAMING_CONTEXT, false);
    }
  };
  const report = (end: EditRunEnd, settings: Parameters<typeof receiptOf>[1]) => {
    const receipt = end.result ? receiptOf(end.result, settings) : null;
    if (end.kind === "proposed") {
      vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t("Edit with Relay Chat: {0} to review", end.changes === 1 ? vscode.l10n.t("1 change") : vscode.l10n.t("{0} changes", end.changes))} · ${receipt}`, 30_000);
    } else if (end.result?.outcome.kind === "cancelled") {
      vscode.window.setStatusBarMessage(end.reason, 10_000);
    } else {
      void vscode.window.showWarningMessage(receipt ? `${end.reason} (${receipt})` : end.reason);
    }
  };
  return vscode.Disposable.from(
    refinable,
    vscode.commands.registerCommand(EDIT_IN_PLACE_COMMAND, edit),
    vscode.commands.registerCommand(CANCEL_EDIT_IN_PLACE_COMMAND, () => running?.abort()),
    vscode.commands.registerCommand(CHOOSE_EDIT_MODEL_COMMAND, () => chooseEditModel(dependencies)),
  );
}

async function confirmSpend(inputTokens: number, cost: { amount: number; currency: string; threshold: number } | undefined): Promise<boolean> {
  const send = vscode.l10n.t("Send");
  const detail = cost && cost.amount > cost.threshold
    ? vscode.l10n.t("About {0} input tokens, about {1} {2} of input at the model's price (an estimate), above your warning of {3} {2}.", inputTokens, cost.amount.toFixed(4), cost.currency, cost.threshold)
    : vscode.l10n.t("About {0} input tokens (an estimate), above your warning threshold (relayChat.historyWarningTokens). The relay bills input tokens.", inputTokens);
  return (await vscode.window.showWarningMessage(vscode.l10n.t("This edit request is large."), { modal: true, detail }, send)) === send;
}

/** The model for editing: the panel's (the setting left empty) or one the relay lists, saved in User settings. */
async function chooseEditModel(dependencies: EditInPlaceDependencies): Promise<void> {
  const config = vscode.workspace.getConfiguration("relayChat");
  const current = config.get<string>("editModel", "").trim();
  const samePanel = vscode.l10n.t("The chat panel's model ({0})", dependencies.panelModel() || vscode.l10n.t("none picked yet"));
  const models = await dependencies.listedModels();
  const items: vscode.QuickPickItem[] = [{ label: samePanel, picked: current === "" }, ...models.map((model) => ({ label: model, picked: model === current, description: model === current ? vscode.l10n.t("current") : "" }))];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Model for Edit with Relay Chat"), placeHolder: vscode.l10n.t("Pick a model, or the chat panel's") });
  if (!picked) return;
  await config.update("editModel", picked.label === samePanel ? undefined : picked.label, vscode.ConfigurationTarget.Global);
}
