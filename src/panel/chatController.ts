import * as vscode from "vscode";
import { ChatSession } from "../chat/chatSession";
import { chatSettingsWithDefaults } from "../chat/chatSettings";
import type { ChatSettings } from "../chat/chatSettings";
import type { Conversation } from "../chat/conversation";
import { findTurn, siblingsOf } from "../chat/conversation";
import { conversationToJson } from "../chat/exportJson";
import { conversationToMarkdown } from "../chat/exportMarkdown";
import type { ConversationSummary } from "../chat/conversationSummary";
import type { HistoryStore } from "../chat/historyStore";
import { requestInputFor } from "../chat/historyItems";
import type { LedgerTotals, RequestLedger } from "../chat/requestLedger";
import type { SendEstimate } from "../chat/spendGuard";
import type { ChatTools } from "../chat/toolRound";
import type { OutputLog } from "../host/outputLog";
import type { RelayConnection } from "../host/relayConnection";
import { outputTextOf } from "../relay/accumulate";
import { endpointUrl } from "../relay/baseUrl";
import { redactSecrets } from "../relay/redact";
import { buildResponseRequest } from "../relay/requestBuilder";
import type { ResponseSnapshot } from "../relay/types";
import type { ApprovalAnswer } from "../tools/approvalPolicy";
import type { ApprovalRequest } from "../tools/approvalGate";
import type { ChatViewProvider } from "./chatViewProvider";
import type { CodeBlockActions } from "./codeBlockActions";
import { curlCommandFor } from "./curlCommand";
import type { ApprovalView, AttachmentView, PanelState, ToHost, TurnView } from "./protocol";
import { turnViewsOf } from "./turnView";
import { WEBVIEW_STRINGS } from "./webviewStrings";

interface Attachment extends AttachmentView {
  text: string;
  language: string;
}

interface PendingApproval {
  view: ApprovalView;
  resolve: (answer: ApprovalAnswer) => void;
}

const MAX_ATTACHMENT_CHARS = 100_000;

export interface ChatControllerOptions {
  connection: RelayConnection;
  store: HistoryStore;
  ledger: RequestLedger;
  log: OutputLog;
  /** Tools for the model; approval is asked through the panel. */
  tools: (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>) => ChatTools;
  /** Why the model gets fewer tools here (an untrusted workspace); shown when there is no other notice. */
  toolsNotice?: () => string | null;
  /** The model chosen in the panel is remembered per workspace. */
  workspaceState: vscode.Memento;
  /** Insert, open and apply code from an answer's code blocks. */
  codeBlocks: CodeBlockActions;
}

/**
 * Owns what the panel shows and carries out what the user asks for: sends through ChatSession,
 * asks for tool approval and expensive sends, switches conversations, copies and exports.
 */
export class ChatController {
  private view: ChatViewProvider | null = null;
  private session: ChatSession | null = null;
  private conversations: ConversationSummary[] = [];
  private models: string[] = [];
  private modelsNote: string | null = null;
  private readonly approvals = new Map<string, PendingApproval>();
  private spendWarning: { estimate: SendEstimate; resolve: (confirmed: boolean) => void } | null = null;
  private attachments: Attachment[] = [];
  private notice: string | null = null;
  private totals: LedgerTotals | null = null;
  private streamingTurnId: string | null = null;
  /** The answer text the webview has for the streaming turn, so only new text is posted. */
  private streamedText = "";
  private strings: Record<string, string> | null = null;
  /** The tools of the current session, so "Copy as curl" lists exactly what was offered. */
  private sessionTools: ChatTools | null = null;

  constructor(private readonly options: ChatControllerOptions) {}

  attach(view: ChatViewProvider): void {
    this.view = view;
  }

  private get connection(): RelayConnection {
    return this.options.connection;
  }

  model(): string {
    return this.options.workspaceState.get<string>("relayChat.model") || this.connection.settings.model || this.models[0] || "";
  }

