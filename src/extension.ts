import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { FileStorage } from "./chat/fileStorage";
import { HistoryStore } from "./chat/historyStore";
import { redactingStorage } from "./chat/redactingStorage";
import { ReviewNotes } from "./chat/reviewNote";
import { ledgerToCsv } from "./chat/ledgerCsv";
import { RequestLedger } from "./chat/requestLedger";
import { ActivationClock } from "./host/activationClock";
import type { ActivationTimings } from "./host/activationClock";
import { ApiKeyStore } from "./host/relays/apiKeyStore";
import { clearApiKey, setApiKey } from "./host/relays/apiKeyCommands";
import { lazyChatTools } from "./host/tools/chatToolsFactory";
import { commandsAfter } from "./host/commandRegistration";
import { watchEditorContext } from "./host/context/editorContext";
import { TerminalHistory } from "./host/context/terminalHistory";
import { editorWorkspaceContext } from "./host/context/workspaceContext";
import { pickModel } from "./host/models/modelPicker";
import { openModelSettings } from "./host/models/modelSettingsEditor";
import { ProtocolChoices } from "./host/checkUp/protocolChoices";
import { OutputLog } from "./host/outputLog";
import { GitCommitBox } from "./host/context/gitCommitBox";
import { setUpInstructions } from "./host/instructions/instructionsSetup";
import { targetInstructions } from "./host/instructions/panelInstructions";
import { sharedHistoryFolder } from "./host/historyFolder";
import { relayCheckUp } from "./host/checkUp/relayCheckUp";
import { addRelay, pickRelay, removeRelay, renameRelay } from "./host/relays/relayCommands";
import type { RelayCommandsContext } from "./host/relays/relayCommands";
import { RelayConnection, workspaceRelayMemory } from "./host/relays/relayConnection";
import { RelayMoney } from "./host/relays/relayMoney";
import { affectsRelaySettings } from "./host/settings";
import { showSessionApprovals } from "./host/tools/sessionApprovalsPicker";
import { registerCheckpointReview } from "./host/review/checkpointReview";
import { EditReview } from "./host/review/editReview";
import { registerEditReviewCommands } from "./host/review/editReviewCommands";
import { registerEditInPlace } from "./host/editInPlace/editInPlaceCommand";
import { WorkspaceCheckpointing } from "./host/review/checkpointSetup";
import { globalReadOnlyDefault, trustRestrictionNotice } from "./host/tools/toolSetup";
import { Walkthrough } from "./host/walkthrough";
import { chooseExternalTools } from "./lm/externalToolPicker";
import { ExternalTools } from "./lm/externalTools";
import { registerRelayLanguageModels } from "./lm/languageModelSetup";
import { ChatController } from "./panel/chatController";
import { CHAT_VIEW_ID, ChatViewProvider } from "./panel/chatViewProvider";
import { CodeBlockActions } from "./panel/editor/codeBlockActions";
import { FileReferenceResolver } from "./panel/editor/fileReferences";
import { createEditorServices, panelPreferences, showExportedFile, vscodeConversationUi, workspaceMemories } from "./panel/vscodePanelServices";
import { WorkspaceFiles } from "./panel/context/workspaceFiles";
import { WEBVIEW_STRINGS } from "./panel/webviewStrings";
import type { PanelState, ToHost } from "./panel/protocol";
import { redactSecrets, removeKeys } from "./relay/redact";
import { defaultRelay } from "./relay/relayProfiles";
import { SessionAllowances } from "./tools/approvalPolicy";

// The composition root: builds the relay connection, history, ledger, tools and panel, then registers each
// feature's commands and listeners (their code lives in src/host/ and src/panel/). Activation only wires
// objects together; nothing talks to the network until the view asks for models or the user sends.

/**
 * What `activate` returns: the panel's own protocol, so another extension or an in-host test can drive
 * the chat exactly as the webview does (and read the same state), plus where the data lives.
 */
export interface RelayChatApi {
  handle(message: ToHost): void;
  state(): PanelState;
  storageFolder: string;
  /** This extension's log folder; the "Relay Chat" Output channel logs beside it. */
  logFolder: string;
  /** Milliseconds from the start of `activate`, for the activation benchmark; null until it happened. */
  timings(): ActivationTimings;
}

