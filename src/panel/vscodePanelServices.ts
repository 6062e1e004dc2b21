import * as vscode from "vscode";
import type { CodeBlockActions } from "./editor/codeBlockActions";
import type { ConversationUi } from "./conversations/conversationCommands";
import { MAX_ATTACHMENT_CHARS } from "./context/messageAttachments";
import type { NewAttachment } from "./context/messageAttachments";
import type { ContextRequest, ConversationOnScreenMemory, EditorFix, EditorServices, ModelMemory, PanelPreferences, WorkspaceContextSource } from "./panelServices";

import { DEFAULT_IMAGE_LIMITS, MEGABYTE } from "./protocol";
import type { WorkspaceFiles } from "./context/workspaceFiles";

// The panel's thin vscode adapter: the editor actions, dialogs and the remembered model the controller
// asks for, done with the VS Code API. No decisions here; those are in the controller and its parts.

const FIX_COMMANDS: Record<Exclude<EditorFix, "openConsole">, string> = {
  setApiKey: "relayChat.setApiKey",
  openSettings: "relayChat.openSettings",
  selectModel: "relayChat.selectModel",
  checkConnection: "relayChat.checkConnection",
  addRelay: "relayChat.addRelay",
  reviewFiles: "relayChat.review.showFiles",
  modelSettings: "relayChat.modelSettings",
  confirmChatCompletions: "relayChat.useChatCompletions",
};