  async initialize(): Promise<void> {
    await this.reloadConversations();
    void this.refreshModels();
  }

  state(): PanelState {
    const conversation = this.session?.conversation ?? null;
    const settings = this.connection.settings;
    const localize = (english: string, ...args: Array<string | number>) => vscode.l10n.t(english, ...args);
    return {
      setup: { hasBaseUrl: Boolean(settings.baseUrl), hasApiKey: this.connection.hasKey, baseUrl: settings.baseUrl || null },
      model: this.model() || null,
      models: this.models,
      modelsNote: this.modelsNote,
      conversations: this.conversations.map((entry) => ({ id: entry.id, title: entry.title || vscode.l10n.t("New chat"), updatedAt: entry.updatedAt, turnCount: entry.turnCount })),
      conversationId: conversation && conversation.turns.length > 0 ? conversation.id : null,
      turns: conversation ? this.withLiveText(turnViewsOf(conversation, { streamingTurnId: this.streamingTurnId, busy: this.busy, localize })) : [],
      busy: this.busy,
      approvals: [...this.approvals.values()].map((pending) => pending.view),
      attachments: this.attachments.map(({ id, label, kind }) => ({ id, label, kind })),
      spendWarning: this.spendWarning
        ? {
            estimatedInputTokens: this.spendWarning.estimate.inputTokens,
            thresholdTokens: this.spendWarning.estimate.thresholdTokens,
            text: vscode.l10n.t(
              "This request resends the whole conversation: about {0} input tokens (an estimate), above your warning threshold of {1}. The relay bills input tokens.",
              this.spendWarning.estimate.inputTokens,
              this.spendWarning.estimate.thresholdTokens,
            ),
          }
        : null,
      // Token sums are only shown when every request's usage is known; unknown usage is never summed as 0.
      totals: this.totals && this.totals.requestsWithoutUsage === 0 ? { requests: this.totals.requests, inputTokens: this.totals.inputTokens, outputTokens: this.totals.outputTokens } : null,
      // Missing base URL or key is explained by the first-run card; other setup problems (an invalid
      // URL) are shown as a notice.
      notice: this.notice ?? (settings.baseUrl && this.connection.hasKey ? this.connection.missing() : null) ?? this.options.toolsNotice?.() ?? null,
      strings: (this.strings ??= Object.fromEntries(WEBVIEW_STRINGS.map((english) => [english, vscode.l10n.t(english)]))),
    };
  }

  /** The streaming turn shows what has arrived so far; deltas after this state continue from it. */
  private withLiveText(turns: TurnView[]): TurnView[] {
    if (this.streamingTurnId === null) return turns;
    return turns.map((turn) => (turn.id === this.streamingTurnId ? { ...turn, answerText: this.streamedText, streaming: true } : turn));
  }

  get busy(): boolean {
    return this.session?.busy === true;
  }

  handle(message: ToHost): void {
    void this.dispatch(message).catch((error: unknown) => {
      this.options.log.error(`Handling "${message.type}" failed: ${(error as Error).stack ?? String(error)}`);
      this.setNotice(vscode.l10n.t("Something went wrong: {0}", (error as Error).message));
    });
  }

