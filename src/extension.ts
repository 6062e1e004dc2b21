import path from "node:path";
import { performance } from "node:perf_hooks";
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { FileStorage } from "./chat/fileStorage";
import { HistoryStore } from "./chat/historyStore";
import { ReviewNotes } from "./chat/reviewNote";
import { ledgerToCsv } from "./chat/ledgerCsv";
import { RequestLedger } from "./chat/requestLedger";
import { ApiKeyStore } from "./host/apiKeyStore";
import { closeOrphanedReportPreviews } from "./host/orphanedReportTabs";
import { OutputLog } from "./host/outputLog";
import { PanelInstructions, requestInstructionsOf } from "./host/panelInstructions";
import { ProjectRulesWatcher } from "./host/projectRulesWatcher";
import { sharedHistoryFolder } from "./host/historyFolder";
import { addRelay, pickRelay, removeRelay, renameRelay } from "./host/relayCommands";
import { RelayConnection, workspaceRelayMemory } from "./host/relayConnection";
import { RelayMoney } from "./host/relayMoney";
import { affectsRelaySettings } from "./host/settings";
import { showSessionApprovals } from "./host/sessionApprovalsPicker";
import { registerCheckpointReview } from "./host/checkpointReview";
import { EditReview, registerEditReviewCommands } from "./host/editReview";
import { WorkspaceCheckpointing } from "./host/checkpointSetup";
import { ToolSetup, globalReadOnlyDefault, trustRestrictionNotice } from "./host/toolSetup";
import { Walkthrough } from "./host/walkthrough";
import { chooseExternalTools } from "./lm/externalToolPicker";
import { ExternalTools } from "./lm/externalTools";
import { registerRelayLanguageModels } from "./lm/languageModelSetup";
import { ChatController } from "./panel/chatController";
import { CHAT_VIEW_ID, ChatViewProvider } from "./panel/chatViewProvider";
import { CodeBlockActions } from "./panel/codeBlockActions";
import { FileReferenceResolver } from "./panel/fileReferences";
import { createEditorServices, panelPreferences, showExportedFile, vscodeConversationUi, workspaceModelMemory } from "./panel/vscodePanelServices";
import { WorkspaceFiles } from "./panel/workspaceFiles";
import { WEBVIEW_STRINGS } from "./panel/webviewStrings";
import type { PanelState, ToHost } from "./panel/protocol";
import { checkConnection } from "./relay/connectionCheck";
import { connectionReportMarkdown } from "./relay/connectionReport";
import { redactSecrets } from "./relay/redact";
import { defaultRelay } from "./relay/relayProfiles";
import { SessionAllowances } from "./tools/approvalPolicy";
import { createBuiltinTools } from "./tools/builtin/builtinTools";

// The composition root: builds the relay connection, history, ledger, tools and panel, and registers
// the commands. Activation only wires objects together; nothing talks to the network until the view
// asks for models or the user sends.

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

export interface ActivationTimings {
  /** How long `activate` itself took. */
  activateMs: number;
  /** When VS Code asked for the chat view's content. */
  viewResolvedMs: number | null;
  /** When the webview reported its first snapshot on screen (received by the host). */
  firstRenderMs: number | null;
  /** The webview's own time from loading its page to that first render. */
  webviewLoadToRenderMs: number | null;
  /** When each step of `activate` was done. */
  phases: Record<string, number>;
}

/** The last connection check's report, in the storage folder, opened as a Markdown preview. */
const CONNECTION_REPORT_NAME = "connection-check.md";

