import path from "node:path";
import * as vscode from "vscode";
import { FileStorage } from "./chat/fileStorage";
import { HistoryStore } from "./chat/historyStore";
import { ledgerToCsv } from "./chat/ledgerCsv";
import { RequestLedger } from "./chat/requestLedger";
import { ApiKeyStore } from "./host/apiKeyStore";
import { OutputLog } from "./host/outputLog";
import { RelayConnection } from "./host/relayConnection";
import { affectsRelaySettings } from "./host/settings";
import { ToolSetup } from "./host/toolSetup";
import { chooseExternalTools } from "./lm/externalToolPicker";
import { ExternalTools } from "./lm/externalTools";
import { registerRelayLanguageModels } from "./lm/languageModelSetup";
import { ChatController } from "./panel/chatController";
import { CHAT_VIEW_ID, ChatViewProvider } from "./panel/chatViewProvider";
import { CodeBlockActions } from "./panel/codeBlockActions";
import type { PanelState, ToHost } from "./panel/protocol";
import { checkConnection } from "./relay/connectionCheck";
import { connectionReportMarkdown } from "./relay/connectionReport";
import { redactSecrets } from "./relay/redact";
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
}

/** The last connection check's report, in the storage folder, opened as a Markdown preview. */
const CONNECTION_REPORT_NAME = "connection-check.md";