  private async dispatch(message: ToHost): Promise<void> {
    switch (message.type) {
      case "ready":
        return this.initialize();
      case "send":
        return this.send(message.text);
      case "stop":
        return this.stop();
      case "newChat":
        return this.newChat();
      case "selectModel":
        return this.setModel(message.model);
      case "refreshModels":
        return this.refreshModels();
      case "approval":
        return this.answerApproval(message.callId, message.answer);
      case "retry":
        return this.retry(message.turnId);
      case "continue":
        return this.runTurn((session) => session.continueTurn(message.turnId));
      case "regenerate":
        return this.runTurn((session) => session.regenerate(message.turnId));
      case "editAndResend":
        return this.runTurn((session) => session.editAndResend(message.turnId, message.text));
      case "showBranch":
        return this.showBranch(message.turnId, message.direction);
      case "copyText":
        await vscode.env.clipboard.writeText(message.text);
        return;
      case "copyCurl":
        return this.copyCurl(message.turnId);
      case "openLink":
        return this.openLink(message.href);
      case "insertCode":
        return this.options.codeBlocks.insertAtCursor(message.code);
      case "openCode":
        return this.options.codeBlocks.openInEditor(message.code, message.language);
      case "applyCode":
        return this.options.codeBlocks.applyToFile(message.code, message.file);
      case "switchConversation":
        return this.openConversation(message.conversationId);
      case "renameConversation":
        return this.renameConversation(message.conversationId);
      case "deleteConversation":
        return this.deleteConversation(message.conversationId);
      case "exportConversation":
        return this.exportConversation(message.conversationId);
      case "attachSelection":
        return this.attachSelection();
      case "attachFile":
        return this.attachActiveFile();
      case "removeAttachment":
        this.attachments = this.attachments.filter((attachment) => attachment.id !== message.id);
        return this.changed();
      case "confirmSend":
        this.spendWarning?.resolve(message.confirmed);
        this.spendWarning = null;
        return this.changed();
      case "fix":
        return this.fix(message.action);
      case "log":
        if (message.level === "error") this.options.log.error(`webview: ${message.message}`);
        else this.options.log.info(`webview: ${message.message}`);
        return;
    }
  }