export async function activate(context: vscode.ExtensionContext): Promise<RelayChatApi> {
  const activationStarted = performance.now();
  const timings: ActivationTimings = { activateMs: 0, viewResolvedMs: null, firstRenderMs: null, webviewLoadToRenderMs: null, phases: {} };
  const sinceActivation = () => Math.round((performance.now() - activationStarted) * 10) / 10;
  const phase = (name: string) => (timings.phases[name] = sinceActivation());
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
  phase("log");

  // Per workspace when a folder is open; global storage otherwise, so chats are never lost.
  // Two windows on one folder get two storage folders from VS Code; they share the first one's history.
  const storageFolder = context.storageUri ? sharedHistoryFolder(context.storageUri.fsPath) : context.globalStorageUri.fsPath;
  const storage = new FileStorage(storageFolder);
  const store = new HistoryStore(storage);
  const ledger = new RequestLedger(storage);
  // Debris of writes that failed or were killed (a full disk, a crash) is removed in the background.
  void storage.removeLeftovers().catch((error: unknown) => log.error(`Cleaning the storage folder failed: ${String(error)}`));

  // The tools (their argument validators compiled, the diff documents registered) are built for the
  // first chat session, not during activation, which stays within its budget.
  let toolSetup: ToolSetup | null = null;
  // "Allow for this session" answers, shared by every conversation of this window (Session Approvals lists them).
  const sessionAllowances = new SessionAllowances();
  // The one first-use answer about read-only tools; Session Approvals can take it back.
  const readOnlyDefault = globalReadOnlyDefault(context.globalState);
  const chatTools = (askUser: Parameters<ToolSetup["chatTools"]>[0]) => {
    if (toolSetup === null) {
      const builtinTools = createBuiltinTools({
        workspaceFolders: fileFolders,
        excludePatterns,
        commandTimeoutMs: () => connection.settings.commandTimeoutMs,
        maxOutputChars: () => connection.settings.maxToolResultChars,
        allowedEnvironmentNames: () => connection.settings.commandEnvironmentAllow,
        secrets: () => connection.secrets(),
        review: editReview,
      });
      context.subscriptions.push(builtinTools);
      toolSetup = new ToolSetup(builtinTools.tools, () => connection.settings, { secrets: () => connection.secrets(), workspaceFolders: fileFolders, log: (message) => log.info(message), readOnlyDefault }, sessionAllowances);
    }
    // Other extensions' and MCP servers' tools the user chose, beside the built-in ones, behind the same approval card.
    // Checkpoints are taken around rounds whose tools may change files, so a turn can be restored in one step.
    return { ...externalTools.extend(toolSetup.chatTools(askUser)), checkpoints: checkpointing.turnCheckpoints };
  };
  const checkpointing = new WorkspaceCheckpointing(storageFolder, log);
  // Proposed edits (propose_edit, Apply to file) wait in their editors for Keep or Undo.
  // What the person did with the model's changes (kept, undone, restored), told to the model with the next message.
  const reviewNotes = new ReviewNotes();
  const editReview = new EditReview(reviewNotes);
  context.subscriptions.push(editReview, registerEditReviewCommands(editReview));
  const checkpointReview = registerCheckpointReview(checkpointing, reviewNotes);
  context.subscriptions.push(checkpointReview.disposable);
  const externalTools = new ExternalTools(() => connection.secrets(), (message) => log.info(message));

  const fileFolders = () => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
  const excludePatterns = () => Object.entries(vscode.workspace.getConfiguration("files").get<Record<string, boolean>>("exclude", {})).filter(([, on]) => on).map(([pattern]) => pattern);
  // The `#` picker's list of workspace files: walked when first asked for, again after files change.
  const workspaceFiles = new WorkspaceFiles({ folders: fileFolders, excludePatterns });
  const codeBlocks = new CodeBlockActions({
    workspaceFolders: fileFolders,
    notify: (message) => void vscode.window.showWarningMessage(message),
    review: editReview,
  });
  let webviewStrings: Record<string, string> | null = null;
  const activeConsoleUrl = () => connection.active?.consoleUrl ?? "";
  // What the model is told: the base instruction, the person's and the project rules files, kept current.
  const projectRules = new ProjectRulesWatcher(context.workspaceState, (message) => log.info(message));
  const panelInstructions = new PanelInstructions(projectRules);
  projectRules.current();
  context.subscriptions.push(projectRules, vscode.commands.registerCommand("relayChat.showInstructions", () => panelInstructions.show(controller.offeredToolNames())));
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
    modelMemory: workspaceModelMemory(context.workspaceState, () => defaultRelay(connection.relays)?.name ?? null),
    editor: createEditorServices(workspaceFiles, codeBlocks, activeConsoleUrl),
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
    instructions: (toolNames) => requestInstructionsOf(panelInstructions.assemble(toolNames)),
    showInstructions: (toolNames) => panelInstructions.show(toolNames),
    balanceNote: (relay) => money.balanceNote(relay),
    onRendered: (sinceLoadMs) => {
      if (timings.firstRenderMs !== null) return;
      timings.firstRenderMs = sinceActivation();
      timings.webviewLoadToRenderMs = Math.round(sinceLoadMs);
      log.info(`activation took ${timings.activateMs} ms; the chat view was resolved at ${timings.viewResolvedMs ?? "-"} ms and first rendered at ${timings.firstRenderMs} ms after activation started`);
    },
  });
  const provider = new ChatViewProvider(
    context.extensionUri,
    (message) => controller.handle(message),
    (message) => log.error(message),
    () => {
      timings.viewResolvedMs ??= sinceActivation();
      controller.viewLoading();
    },
  );
  controller.attach(provider);
  controller.editorActions.offerActiveFile(activeFileLabel());
  // Other windows on the same folder share the history: their changes show here without a reload.
  const historyWatch = store.watch((change) => void controller.onHistoryChanged(change));
  phase("panel");

  let selectionTimer: NodeJS.Timeout | undefined;
  const offerSelection = () => {
    clearTimeout(selectionTimer);
    selectionTimer = setTimeout(() => controller.editorActions.offerSelection(selectionLabel()), 250);
  };

  // The relay's models in VS Code's own chat, and the request log across the panel and that chat.
  const languageModels = registerRelayLanguageModels({ connection, ledger, log, globalState: context.globalState });
  phase("languageModels");

  const tellWalkthrough = () => walkthrough.relayKnown(connection.settings.baseUrl !== "", connection.hasKey);
  const refreshConnection = async () => {
    await connection.refresh();
    controller.onConnectionChanged();
    tellWalkthrough();
  };
  void connectionReady.then(tellWalkthrough);
  walkthrough.openOnFirstStart();

  /** The check-up of one relay (the active relay with the panel's model; another with its remembered or first listed model). */
  const checkRelay = async (name: string) => {
    const client = await connection.clientFor(name);
    if (!client) {
      void vscode.window.showWarningMessage(
        connection.activeRelay === name ? (connection.missing() ?? "") : vscode.l10n.t('No API key is set for "{0}". Run "Relay Chat: Set API Key".', name),
      );
      return;
    }
    const model = connection.activeRelay === name ? controller.model() : (await controller.modelFor(name));
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Checking the relay: a model list and three small requests, which the relay may bill…") },
      () => checkConnection(client, model || "unknown-model"),
    );
    const markdown = connectionReportMarkdown(report, { relay: `${name} (${client.root}/v1)`, model: model || vscode.l10n.t("(none selected)"), keySource: connection.activeRelay === name ? connection.source : "secret-storage", checkedAt: new Date() }, vscode.l10n.t);
    // A file in the extension's storage, shown as a rendered preview: readable, and never an unsaved buffer.
    await storage.writeAtomically(CONNECTION_REPORT_NAME, redactSecrets(markdown, connection.secrets()));
    await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(path.join(storageFolder, CONNECTION_REPORT_NAME)));
    log.info(`connection check of ${name}: ${report.ok ? "ok" : "failed"} (request ${report.result?.requestId ?? "-"})`);
    if (report.ok) walkthrough.checkPassed();
    await languageModels.findings.recordFromCheck(client.root, model, report.steps);
  };
  const relayCommands = { connection, keys, refresh: refreshConnection, checkRelay };

  // A command can be what activates the extension: it runs once the settings and key were read.
  const command = (id: string, handler: () => unknown) =>
    vscode.commands.registerCommand(id, async () => {
      await connectionReady;
      return handler();
    });

  context.subscriptions.push(
    historyWatch,
    {
      dispose: () => {
        store.dispose();
        void storage.close();
      },
    },
    log,
    connection,
    money,
    provider,
    ...languageModels.disposables,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("relayChat.model")) void controller.onModelSettingChanged();
      if (affectsRelaySettings(event)) void refreshConnection();
      if (event.affectsConfiguration("files.exclude")) workspaceFiles.invalidate();
      if (event.affectsConfiguration("relayChat.context.activeEditor")) controller.editorActions.offerActiveFile(activeFileLabel());
    }),
    vscode.workspace.onDidCreateFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidDeleteFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidRenameFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => workspaceFiles.invalidate()),
    // The selection is offered as a one-click attachment; offered once the selection settles.
    vscode.window.onDidChangeTextEditorSelection(() => offerSelection()),
    vscode.window.onDidChangeActiveTextEditor(() => {
      offerSelection();
      controller.editorActions.offerActiveFile(activeFileLabel());
    }),
    keys.onDidChange(() => void refreshConnection()),
    editReview.onDidChange(() => controller.reviewChanged()),
    // A tool turned off loses its session allowance, so turning it back on asks first.
    connection.onDidChange(() => {
      for (const name of connection.settings.disabledTools) sessionAllowances.revoke(name);
    }),
    closeOrphanedReportPreviews(path.join(storageFolder, CONNECTION_REPORT_NAME)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.onConnectionChanged()),

    command("relayChat.focusChat", () => provider.reveal()),
    command("relayChat.showHistory", () => {
      provider.reveal();
      controller.showHistory();
    }),
    command("relayChat.newChat", async () => {
      provider.reveal();
      await controller.newChat();
    }),
    command("relayChat.selectModel", async () => {
      await controller.refreshModels();
      const picked = await pickModel(controller.listedModels, controller.model());
      if (picked) await controller.setModel(picked);
    }),
    command("relayChat.setApiKey", async () => {
      let relay = await pickRelay(connection, vscode.l10n.t("Which relay is the key for?"));
      if (!relay) {
        if (connection.relays.length > 0) return;
        const entered = await vscode.window.showInputBox({
          prompt: vscode.l10n.t("The relay's base URL (the key is stored for this address only)"),
          placeHolder: "https://relay.example.com/v1",
          ignoreFocusOut: true,
        });
        if (!entered) return;
        await vscode.workspace.getConfiguration("relayChat").update("baseUrl", entered.trim(), vscode.ConfigurationTarget.Global);
        await refreshConnection();
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
      await refreshConnection();
      void vscode.window.showInformationMessage(vscode.l10n.t("API key saved for {0}.", baseUrl));
    }),
    command("relayChat.clearApiKey", async () => {
      const relay = await pickRelay(connection, vscode.l10n.t("Which relay's key do you want to remove?"));
      if (!relay) return;
      await keys.clear(relay.baseUrl);
      await refreshConnection();
      void vscode.window.showInformationMessage(vscode.l10n.t("API key removed for {0}.", relay.baseUrl));
    }),
    command("relayChat.addRelay", () => addRelay(relayCommands)),
    command("relayChat.refreshBalance", () => money.refreshBalance(true)),
    money.onDidReadBalance(() => controller.balanceChanged()),
    command("relayChat.renameRelay", () => renameRelay(relayCommands)),
    command("relayChat.removeRelay", () => removeRelay(relayCommands)),
    command("relayChat.openSettings", () => vscode.commands.executeCommand("workbench.action.openSettings", "relayChat")),
    command("relayChat.checkConnection", async () => {
      const relay = await pickRelay(connection, vscode.l10n.t("Which relay do you want to check?"));
      if (!relay) {
        void vscode.window.showWarningMessage(connection.missing() ?? "");
        return;
      }
      await checkRelay(relay.name);
    }),
    command("relayChat.openWalkthrough", () => walkthrough.open()),
    command("relayChat.chooseExternalTools", () => chooseExternalTools()),
    command("relayChat.sessionApprovals", () => showSessionApprovals(sessionAllowances, readOnlyDefault)),
    command("relayChat.exportConversation", () => controller.exportConversation()),
    command("relayChat.exportRequestLog", async () => {
      const target = await vscode.window.showSaveDialog({ filters: { CSV: ["csv"] }, defaultUri: vscode.Uri.file("relay-chat-requests.csv") });
      if (!target) return;
      const csv = redactSecrets(ledgerToCsv(await ledger.rows()), connection.secrets());
      await vscode.workspace.fs.writeFile(target, Buffer.from(csv, "utf8"));
      void showExportedFile(vscode.l10n.t("Request log exported to {0}.", target.fsPath), target);
    }),
    command("relayChat.askAboutSelection", () => {
      controller.attachSelection();
      provider.reveal();
    }),
  );
  timings.activateMs = sinceActivation();
  return { handle: (message) => controller.handle(message), state: () => controller.state(), storageFolder, logFolder: context.logUri.fsPath, timings: () => ({ ...timings }) };
}