/** The settings only the panel reads; the console is the active relay's (its profile, or relayChat.consoleUrl). */
export function panelPreferences(consoleUrl: () => string): PanelPreferences {
  const config = vscode.workspace.getConfiguration("relayChat");
  const windows = config.get<Record<string, unknown>>("contextWindows", {});
  const contextWindows: Record<string, number> = {};
  for (const [model, tokens] of Object.entries(windows ?? {})) if (typeof tokens === "number" && tokens > 0) contextWindows[model] = tokens;
  const imageLimits = {
    maxLongestSide: positiveOr(config.get<number>("images.maxLongestSide"), DEFAULT_IMAGE_LIMITS.maxLongestSide),
    maxBytes: Math.round(positiveOr(config.get<number>("images.maxMegabytes"), DEFAULT_IMAGE_LIMITS.maxBytes / MEGABYTE) * MEGABYTE),
  };
  return { contextWindows, consoleUrl: consoleUrl().trim(), imageLimits };
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** `workingEditor`: the editor the person works in (src/host/context/workingEditor.ts: Relay Chat's own preview is never it). */
export function createEditorServices(
  files: WorkspaceFiles | null,
  codeBlocks: CodeBlockActions,
  consoleUrl: () => string,
  context: WorkspaceContextSource | null = null,
  workingEditor: () => vscode.TextEditor | undefined = () => vscode.window.activeTextEditor,
): EditorServices {
  return {
    ...editorServices,
    activeFile: () => activeFileOf(workingEditor()),
    activeSelection: () => selectionOf(workingEditor()),
    async runFix(action, target) {
      if (action !== "openConsole") {
        await vscode.commands.executeCommand(FIX_COMMANDS[action], ...(target ? [target] : []));
        return;
      }
      const address = consoleUrl().trim();
      if (/^https?:\/\//i.test(address)) await vscode.env.openExternal(vscode.Uri.parse(address, true));
    },
    pickAttachment: () => pickAttachment(files, context),
    openCode: (code, language) => codeBlocks.openInEditor(code, language),
    applyCode: (code, fileHint) => codeBlocks.applyToFile(code, fileHint),
  };
}

/**
 * The paperclip's quick pick: the selection, the active file, the editor's context (Problems, Terminal, Changes,
 * a folder, a symbol), then every workspace file (filtered by typing).
 */
async function pickAttachment(files: WorkspaceFiles | null, context: WorkspaceContextSource | null): Promise<NewAttachment | null> {
  type Choice = vscode.QuickPickItem & { attach: () => Promise<NewAttachment | null> };
  const choices: Choice[] = [];
  const selection = editorServices.activeSelection();
  if (selection) choices.push({ label: `$(selection) ${selection.label}`, description: vscode.l10n.t("Selection"), attach: async () => selection });
  const active = editorServices.activeFile();
  if (active) choices.push({ label: `$(file) ${active.label}`, description: vscode.l10n.t("Active file"), attach: async () => active });
  if (context !== null) choices.push(...contextChoices(files, context));
  for (const match of files ? await files.search("", 5000) : []) {
    if (match.path === active?.label) continue;
    choices.push({
      label: `$(file) ${match.path}`,
      attach: async () => {
        const result = await files!.attachment(match.path);
        if (!result.ok) void vscode.window.showWarningMessage(result.problem);
        return result.ok ? result.attachment : null;
      },
    });
  }
  const picked = await vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t("Attach a file or the selection to the next message"), matchOnDescription: true });
  return picked ? picked.attach() : null;
}

/** The paperclip's context entries, as the `#` menu offers them. */
function contextChoices(files: WorkspaceFiles | null, context: WorkspaceContextSource): (vscode.QuickPickItem & { attach: () => Promise<NewAttachment | null> })[] {
  const gathered = (request: ContextRequest) => async () => {
    const result = await context.attachment(request);
    if (!result.ok) void vscode.window.showWarningMessage(result.problem);
    return result.ok ? result.attachment : null;
  };
  const choices = [
    { label: `$(warning) ${vscode.l10n.t("Problems")}`, description: vscode.l10n.t("Diagnostics of the workspace"), attach: gathered({ source: "problems" }) },
    { label: `$(warning) ${vscode.l10n.t("Problems in the current file")}`, attach: gathered({ source: "problemsInFile" }) },
    { label: `$(terminal) ${vscode.l10n.t("Terminal")}`, description: vscode.l10n.t("The last command and its output"), attach: gathered({ source: "terminal" }) },
    { label: `$(git-compare) ${vscode.l10n.t("Changes")}`, description: vscode.l10n.t("git diff of the working tree"), attach: gathered({ source: "changes" }) },
    { label: `$(symbol-class) ${vscode.l10n.t("Symbol...")}`, attach: () => pickSymbol(context) },
  ];
  if (files !== null) choices.push({ label: `$(folder) ${vscode.l10n.t("Folder...")}`, attach: () => pickFolder(files) });
  return choices;
}

async function pickFolder(files: WorkspaceFiles): Promise<NewAttachment | null> {
  const folders = await files.allFolders();
  const picked = await vscode.window.showQuickPick(folders.map((folder) => ({ label: `$(folder) ${folder}`, folder })), { placeHolder: vscode.l10n.t("Attach a folder's file list") });
  if (picked === undefined) return null;
  const result = await files.folderAttachment(picked.folder);
  if (!result.ok) void vscode.window.showWarningMessage(result.problem);
  return result.ok ? result.attachment : null;
}

async function pickSymbol(context: WorkspaceContextSource): Promise<NewAttachment | null> {
  const query = await vscode.window.showInputBox({ prompt: vscode.l10n.t("Name of the symbol (class, function...) to attach") });
  if (!query?.trim()) return null;
  const matches = await context.symbols(query.trim());
  if (matches.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No symbol matching "{0}" was found. Symbols come from the language extensions of the open files.', query.trim()));
    return null;
  }
  const picked = await vscode.window.showQuickPick(
    matches.map((match) => ({ label: `$(symbol-misc) ${match.name ?? ""}`, description: `${match.detail ?? ""} · ${match.path}`, match })),
    { placeHolder: vscode.l10n.t("Attach a symbol's definition") },
  );
  if (picked === undefined) return null;
  const result = await context.attachment({ source: "symbol", name: picked.match.name ?? "", path: picked.match.path });
  if (!result.ok) void vscode.window.showWarningMessage(result.problem);
  return result.ok ? result.attachment : null;
}

const editorServices: Omit<EditorServices, "pickAttachment" | "openCode" | "applyCode" | "runFix"> = {
  async copyToClipboard(text) {
    await vscode.env.clipboard.writeText(text);
  },
  async confirmAndOpenLink(url) {
    const uri = vscode.Uri.parse(url, true);
    const open = vscode.l10n.t("Open");
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Open this link from the model's answer?"), { modal: true, detail: uri.toString(true) }, open);
    if (choice === open) await vscode.env.openExternal(uri);
  },
  async openFile(absolutePath, line) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(absolutePath));
    const position = line === null ? undefined : new vscode.Position(Math.min(line, document.lineCount) - 1, 0);
    await vscode.window.showTextDocument(document, {
      preview: true,
      ...(position === undefined ? {} : { selection: new vscode.Range(position, position) }),
    });
  },
  async insertCode(code) {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) return false;
    return editor.edit((builder) => builder.replace(editor.selection, code));
  },
  activeSelection: () => selectionOf(vscode.window.activeTextEditor),
  activeFile: () => activeFileOf(vscode.window.activeTextEditor),
  showInformation(message) {
    void vscode.window.showInformationMessage(message);
  },
};