export async function activate(context: vscode.ExtensionContext): Promise<RelayChatApi> {
  const log = new OutputLog();
  const keys = new ApiKeyStore(context.secrets, context.globalState);
  const connection = new RelayConnection(keys, log);
  await connection.refresh();

  // Per workspace when a folder is open; global storage otherwise, so chats are never lost.
  const storageFolder = (context.storageUri ?? context.globalStorageUri).fsPath;
  const storage = new FileStorage(storageFolder);
  const store = new HistoryStore(storage);
  const ledger = new RequestLedger(storage);

  const workspaceFolders = () => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
  const builtinTools = createBuiltinTools({
    workspaceFolders,
    excludePatterns: () => Object.entries(vscode.workspace.getConfiguration("files").get<Record<string, boolean>>("exclude", {})).filter(([, on]) => on).map(([pattern]) => pattern),
    commandTimeoutMs: () => connection.settings.commandTimeoutMs,
    maxOutputChars: () => connection.settings.maxToolResultChars,
    allowedEnvironmentNames: () => connection.settings.commandEnvironmentAllow,
    secrets: () => connection.secrets(),
  });
  const tools = new ToolSetup(builtinTools.tools, () => connection.settings, { secrets: () => connection.secrets(), workspaceFolders });

  // Other extensions' and MCP servers' tools the user chose, beside the built-in ones, behind the same approval card.
  const externalTools = new ExternalTools(() => connection.secrets(), (message) => log.info(message));
  const codeBlocks = new CodeBlockActions({ workspaceFolders, notify: (message) => void vscode.window.showWarningMessage(message) });

  const controller = new ChatController({
    connection,
    store,
    ledger,
    log,
    tools: (askUser) => externalTools.extend(tools.chatTools(askUser)),
    toolsNotice: () => tools.restrictionNotice(),
    workspaceState: context.workspaceState,
    codeBlocks,
  });
  const provider = new ChatViewProvider(context.extensionUri, controller, (message) => log.error(message));
  controller.attach(provider);

  // The relay's models in VS Code's own chat, and the request log across the panel and that chat.
  const languageModels = registerRelayLanguageModels({ connection, ledger, log, globalState: context.globalState });

  const refreshConnection = async () => {
    await connection.refresh();
    controller.onConnectionChanged();
  };

  context.subscriptions.push(
    log,
    connection,
    provider,
    builtinTools,
    ...languageModels.disposables,
    codeBlocks,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsRelaySettings(event)) void refreshConnection();
    }),
    keys.onDidChange(() => void refreshConnection()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.onConnectionChanged()),

    vscode.commands.registerCommand("relayChat.focusChat", () => provider.reveal()),
    vscode.commands.registerCommand("relayChat.newChat", async () => {
      await provider.reveal();
      await controller.newChat();
    }),
    vscode.commands.registerCommand("relayChat.selectModel", async () => {
      await controller.refreshModels();
      const models = controller.state().models;
      if (models.length === 0) {
        const typed = await vscode.window.showInputBox({ prompt: vscode.l10n.t("The relay listed no models. Type a model ID:"), value: controller.model() });
        if (typed) await controller.setModel(typed.trim());
        return;
      }
      const picked = await vscode.window.showQuickPick(models, { placeHolder: vscode.l10n.t("Model (a listed model may still lack a feature)") });
      if (picked) await controller.setModel(picked);
    }),
    vscode.commands.registerCommand("relayChat.setApiKey", async () => {
      let baseUrl = connection.settings.baseUrl;
      if (!baseUrl) {
        const entered = await vscode.window.showInputBox({
          prompt: vscode.l10n.t("The relay's base URL (the key is stored for this address only)"),
          placeHolder: "https://relay.example.com/v1",
          ignoreFocusOut: true,
        });
        if (!entered) return;
        baseUrl = entered.trim();
        await vscode.workspace.getConfiguration("relayChat").update("baseUrl", baseUrl, vscode.ConfigurationTarget.Global);
      }
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
    vscode.commands.registerCommand("relayChat.clearApiKey", async () => {
      if (!connection.settings.baseUrl) return;
      await keys.clear(connection.settings.baseUrl);
      await refreshConnection();
      void vscode.window.showInformationMessage(vscode.l10n.t("API key removed for {0}.", connection.settings.baseUrl));
    }),
    vscode.commands.registerCommand("relayChat.openSettings", () => vscode.commands.executeCommand("workbench.action.openSettings", "relayChat")),
    vscode.commands.registerCommand("relayChat.checkConnection", async () => {
      const client = connection.current();
      if (!client) {
        void vscode.window.showWarningMessage(connection.missing() ?? "");
        return;
      }
      const model = controller.model();
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Checking the relay: a model list and three small requests, which the relay may bill…") },
        () => checkConnection(client, model || "unknown-model"),
      );
      const localize = (english: string, ...args: Array<string | number>) => vscode.l10n.t(english, ...args);
      const markdown = connectionReportMarkdown(report, { relay: `${client.root}/v1`, model: model || vscode.l10n.t("(none selected)"), keySource: connection.source, checkedAt: new Date() }, localize);
      // A file in the extension's storage, shown as a rendered preview: readable, and never an unsaved buffer.
      await storage.writeAtomically(CONNECTION_REPORT_NAME, redactSecrets(markdown, [connection.secret]));
      await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(path.join(storageFolder, CONNECTION_REPORT_NAME)));
      log.info(`connection check: ${report.ok ? "ok" : "failed"} (request ${report.result?.requestId ?? "-"})`);
      await languageModels.findings.recordFromCheck(client.root, model, report.steps);
    }),
    vscode.commands.registerCommand("relayChat.chooseExternalTools", () => chooseExternalTools()),
    vscode.commands.registerCommand("relayChat.exportConversation", () => controller.exportConversation()),
    vscode.commands.registerCommand("relayChat.exportRequestLog", async () => {
      const target = await vscode.window.showSaveDialog({ filters: { CSV: ["csv"] }, defaultUri: vscode.Uri.file("relay-chat-requests.csv") });
      if (!target) return;
      const csv = redactSecrets(ledgerToCsv(await ledger.rows()), [connection.secret]);
      await vscode.workspace.fs.writeFile(target, Buffer.from(csv, "utf8"));
      void vscode.window.showInformationMessage(vscode.l10n.t("Request log exported to {0}.", target.fsPath));
    }),
    vscode.commands.registerCommand("relayChat.askAboutSelection", async () => {
      await controller.attachSelection();
      await provider.reveal();
      provider.post({ type: "focusInput" });
    }),
  );
  return { handle: (message) => controller.handle(message), state: () => controller.state(), storageFolder, logFolder: context.logUri.fsPath };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