/**
 * The active editor's file as the panel names it, or null: when relayChat.context.activeEditor is off, when
 * the editor shows no file on disk (output, untitled, diff sides and other virtual documents), or a file
 * outside the workspace folders. Those (the User settings, ~/.ssh/config, a log under /tmp) are sent only
 * when the person attaches them: a file nobody chose must not leave the machine with every message.
 */
function activeFileLabel(): string | null {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file" || vscode.workspace.getWorkspaceFolder(editor.document.uri) === undefined) return null;
  if (!vscode.workspace.getConfiguration("relayChat").get<boolean>("context.activeEditor", true)) return null;
  return vscode.workspace.asRelativePath(editor.document.uri);
}

/** The active editor's selection as "path:first-last", or null when nothing is selected. */
function selectionLabel(): string | null {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme === "output") return null;
  const { start, end } = editor.selection;
  return `${vscode.workspace.asRelativePath(editor.document.uri)}:${start.line + 1}-${end.line + 1}`;
}

/** Select Model: the listed models, and whatever is typed as a model id of its own (a relay may serve unlisted ids). */
function pickModel(models: readonly string[], current: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick();
    pick.placeholder = vscode.l10n.t("Pick a model, or type a model ID (a listed model may still lack a feature)");
    const listed = models.map((model) => ({ label: model, description: model === current ? vscode.l10n.t("current") : undefined }));
    pick.items = listed;
    pick.onDidChangeValue((value) => {
      const typed = value.trim();
      pick.items = typed && !models.includes(typed) ? [{ label: typed, description: vscode.l10n.t("use this model ID") }, ...listed] : listed;
    });
    let chosen: string | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.label ?? (pick.value.trim() || undefined);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