  async send(text: string): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed && this.attachments.length === 0) return;
    const message = this.withAttachments(trimmed);
    this.attachments = [];
    await this.runTurn((session) => session.send(message));
  }

  stop(): void {
    this.session?.cancel();
    // Waiting approvals and spend prompts end with "no" so nothing runs after Stop.
    for (const pending of this.approvals.values()) pending.resolve("deny");
    this.approvals.clear();
    this.spendWarning?.resolve(false);
    this.spendWarning = null;
    this.changed();
  }

  async newChat(): Promise<void> {
    if (this.busy) this.stop();
    this.session = null;
    this.totals = null;
    this.notice = null;
    this.changed();
    this.view?.post({ type: "focusInput" });
  }

  async setModel(model: string): Promise<void> {
    await this.options.workspaceState.update("relayChat.model", model);
    if (this.session) this.session.settings = this.chatSettings();
    this.changed();
  }

  async refreshModels(): Promise<void> {
    const client = this.connection.current();
    if (!client) {
      this.models = [];
      this.modelsNote = null;
      return this.changed();
    }
    const result = await client.listModels();
    if (result.ok) {
      this.models = result.models.map((model) => model.id).sort();
      this.modelsNote = vscode.l10n.t("A listed model may still lack a feature (tools, streaming).");
    } else {
      this.modelsNote = vscode.l10n.t("The model list could not be loaded: {0}", result.explanation);
      this.options.log.error(`GET /v1/models failed (request ${result.requestId ?? "-"}): ${result.explanation}`);
    }
    this.changed();
  }

  async attachSelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) {
      this.setNotice(vscode.l10n.t("Select some text in an editor first."));
      return;
    }
    const selection = editor.selection;
    const path = vscode.workspace.asRelativePath(editor.document.uri);
    this.addAttachment({
      kind: "selection",
      label: `${path}:${selection.start.line + 1}-${selection.end.line + 1}`,
      text: editor.document.getText(selection),
      language: editor.document.languageId,
    });
  }

  async attachActiveFile(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      this.setNotice(vscode.l10n.t("Open a file in an editor first."));
      return;
    }
    this.addAttachment({ kind: "file", label: vscode.workspace.asRelativePath(editor.document.uri), text: editor.document.getText(), language: editor.document.languageId });
  }

  async exportConversation(conversationId?: string): Promise<void> {
    const id = conversationId ?? this.session?.conversation.id;
    const opened = id ? await this.options.store.open(id) : null;
    if (!opened || !opened.ok) {
      void vscode.window.showWarningMessage(opened && !opened.ok ? opened.problem : vscode.l10n.t("There is no saved conversation to export yet."));
      return;
    }
    const target = await vscode.window.showSaveDialog({
      filters: { Markdown: ["md"], JSON: ["json"] },
      defaultUri: vscode.Uri.file(`${safeFileName(opened.conversation.title || "conversation")}.md`),
    });
    if (!target) return;
    const text = target.path.endsWith(".json") ? conversationToJson(opened.conversation) : conversationToMarkdown(opened.conversation);
    await vscode.workspace.fs.writeFile(target, Buffer.from(this.redact(text), "utf8"));
    void vscode.window.showInformationMessage(vscode.l10n.t("Exported to {0}.", target.fsPath));
  }

  onConnectionChanged(): void {
    if (this.session) this.session.settings = this.chatSettings();
    void this.refreshModels();
    this.changed();
  }

  private async runTurn(start: (session: ChatSession) => Promise<unknown>): Promise<void> {
    const client = this.connection.current();
    if (!client) {
      this.setNotice(this.connection.missing());
      return;
    }
    if (!this.model()) {
      this.setNotice(vscode.l10n.t("Pick a model first (the model list comes from the relay)."));
      return;
    }
    const session = this.sessionFor(client);
    if (session.busy) return;
    session.settings = this.chatSettings();
    this.notice = null;
    const running = start(session);
    this.changed();
    try {
      await running;
    } finally {
      this.streamingTurnId = null;
      // The session records each request in the ledger after telling us it ended, so totals are read
      // once the turn is over.
      this.totals = await this.options.ledger.totalsFor(session.conversation.id);
      await this.reloadConversations();
      this.changed();
    }
  }

  private async retry(turnId: string): Promise<void> {
    const session = this.session;
    const turn = session ? findTurn(session.conversation, turnId) : undefined;
    if (!session || !turn) return;
    if (turn.outcome.kind === "incomplete") {
      await this.runTurn((active) => active.retryWithLargerBudget(turnId));
    } else {
      await this.runTurn((active) => active.regenerate(turnId));
    }
  }

  private sessionFor(client: NonNullable<ReturnType<RelayConnection["current"]>>): ChatSession {
    if (this.session) return this.session;
    this.session = this.createSession(client, undefined);
    return this.session;
  }

  private createSession(client: NonNullable<ReturnType<RelayConnection["current"]>>, conversation: Conversation | undefined): ChatSession {
    // The client is looked up per request so a new key or base URL applies to the next send.
    const connection = this.connection;
    this.sessionTools = this.options.tools((request) => this.askApproval(request));
    return new ChatSession({
      client: { send: (request, options) => (connection.current() ?? client).send(request, options) },
      store: this.options.store,
      ledger: this.options.ledger,
      settings: this.chatSettings(),
      tools: this.sessionTools,
      confirmExpensiveSend: (estimate) => this.confirmExpensiveSend(estimate),
      conversation,
      redact: (text) => this.redact(text),
      listener: {
        onSnapshot: (turnId, snapshot) => this.onSnapshot(turnId, snapshot),
        onToolCall: () => this.changed(),
        onRequestEnd: (_turnId, record) => {
          const level = record.outcome.kind === "completed" ? "info" : "error";
          this.options.log[level](
            `request ${record.requestId ?? "(no request id)"} · model ${record.model} · ${record.purpose} · outcome ${record.outcome.kind} · http ${record.httpStatus ?? "-"} · first byte ${record.firstByteMs ?? "-"} ms · total ${record.totalMs ?? "-"} ms${record.explanation ? ` · ${record.explanation}` : ""}`,
          );
          // The next request of the turn starts from a fresh state post, so the webview's text and
          // `streamedText` agree again before any delta is sent.
          this.streamingTurnId = null;
          this.streamedText = "";
          this.changed();
        },
        onTurnEnd: (turn) => this.announceTurnEnd(turn.outcome.kind),
        onStorageProblem: (message) => {
          this.options.log.error(message);
          this.setNotice(message);
        },
      },
    });
  }

  private onSnapshot(turnId: string, snapshot: ResponseSnapshot): void {
    const conversation = this.session?.conversation;
    const turn = conversation ? findTurn(conversation, turnId) : undefined;
    if (!turn) return;
    // The text the panel shows: answers of earlier requests of this turn, then the one streaming now.
    const texts = turn.requests.filter((request) => request.outcome.kind !== "in_progress").map((request) => outputTextOf(request.output)).filter((text) => text.length > 0);
    const current = outputTextOf(snapshot.output);
    if (current) texts.push(current);
    const fullText = texts.join("\n\n");
    if (this.streamingTurnId !== turnId || !fullText.startsWith(this.streamedText)) {
      this.streamingTurnId = turnId;
      this.streamedText = fullText;
      this.changed();
      return;
    }
    this.view?.appendAnswer(turnId, fullText.slice(this.streamedText.length));
    this.streamedText = fullText;
  }

  private announceTurnEnd(kind: string): void {
    this.streamingTurnId = null;
    this.streamedText = "";
    this.options.log.info(`turn ended: ${kind}`);
    this.changed();
  }

  private askApproval(request: ApprovalRequest): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      // The webview knows read, write and execute; until it shows "external" itself (its risk badge and
      // explanation), another extension's tool is shown with the warning style of "execute".
      const risk = request.risk === "external" ? "execute" : request.risk;
      this.approvals.set(request.callId, { view: { ...request, risk }, resolve });
      this.changed();
      if (this.view && !this.view.visible) void this.view.reveal();
    });
  }

  private answerApproval(callId: string, answer: ApprovalAnswer): void {
    const pending = this.approvals.get(callId);
    if (!pending) return;
    this.approvals.delete(callId);
    pending.resolve(answer);
    this.changed();
  }

  private confirmExpensiveSend(estimate: SendEstimate): Promise<boolean> {
    return new Promise((resolve) => {
      this.spendWarning = { estimate, resolve };
      this.changed();
    });
  }

  private async showBranch(turnId: string, direction: -1 | 1): Promise<void> {
    const session = this.session;
    if (!session || session.busy) return;
    if (!findTurn(session.conversation, turnId)) return;
    const siblings = siblingsOf(session.conversation, turnId);
    const index = siblings.findIndex((candidate) => candidate.id === turnId);
    const target = siblings[index + direction];
    if (target) await session.showBranch(target.id);
    this.changed();
  }

  private async copyCurl(turnId: string): Promise<void> {
    const session = this.session;
    const client = this.connection.current();
    const turn = session ? findTurn(session.conversation, turnId) : undefined;
    if (!session || !turn || !client) return;
    const first = turn.requests[0];
    // The first request of the turn, as it was built; follow-ups after tool calls add their outputs.
    const request = buildResponseRequest({
      model: first?.model ?? this.model(),
      input: requestInputFor(session.conversation, turn),
      tools: this.sessionTools?.registry.requestTools(this.sessionTools.availability),
      maxOutputTokens: first?.maxOutputTokens ?? null,
      stream: first?.streamed ?? true,
    });
    await vscode.env.clipboard.writeText(curlCommandFor(endpointUrl(client.root, "responses"), request));
    void vscode.window.showInformationMessage(vscode.l10n.t("Copied a curl command for this request. It reads the key from $RELAY_CHAT_API_KEY; running it sends a new, possibly billed request."));
  }

  private async openLink(href: string): Promise<void> {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (uri.scheme !== "http" && uri.scheme !== "https") {
      this.setNotice(vscode.l10n.t("Only http and https links open from the chat."));
      return;
    }
    const open = vscode.l10n.t("Open");
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Open this link from the model's answer?"), { modal: true, detail: uri.toString(true) }, open);
    if (choice === open) await vscode.env.openExternal(uri);
  }

  private async openConversation(conversationId: string): Promise<void> {
    if (this.session?.conversation.id === conversationId) return;
    if (this.busy) this.stop();
    const opened = await this.options.store.open(conversationId);
    if (!opened.ok) {
      this.setNotice(opened.problem);
      await this.reloadConversations();
      return;
    }
    const client = this.connection.current();
    this.session = client ? this.createSession(client, opened.conversation) : null;
    if (!this.session) {
      this.setNotice(this.connection.missing());
      return;
    }
    this.notice = opened.notice;
    this.totals = await this.options.ledger.totalsFor(conversationId);
    this.changed();
  }

  private async renameConversation(conversationId: string): Promise<void> {
    const current = this.conversations.find((entry) => entry.id === conversationId);
    const title = await vscode.window.showInputBox({ prompt: vscode.l10n.t("New name for the conversation"), value: current?.title ?? "" });
    if (!title) return;
    const renamed = await this.options.store.rename(conversationId, title);
    if (renamed.ok && this.session?.conversation.id === conversationId) this.session.conversation.title = renamed.conversation.title;
    await this.reloadConversations();
    this.changed();
  }

  private async deleteConversation(conversationId: string): Promise<void> {
    const remove = vscode.l10n.t("Delete");
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t("Delete this conversation? This cannot be undone."), { modal: true }, remove);
    if (choice !== remove) return;
    if (this.session?.conversation.id === conversationId) {
      if (this.busy) this.stop();
      this.session = null;
      this.totals = null;
    }
    await this.options.store.delete(conversationId);
    await this.reloadConversations();
    this.changed();
  }

  private async fix(action: string): Promise<void> {
    const commands: Record<string, string> = {
      setApiKey: "relayChat.setApiKey",
      openSettings: "relayChat.openSettings",
      selectModel: "relayChat.selectModel",
      checkConnection: "relayChat.checkConnection",
    };
    await vscode.commands.executeCommand(commands[action]);
  }

  private addAttachment(attachment: Omit<Attachment, "id">): void {
    const text = attachment.text.length > MAX_ATTACHMENT_CHARS ? `${attachment.text.slice(0, MAX_ATTACHMENT_CHARS)}\n[... cut at ${MAX_ATTACHMENT_CHARS} characters]` : attachment.text;
    this.attachments.push({ ...attachment, text, id: `att_${Date.now().toString(36)}_${this.attachments.length}` });
    this.changed();
    this.view?.post({ type: "focusInput" });
  }

  /** Attached context goes into the user message itself, as fenced blocks after the question. */
  private withAttachments(text: string): string {
    if (this.attachments.length === 0) return text;
    const blocks = this.attachments.map((attachment) => {
      const fence = attachment.text.includes("```") ? "````" : "```";
      return `${attachment.kind === "selection" ? "Selection from" : "File"} ${attachment.label}:\n${fence}${attachment.language}\n${attachment.text}\n${fence}`;
    });
    return [text, ...blocks].filter(Boolean).join("\n\n");
  }

  private chatSettings(): ChatSettings {
    const settings = this.connection.settings;
    return chatSettingsWithDefaults({
      model: this.model(),
      stream: settings.stream,
      maxOutputTokens: settings.maxOutputTokens,
      toolRoundCap: settings.toolRoundCap,
      expensiveSendThresholdTokens: settings.historyWarningTokens,
    });
  }

  private async reloadConversations(): Promise<void> {
    const listing = await this.options.store.list();
    this.conversations = listing.conversations;
    if (listing.problems.length > 0) {
      for (const problem of listing.problems) this.options.log.error(problem);
      this.setNotice(listing.problems.join(" "));
    }
  }

  private redact(text: string): string {
    return redactSecrets(text, [this.connection.secret]);
  }

  private setNotice(notice: string | null): void {
    this.notice = notice;
    this.changed();
  }

  private changed(): void {
    this.view?.postState();
  }
}

function safeFileName(title: string): string {
  return title.replace(/[^\p{L}\p{N} _.-]+/gu, "_").slice(0, 60).trim() || "conversation";
}