export async function activate(context: vscode.ExtensionContext): Promise<RelayChatApi> {
  const clock = new ActivationClock();
  // Code without vscode (the panel's controller and presenter) translates through @vscode/l10n.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = new OutputLog();
  const walkthrough = new Walkthrough(context.globalState);
  const keys = new ApiKeyStore(context.secrets, context.globalState);
  const connection = new RelayConnection(keys, log, workspaceRelayMemory(context.workspaceState));
  // Prices and the balance: read in the background, shown on receipts and in the status bar.
  const money = new RelayMoney(connection, log, "relayChat.refreshBalance");
  // The key is read from SecretStorage in the background; the view and the commands wait for it.
  const connectionReady = connection.refresh().catch((error: unknown) => log.error(`Reading the relay settings and key failed: ${String(error)}`));
  clock.phase("log");

  // Per workspace when a folder is open; global storage otherwise, so chats are never lost.
  // Two windows on one folder get two storage folders from VS Code; they share the first one's history.
  const storageFolder = context.storageUri ? sharedHistoryFolder(context.storageUri.fsPath) : context.globalStorageUri.fsPath;
  const storage = new FileStorage(storageFolder);
  // No stored relay key is ever written to the history, whatever way it reached a conversation.
  const store = new HistoryStore(redactingStorage(storage, (text) => removeKeys(text, connection.secrets())));
  const ledger = new RequestLedger(storage);
  // Debris of writes that failed or were killed (a full disk, a crash) is removed in the background.
  void storage.removeLeftovers().catch((error: unknown) => log.error(`Cleaning the storage folder failed: ${String(error)}`));

  const fileFolders = () => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
  const excludePatterns = () => Object.entries(vscode.workspace.getConfiguration("files").get<Record<string, boolean>>("exclude", {})).filter(([, on]) => on).map(([pattern]) => pattern);
  // "Allow for this session" answers, shared by every conversation of this window (Session Approvals lists them).
  const sessionAllowances = new SessionAllowances();
  // The one first-use answer about read-only tools; Session Approvals can take it back.
  const readOnlyDefault = globalReadOnlyDefault(context.globalState);
  const checkpointing = new WorkspaceCheckpointing(storageFolder, log);
  // Proposed edits (propose_edit, Apply to file) wait in their editors for Keep or Undo.
  // What the person did with the model's changes (kept, undone, restored), told to the model with the next message.
  const reviewNotes = new ReviewNotes();
  const editReview = new EditReview(reviewNotes);
  const checkpointReview = registerCheckpointReview(checkpointing, reviewNotes);
  const externalTools = new ExternalTools(() => connection.secrets(), (message) => log.info(message));
  // The terminals' last commands, read as they run (shell integration gives no output from before).
  const terminalHistory = new TerminalHistory();
  context.subscriptions.push(terminalHistory);
  const workspaceContext = editorWorkspaceContext(fileFolders, () => terminalHistory.snapshot());
  const chatTools = lazyChatTools({
    workspaceFolders: fileFolders,
    terminalSnapshot: () => terminalHistory.snapshot(),
    excludePatterns,
    settings: () => connection.settings,
    secrets: () => connection.secrets(),
    review: editReview,
    log: (message) => log.info(message),
    readOnlyDefault,
    sessionAllowances,
    externalTools,
    checkpoints: checkpointing.turnCheckpoints,
    subscriptions: context.subscriptions,
  });

  // The `#` picker's list of workspace files: walked when first asked for, again after files change.
  const workspaceFiles = new WorkspaceFiles({ folders: fileFolders, excludePatterns });
  const codeBlocks = new CodeBlockActions({
    workspaceFolders: fileFolders,
    notify: (message) => void vscode.window.showWarningMessage(message),
    review: editReview,
  });
  let webviewStrings: Record<string, string> | null = null;
  const activeConsoleUrl = () => connection.active?.consoleUrl ?? "";
  // What the model is told: the rules and prompt files kept current, with what the person set for the relay and
  // model of the panel's next request; its preview; the editor the person works in.
  const told = setUpInstructions(context, (message) => log.info(message), () => targetInstructions(connection.settings, { relay: connection.activeRelay, model: controller.model() }), () => connection.secrets());
  context.subscriptions.push(told, vscode.commands.registerCommand("relayChat.showInstructions", () => controller.slash.showInstructions()));
  const protocolChoices = new ProtocolChoices(connection, context.globalState, log);
  const controller = new ChatController({
    relay: connection,
    store,
    ledger,
    log,
    tools: chatTools,
    toolsNotice: trustRestrictionNotice,
    turnChanges: checkpointReview.actions,
    editReviews: reviewNotes,
    filesToReview: () => editReview.filesInReview().length,
    relayReady: connectionReady,
    ...workspaceMemories(context.workspaceState, () => defaultRelay(connection.relays)?.name ?? null),
    editor: createEditorServices(workspaceFiles, codeBlocks, activeConsoleUrl, workspaceContext, () => told.workingEditor.current),
    workspaceContext,
    conversationUi: vscodeConversationUi,
    files: workspaceFiles,
    fileReferences: new FileReferenceResolver(fileFolders, workspaceFiles),
    preferences: () => panelPreferences(activeConsoleUrl),
    locale: () => vscode.env.language,
    onModelPicked: () => walkthrough.modelPicked(),
    onTurnCompleted: () => walkthrough.answered(),
    onPendingApprovals: (count) => provider.showPendingApprovals(count),
    strings: () => (webviewStrings ??= Object.fromEntries(WEBVIEW_STRINGS.map((english) => [english, vscode.l10n.t(english)]))),
    onRequestEnd: () => void money.refreshBalance(),
    priceOf: (relay, model) => money.priceOf(relay, model),
    ...protocolChoices.panelOptions,
    ...told.panel,
    slashCommands: told.promptFiles,
    commitMessages: new GitCommitBox(),
    balanceNote: (relay) => money.balanceNote(relay),
    onRendered: (sinceLoadMs) => {
      if (!clock.rendered(sinceLoadMs)) return;
      const timings = clock.timings();
      log.info(`activation took ${timings.activateMs} ms; the chat view was resolved at ${timings.viewResolvedMs ?? "-"} ms and first rendered at ${timings.firstRenderMs} ms after activation started`);
    },
  });
  const provider = new ChatViewProvider(
    context.extensionUri,
    (message) => controller.handle(message),
    (message) => log.error(message),
    () => {
      clock.viewResolved();
      controller.viewLoading();
    },
  );
  controller.attach(provider);
  clock.phase("panel");

  // The relay's models in VS Code's own chat, and the request log across the panel and that chat.
  const languageModels = registerRelayLanguageModels({ connection, ledger, log, globalState: context.globalState });
  clock.phase("languageModels");

  const tellWalkthrough = () => walkthrough.relayKnown(connection.settings.baseUrl !== "", connection.hasKey);
  const refreshConnection = async () => {
    await connection.refresh();
    controller.onConnectionChanged();
    tellWalkthrough();
  };
  void connectionReady.then(tellWalkthrough);
  walkthrough.openOnFirstStart();
  const checkRelay = relayCheckUp({ connection, storage, log, reportView: protocolChoices.reportView, chatCompletions: protocolChoices.finding, walkthrough, findings: languageModels.findings, activeModel: () => controller.model(), modelFor: (relay) => controller.modelFor(relay) });
  const relayCommands: RelayCommandsContext = { connection, keys, refresh: refreshConnection, checkRelay };
  const command = commandsAfter(connectionReady);

  context.subscriptions.push(
    // Storage, connection and money.
    { dispose: () => (store.dispose(), void storage.close()) },
    log,
    connection,
    money,
    keys.onDidChange(() => void refreshConnection()),
    // A tool turned off loses its session allowance, so turning it back on asks first.
    connection.onDidChange(() => {
      for (const name of connection.settings.disabledTools) sessionAllowances.revoke(name);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("relayChat.model")) void controller.onModelSettingChanged();
      if (affectsRelaySettings(event)) void refreshConnection();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.onConnectionChanged()),
    money.onDidReadBalance(() => controller.fieldsChanged()),
    told.onDidChange(() => controller.fieldsChanged()),
    ...languageModels.disposables,

    // The panel, its history shared with other windows on the same folder, and the editor as context.
    provider,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: true } }),
    store.watch((change) => void controller.conversations.onHistoryChanged(change)),
    watchEditorContext(controller.editorActions, workspaceFiles, told.workingEditor),
    command("relayChat.focusChat", () => provider.focusMessageBox()),
    command("relayChat.showHistory", () => {
      provider.reveal();
      controller.showHistory();
    }),
    command("relayChat.newChat", async () => {
      provider.reveal();
      await controller.newChat();
    }),
    command("relayChat.modelSettings", (request) => openModelSettings(connection, controller.modelChoice, request)),
    command("relayChat.selectModel", async () => {
      await controller.refreshModels();
      const picked = await pickModel(controller.listedModels, controller.model());
      if (picked) await controller.setModel(picked);
    }),
    command("relayChat.askAboutSelection", () => {
      controller.attachSelection();
      provider.reveal();
    }),
    command("relayChat.exportConversation", () => controller.exportConversation()),

    // Edits in review, checkpoints, tools.
    editReview,
    registerEditReviewCommands(editReview),
    editReview.onDidChange(() => controller.reviewChanged()),
    // Edit with Relay Chat: the panel's relay, model (or relayChat.editModel), instructions and ledger, reviewed as above.
    registerEditInPlace({ connection, ready: connectionReady, ledger, log, review: editReview, checkpoints: checkpointing.turnCheckpoints, secrets: () => connection.secrets(), ...told.panel, panelModel: () => controller.model(),
      listedModels: async () => (await controller.refreshModels(), controller.listedModels), priceOf: (relay, model) => money.priceOf(relay, model), protocolOf: (relay, model) => controller.modelChoice.protocolOf(relay, model), slashCommands: () => told.promptFiles.commands(), workspaceContext, files: workspaceFiles }),
    checkpointReview.disposable,
    command("relayChat.chooseExternalTools", () => chooseExternalTools()),
    command("relayChat.sessionApprovals", () => showSessionApprovals(sessionAllowances, readOnlyDefault)),

    // Relays, keys, the check-up and money.
    command("relayChat.setApiKey", () => setApiKey(relayCommands)),
    command("relayChat.clearApiKey", () => clearApiKey(relayCommands)),
    command("relayChat.addRelay", () => addRelay(relayCommands)),
    command("relayChat.renameRelay", () => renameRelay(relayCommands)),
    command("relayChat.removeRelay", () => removeRelay(relayCommands)),
    command("relayChat.checkConnection", async () => {
      const relay = await pickRelay(connection, vscode.l10n.t("Which relay do you want to check?"));
      if (!relay) return void vscode.window.showWarningMessage(connection.missing() ?? "");
      await checkRelay(relay.name);
    }),
    ...protocolChoices.register(command, connectionReady, storageFolder, () => controller.fieldsChanged()),
    command("relayChat.refreshBalance", () => money.refreshBalance(true)),
    command("relayChat.exportRequestLog", async () => {
      const target = await vscode.window.showSaveDialog({ filters: { CSV: ["csv"] }, defaultUri: vscode.Uri.file("relay-chat-requests.csv") });
      if (!target) return;
      const csv = redactSecrets(ledgerToCsv(await ledger.rows()), connection.secrets());
      await vscode.workspace.fs.writeFile(target, Buffer.from(csv, "utf8"));
      void showExportedFile(vscode.l10n.t("Request log exported to {0}.", target.fsPath), target);
    }),

    // Getting started and settings.
    command("relayChat.openWalkthrough", () => walkthrough.open()),
    command("relayChat.openSettings", () => vscode.commands.executeCommand("workbench.action.openSettings", "relayChat")),
  );
  clock.activated();
  return { handle: (message) => controller.handle(message), state: () => controller.state(), storageFolder, logFolder: context.logUri.fsPath, timings: () => clock.timings() };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