function selectionOf(editor: vscode.TextEditor | undefined): NewAttachment | null {
  if (!editor || editor.selection.isEmpty) return null;
  const selection = editor.selection;
  return {
    kind: "selection",
    label: `${vscode.workspace.asRelativePath(editor.document.uri)}:${selection.start.line + 1}-${selection.end.line + 1}`,
    text: editor.document.getText(selection),
    language: editor.document.languageId,
  };
}

function activeFileOf(editor: vscode.TextEditor | undefined): NewAttachment | null {
  if (!editor) return null;
  const document = editor.document;
  // No more than an attachment keeps, and one character more so the cut is still noticed: the panel asks
  // for this on its updates, and a large log open in the editor is not copied whole each time.
  const end = document.positionAt(MAX_ATTACHMENT_CHARS + 1);
  return { kind: "file", label: vscode.workspace.asRelativePath(document.uri), text: document.getText(new vscode.Range(new vscode.Position(0, 0), end)), language: document.languageId };
}

export const vscodeConversationUi: ConversationUi = {
  async askForTitle(current) {
    return vscode.window.showInputBox({ prompt: vscode.l10n.t("New name for the conversation"), value: current });
  },
  async confirmDelete(title) {
    const remove = vscode.l10n.t("Delete");
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Delete "{0}"? This cannot be undone.', title), { modal: true }, remove);
    return choice === remove;
  },
  async chooseExportFile(suggestedName) {
    // The workspace folder, named after the conversation; the file system root is no default.
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === "file")?.uri;
    const defaultUri = folder ? vscode.Uri.joinPath(folder, `${suggestedName}.md`) : undefined;
    const target = await vscode.window.showSaveDialog({ filters: { Markdown: ["md"], JSON: ["json"] }, defaultUri, saveLabel: vscode.l10n.t("Export") });
    return target?.fsPath;
  },
  async writeFile(path, text) {
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path), Buffer.from(text, "utf8"));
  },
  async writeBinaryFile(path, bytes) {
    // Creates the folder too (the images' folder beside an exported Markdown file).
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path), bytes);
  },
  showInformation(message) {
    void vscode.window.showInformationMessage(message);
  },
  showWarning(message) {
    void vscode.window.showWarningMessage(message);
  },
  showExported(message, path) {
    void showExportedFile(message, vscode.Uri.file(path));
  },
};

/** "Exported to …" with an Open button that opens the file in the editor. */
export async function showExportedFile(message: string, file: vscode.Uri): Promise<void> {
  const open = vscode.l10n.t("Open");
  if ((await vscode.window.showInformationMessage(message, open)) === open) await vscode.commands.executeCommand("vscode.open", file);
}

/** What the panel remembers per workspace: the model picked for each relay, and the conversation on screen. */
export function workspaceMemories(state: vscode.Memento, defaultRelayName: () => string | null): { modelMemory: ModelMemory; conversationOnScreen: ConversationOnScreenMemory } {
  return { modelMemory: workspaceModelMemory(state, defaultRelayName), conversationOnScreen: workspaceConversationMemory(state) };
}

const CONVERSATION_ON_SCREEN_KEY = "relayChat.conversationOnScreen";

/** The conversation on screen, per workspace: Reload Window comes back to it. */
function workspaceConversationMemory(state: vscode.Memento): ConversationOnScreenMemory {
  return {
    get: () => state.get<string>(CONVERSATION_ON_SCREEN_KEY) || undefined,
    set: async (conversationId) => {
      if (state.get<string>(CONVERSATION_ON_SCREEN_KEY) !== conversationId) await state.update(CONVERSATION_ON_SCREEN_KEY, conversationId);
    },
  };
}

/** Earlier versions kept one model for the one relay. */
const MODEL_KEY = "relayChat.model";
const MODEL_BY_RELAY_KEY = "relayChat.modelByRelay";

/**
 * The model picked in the panel for each relay, per workspace. The one model earlier versions kept is used for
 * the default relay (the one of `relayChat.baseUrl`, which earlier versions had alone) until a model is picked for it.
 */
function workspaceModelMemory(state: vscode.Memento, defaultRelayName: () => string | null): ModelMemory {
  const byRelay = () => state.get<Record<string, string>>(MODEL_BY_RELAY_KEY) ?? {};
  return {
    get: (relay) => {
      const remembered = byRelay();
      if (Object.prototype.hasOwnProperty.call(remembered, relay)) return remembered[relay] || undefined;
      return relay === defaultRelayName() ? state.get<string>(MODEL_KEY) || undefined : undefined;
    },
    set: async (relay, model) => {
      await state.update(MODEL_BY_RELAY_KEY, { ...byRelay(), [relay]: model ?? "" });
    },
  };
}
