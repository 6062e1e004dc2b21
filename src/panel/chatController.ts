import * as l10n from "@vscode/l10n";
import type { ChatSession } from "../chat/chatSession";
import { chatSettingsWithDefaults } from "../chat/chatSettings";
import { DEFAULT_COMPACTION_SETTINGS } from "../chat/compaction";
import type { ChatSettings } from "../chat/chatSettings";
import { findTurn } from "../chat/conversation";
import type { HistoryChange, HistoryStore } from "../chat/historyStore";
import type { RequestLedger } from "../chat/requestLedger";
import type { ReviewReport } from "../chat/reviewNote";
import { changedFilesOnBranch, reviewNoteText } from "../chat/reviewNote";
import type { ChatTools } from "../chat/toolRound";
import { redactSecrets } from "../relay/redact";
import type { ApprovalAnswer } from "../tools/approvalPolicy";
import type { ApprovalRequest } from "../tools/approvalGate";
import { ConversationCommands } from "./conversationCommands";
import type { ConversationUi } from "./conversationCommands";
import { EditorActions } from "./editorActions";
import { composeMessage, splitMessage } from "./messageAttachments";
import { contextMeterFor } from "./contextMeter";
import { ModelChoice } from "./modelChoice";
import { PanelPresenter } from "./panelPresenter";
import type { PanelInputs } from "./panelPresenter";
import type { EditorServices, ModelMemory, PanelLog, PanelPreferences, PanelView, RelayAccess, TurnChangesActions } from "./panelServices";
import { PanelSync } from "./panelSync";
import type { PanelSource, PanelSyncTimers } from "./panelSync";
import { PromptBroker } from "./promptBroker";
import type { ApprovalView, ImageLimitsView, ImageUpload, PanelFields, PanelState, ReceiptView, ToHost, TurnView } from "./protocol";
import { DEFAULT_IMAGE_LIMITS, MEGABYTE } from "./protocol";
import { dispatchPanelMessage } from "./panelMessages";
import { SessionRunner } from "./sessionRunner";
import type { FileReferenceResolver } from "./fileReferences";
import type { WorkspaceFiles } from "./workspaceFiles";
import type { ModelPrice } from "../relay/modelPrice";

// Carries out what the user asks for in the panel. The parts with their own reason to change live
// beside it: the presenter (what is shown), PanelSync (what is posted when), the session runner (the
// ChatSession on screen and its stream), the prompt broker (approvals, spend confirmations), the model
// choice and the conversation commands. No vscode here: the editor is reached through panelServices.ts.
// This file is longer than 300 lines because it is the one place that ties those parts together: their
// construction, the PanelSource view of the state, and the few-line actions that touch several parts.

/** How often a conversation shown read-only (answered in another window) is looked at again. */
const RUNNING_ELSEWHERE_RECHECK_MS = 5_000;

export interface ChatControllerOptions {
  relay: RelayAccess;
  store: HistoryStore;
  ledger: RequestLedger;
  log: PanelLog;
  /** Tools for the model; approval is asked through the panel. */
  tools: (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>) => ChatTools;
  modelMemory: ModelMemory;
  editor: EditorServices;
  conversationUi: ConversationUi;
  /** The webview's UI strings, localized; sent once with each snapshot. */
  strings: () => Record<string, string>;
  /** VS Code's display language, for dates and plurals in the webview. */
  locale?: () => string;
  preferences?: () => PanelPreferences;
  /** The workspace's files for `#`; none where no folder is open on disk. */
  files?: WorkspaceFiles | null;
  /** Which file names in answers are workspace files (they open in the editor); none where no folder is open on disk. */
  fileReferences?: FileReferenceResolver | null;
  /** Settles once the relay settings and key were read; the first snapshot waits for it. */
  relayReady?: Promise<void>;
  /** The first snapshot is on screen (for the activation timing). */
  onRendered?: (sinceLoadMs: number) => void;
  /** What balance a relay (the active one for null) reports, as a sentence; null when unknown. */
  balanceNote?: (relay: string | null) => string | null;
  /** The price of a model on a relay as known now (never fetched while sending); null: unknown. */
  priceOf?: (relay: string, model: string) => ModelPrice | null;
  /** A request of a turn ended (the relay's balance may have changed). */
  onRequestEnd?: () => void;
  timers?: PanelSyncTimers;
  /** The person picked a model (the walkthrough's step). */
  onModelPicked?: (model: string) => void;
  /** A turn on screen ended with a completed answer (the walkthrough's last step). */
  onTurnCompleted?: () => void;
  /** How many tool calls wait for approval changed (the view's badge). */
  onPendingApprovals?: (count: number) => void;
  /** Why the model gets fewer tools here (an untrusted workspace); shown when there is no other notice. */
  toolsNotice?: () => string | null;
  /** Review and restore of a turn's file changes; absent where checkpoints are not built. */
  turnChanges?: TurnChangesActions;
  /** How many files wait for Keep or Undo in the editor (the panel shows it above the message box). */
  filesToReview?: () => number;
  /** What the person did with the model's changes to files (review, restore), told to the model with the next message. */
  editReviews?: ReviewReport;
}

export class ChatController implements PanelSource {
  private view: PanelView | null = null;
  private notice: string | null = null;
  /** The page has sent `ready` since it was (re)loaded: messages to it are heard. */
  private pageReady = false;
  /** History was asked for before the page could show it. */
  private historyWanted = false;
  /**
   * A turn of the conversation on screen is being answered in another window: it is read-only here (no
   * send, retry or continue) until that answer ends, so nothing written here competes with that stream.
   */
  private runningElsewhere = false;
  private runningElsewhereCheck: NodeJS.Timeout | null = null;
  private readonly presenter = new PanelPresenter();
  private readonly sync: PanelSync;
  /** Tool approvals and spend confirmations the running turn waits on. */
  readonly prompts: PromptBroker;
  private readonly runner: SessionRunner;
  private readonly modelChoice: ModelChoice;
  private readonly conversationCommands: ConversationCommands;
  readonly editorActions: EditorActions;

  constructor(private readonly options: ChatControllerOptions) {
    this.sync = new PanelSync(this, (message) => this.view?.post(message), options.strings, options.timers, options.locale);
    this.prompts = new PromptBroker((what) => {
      this.sync.changed();
      if (what === "approvals") options.onPendingApprovals?.(this.prompts.approvals.length);
      if (what === "approvals" && this.view && !this.view.visible) this.view.reveal();
    });
    this.modelChoice = new ModelChoice(options.modelMemory, options.relay, () => options.relay.settings.model, options.log);
    this.runner = new SessionRunner({
      ...options,
      prompts: this.prompts,
      sync: this.sync,
      settings: () => this.chatSettings(),
      redact: (text) => this.redact(text),
      onStorageProblem: (message) => this.setNotice(message),
      onRequestEnd: (record) => {
        this.conversationCommands.addRequest(record);
        options.onRequestEnd?.();
      },
    });
    this.conversationCommands = new ConversationCommands(options.store, options.ledger, options.conversationUi, (text) => this.redact(text));
    this.editorActions = new EditorActions({
      editor: options.editor,
      relay: options.relay,
      conversation: () => this.runner.conversation,
      images: options.store.images,
      tools: () => this.runner.tools,
      notify: (notice) => this.setNotice(notice),
      attachmentsChanged: () => this.sync.changed(),
      files: options.files ?? null,
      postFileMatches: (query, files) => this.view?.post({ type: "fileMatches", query, files }),
      fileReferences: options.fileReferences ?? null,
      postFileReferences: (checked, files) => this.view?.post({ type: "fileReferences", checked, files }),
    });
  }

  attach(view: PanelView): void {
    this.view = view;
  }

  /** The model for the next request: picked in the panel, else the setting, else the first listed. */
  model(): string {
    return this.modelChoice.current();
  }

  /** The model a request to another relay would use (its remembered model, else its first listed). */
  modelFor(relay: string): Promise<string> {
    return this.modelChoice.modelFor(relay);
  }

  /** The models the relay listed (after `refreshModels`). */
  get listedModels(): string[] {
    return this.modelChoice.models;
  }

  get busy(): boolean {
    return this.runner.busy;
  }

  /** The whole state, as a reloaded webview gets it. */
  state(): PanelState {
    return this.sync.state();
  }

  // PanelSource: asked by PanelSync for the parts it posts.

  fields(): PanelFields {
    return this.presenter.fields(this.inputs());
  }

  turnIds(): readonly string[] {
    return this.presenter.turnIds(this.conversation);
  }

  turn(turnId: string): TurnView | null {
    const streamingTurnId = this.runner.streamingTurnId;
    const inputs = {
      conversation: this.conversation,
      streamingTurnId,
      liveText: streamingTurnId === null ? null : this.runner.liveText(streamingTurnId),
      liveReasoning: streamingTurnId === null ? null : this.runner.liveReasoning(streamingTurnId),
      consoleConfigured: this.consoleConfigured,
      balanceNote: this.options.balanceNote,
    };
    return this.presenter.turn(inputs, turnId, this.runner.answeredCalls(turnId));
  }

  receipt(turnId: string, index: number): ReceiptView | null {
    return this.presenter.receipt(this.conversation, turnId, index);
  }

  approvals(): ApprovalView[] {
    return this.prompts.approvals;
  }

  handle(message: ToHost): void {
    // Messages wait for the relay settings and key to be read (once, at activation), in order.
    const handled = this.options.relayReady ? this.options.relayReady.then(() => dispatchPanelMessage(this, message)) : dispatchPanelMessage(this, message);
    void handled.catch((error: unknown) => {
      this.options.log.error(`Handling "${message.type}" failed: ${(error as Error).stack ?? String(error)}`);
      this.setNotice(l10n.t("Something went wrong: {0}", (error as Error).message));
    });
  }

  /** The webview (re)loaded: it gets the whole state, then the lists are refreshed. */
  async ready(): Promise<void> {
    this.pageReady = true;
    this.sync.sendSnapshot();
    if (this.historyWanted) this.showHistory();
    await this.initialize();
  }

  rendered(sinceLoadMs: number): void {
    this.options.onRendered?.(sinceLoadMs);
  }

  log(level: "info" | "error", message: string): void {
    this.options.log[level](`webview: ${message}`);
  }

  async initialize(): Promise<void> {
    await this.reloadConversations();
    this.sync.changed();
    await this.refreshModels();
  }

  async send(text: string, images: readonly ImageUpload[] = []): Promise<void> {
    const trimmed = text.trim();
    const attachments = this.editorActions.attachments;
    if ((!trimmed && attachments.isEmpty && images.length === 0) || !this.canSend()) return;
    // The webview downscaled and checked them; a larger one here came around that check and is refused whole.
    const maxBytes = this.imageLimits().maxBytes;
    if (images.some((image) => Math.floor((image.data.length * 3) / 4) > maxBytes)) {
      this.setNotice(l10n.t("An image is larger than {0} MB even after downscaling; the message was not sent. Attach a smaller image or raise relayChat.images.maxMegabytes.", maxBytes / MEGABYTE));
      return;
    }
    const message = composeMessage(trimmed, this.editorActions.takeAttachments());
    const conversationId = this.conversation?.id;
    const outcomes = this.conversation && conversationId !== undefined && this.options.editReviews && changedFilesOnBranch(this.conversation) ? this.options.editReviews.outcomes(conversationId) : [];
    const reviewNote = reviewNoteText(outcomes);
    await this.runTurn(async (session) => {
      const result = await session.send(message, { images, reviewNote });
      // Told once the note is part of the history that is resent (a completed turn); after a declined or failed
      // send the next message carries it again.
      if (reviewNote !== null && result.status === "finished" && result.turn.outcome.kind === "completed" && result.turn.reviewNote === reviewNote && conversationId !== undefined) this.options.editReviews?.told(conversationId, outcomes);
    });
  }

  stop(): void {
    this.runner.cancel();
    // Waiting approvals and spend prompts end with "no" so nothing runs after Stop.
    this.prompts.cancelAll();
    this.sync.changed();
  }

  async newChat(): Promise<void> {
    if (this.busy) this.stop();
    this.showConversation(null);
    this.notice = null;
    this.sync.changed();
    this.view?.post({ type: "focusInput" });
  }

  /** `model` for the next request, on `relay` (default: the active relay), which becomes the active one. */
  async setModel(model: string, relay?: string): Promise<void> {
    await this.modelChoice.pick(model, relay);
    this.runner.applySettings();
    this.sync.changed();
    this.options.onModelPicked?.(model);
  }

  async refreshModels(): Promise<void> {
    await this.modelChoice.refresh();
    this.sync.changed();
  }

  /** VS Code is loading the view's page (again): until it says `ready`, it hears nothing. */
  viewLoading(): void {
    this.pageReady = false;
  }

  /** The view's History action; kept until the page can show it (the action may come first). */
  showHistory(): void {
    this.historyWanted = !this.pageReady;
    if (this.pageReady) this.view?.post({ type: "showHistory" });
  }

  /** Review or restore the files a turn's tools changed (the turn's card shows "N files changed"). */
  async turnChanges(turnId: string, action: "review" | "restore"): Promise<void> {
    const checkpoint = this.conversation ? findTurn(this.conversation, turnId)?.checkpoint : undefined;
    if (!checkpoint || !this.options.turnChanges) return;
    if (action === "review") await this.options.turnChanges.review(checkpoint);
    else await this.options.turnChanges.restore(checkpoint, this.conversation?.id ?? null);
  }

  /**
   * Apply to file on a code block of a turn's answer: the change is taken into that turn's checkpoints (one
   * before, unless the turn has one, and one after), so the turn's Review and Restore cover it.
   */
  async applyCode(turnId: string, code: string, fileHint: string): Promise<void> {
    const apply = () => this.editorActions.applyCode(code, fileHint);
    const session = this.runner.session;
    const turn = this.conversation && turnId ? findTurn(this.conversation, turnId) : undefined;
    if (!session || !turn || this.runner.busy) return apply();
    await session.changeFilesForTurn(turnId, apply);
    this.sync.turnChanged(turnId);
  }

  /** Sends an edited message as a new version of the turn, with the context the original carried. */
  editAndResend(turnId: string, text: string): Promise<void> {
    const turn = this.conversation ? findTurn(this.conversation, turnId) : undefined;
    const blocks = turn ? splitMessage(turn.userText).blocks : "";
    const message = [text.trim(), blocks].filter(Boolean).join("\n\n");
    return this.runTurn((session) => session.editAndResend(turnId, message));
  }

  /** relayChat.model changed: the setting wins over a model picked in the panel until another pick. */
  async onModelSettingChanged(): Promise<void> {
    await this.modelChoice.pick("");
    this.runner.applySettings();
    this.sync.changed();
  }

  /** A sent image for its thumbnail, as a data URL (the page's CSP allows `data:` images). */
  async loadImage(name: string): Promise<void> {
    const image = await this.options.store.images.get(name);
    this.view?.post({ type: "image", name, dataUrl: image === null ? null : `data:${image.mediaType};base64,${image.data}` });
  }

  /** Adds the editor's selection (Ask About Selection) to the next message. */
  attachSelection(): void {
    this.editorActions.attachSelection();
  }

  exportConversation(conversationId?: string): Promise<void> {
    return this.conversationCommands.export(conversationId ?? this.conversation?.id ?? null);
  }

  /** The active relay's balance was read again: the title line's tooltip says it. */
  balanceChanged(): void {
    this.sync.changed();
  }

  /** Files went into or out of review in the editor: the panel's "N files to review" follows. */
  reviewChanged(): void {
    this.sync.changed();
  }

  onConnectionChanged(): void {
    this.runner.applySettings();
    void this.refreshModels();
    this.sync.changed();
  }

  private get conversation() {
    return this.runner.conversation;
  }

  private get consoleConfigured(): boolean {
    return (this.options.preferences?.().consoleUrl ?? "") !== "";
  }

  private inputs(): PanelInputs {
    const { settings, hasKey } = this.options.relay;
    const streamingTurnId = this.runner.streamingTurnId;
    return {
      setup: { hasBaseUrl: Boolean(settings.baseUrl), hasApiKey: hasKey, baseUrl: settings.baseUrl || null },
      // Missing base URL or key is explained by the first-run card; other setup problems (an invalid
      // URL) are shown as a notice.
      notice: this.notice ?? (settings.baseUrl && hasKey ? this.options.relay.missing() : null) ?? this.options.toolsNotice?.() ?? null,
      model: this.model(),
      models: this.modelChoice.models,
      modelsNote: this.modelChoice.note,
      relay: this.options.relay.activeRelay,
      relayModels: this.modelChoice.relays,
      conversations: this.conversationCommands.summaries,
      conversation: this.conversation,
      busy: this.busy,
      attachments: this.editorActions.attachments.views(),
      selectionOffer: this.editorActions.selectionOffer,
      activeFileOffer: this.editorActions.activeFileOffer,
      context: this.contextMeter(),
      compaction: this.options.relay.settings.compaction ?? DEFAULT_COMPACTION_SETTINGS,
      maxOutputTokens: this.options.relay.settings.maxOutputTokens,
      filesToReview: this.options.filesToReview?.() ?? 0,
      imageLimits: this.imageLimits(),
      consoleConfigured: this.consoleConfigured,
      spendEstimate: this.prompts.spendEstimate,
      totals: this.conversationCommands.totals,
      balanceNote: this.options.balanceNote,
      streamingTurnId,
      liveText: streamingTurnId === null ? null : this.runner.liveText(streamingTurnId),
    };
  }

  private imageLimits(): ImageLimitsView {
    return this.options.preferences?.().imageLimits ?? DEFAULT_IMAGE_LIMITS;
  }

  private contextMeter() {
    return contextMeterFor(this.conversation, this.editorActions.pendingText(), this.contextWindow());
  }

  /** The model's context window: as the relay lists it (OpenRouter's context_length), else relayChat.contextWindows. */
  private contextWindow(): number | null {
    const model = this.model();
    const relay = this.options.relay.activeRelay;
    const listed = relay === null ? undefined : this.options.priceOf?.(relay, model)?.contextWindow;
    return listed ?? this.options.preferences?.().contextWindows[model] ?? null;
  }

  /** Asks for a summary of the turns before the last few (the person clicked Summarize earlier turns). */
  summarizeEarlierTurns(): Promise<void> {
    return this.runTurn((session) => session.summarizeEarlierTurns());
  }

  private canSend(): boolean {
    if (this.runningElsewhere) {
      this.setNotice(l10n.t("A message of this conversation is still being answered in another window. It is shown read-only until that answer ends."));
      return false;
    }
    if (!this.options.relay.current()) {
      this.setNotice(this.options.relay.missing());
      return false;
    }
    if (!this.model()) {
      this.setNotice(l10n.t("Pick a model first (the model list comes from the relay)."));
      return false;
    }
    return true;
  }

  /** Runs a turn on the session on screen (send, continue, regenerate, edit and resend, retry). */
  async runTurn(start: (session: ChatSession) => Promise<unknown>): Promise<void> {
    if (!this.canSend() || this.busy) return;
    const session = this.runner.sessionForSending();
    this.notice = null;
    const running = start(session);
    // The new turn is in the conversation now (unless a spend confirmation holds it): show it.
    this.sync.changed();
    try {
      await running;
    } finally {
      if (session === this.runner.session) {
        await this.reloadConversations();
        this.sync.changed();
      }
    }
  }

  /** The person chose to send an incomplete turn with later messages (its message and partial answer). */
  async includeIncompleteTurn(turnId: string): Promise<void> {
    await this.runner.session?.includeIncompleteTurn(turnId);
    this.sync.changed();
  }

  async retry(turnId: string): Promise<void> {
    const turn = this.conversation ? findTurn(this.conversation, turnId) : undefined;
    if (!turn) return;
    if (turn.outcome.kind === "incomplete") await this.runTurn((session) => session.retryWithLargerBudget(turnId));
    else await this.runTurn((session) => session.regenerate(turnId));
  }

  async showBranch(turnId: string, direction: -1 | 1): Promise<void> {
    await this.runner.showBranch(turnId, direction);
    this.sync.changed();
  }

  async openConversation(conversationId: string): Promise<void> {
    if (this.conversation?.id === conversationId) return;
    if (this.busy) this.stop();
    const opened = await this.options.store.open(conversationId);
    if (!opened.ok) {
      this.setNotice(opened.problem);
      await this.reloadConversations();
      return this.sync.changed();
    }
    this.showConversation(opened.conversation, opened.runningElsewhere);
    this.notice = opened.notice;
    await this.conversationCommands.loadTotals(conversationId);
    this.sync.changed();
  }

  /**
   * Another window changed the history folder: the list is read again, and the conversation on screen too
   * when it changed and nothing runs here (its new turns appear; a stream that ended there unlocks it).
   */
  async onHistoryChanged(change: HistoryChange): Promise<void> {
    await this.reloadConversations();
    const current = this.conversation;
    if (current && change.conversationIds.has(current.id)) await this.reopen(current.id);
    this.sync.changed();
  }

  private async reopen(conversationId: string): Promise<void> {
    if (this.busy || this.conversation?.id !== conversationId) return;
    const opened = await this.options.store.open(conversationId);
    if (this.busy || this.conversation?.id !== conversationId) return;
    if (!opened.ok) {
      this.showConversation(null);
      this.notice = opened.problem;
      return;
    }
    this.showConversation(opened.conversation, opened.runningElsewhere);
    this.notice = opened.notice;
  }

  async renameConversation(conversationId: string): Promise<void> {
    const title = await this.conversationCommands.rename(conversationId);
    if (title !== null && this.conversation?.id === conversationId) this.conversation.title = title;
    this.sync.changed();
  }

  async deleteConversation(conversationId: string): Promise<void> {
    if (!(await this.conversationCommands.delete(conversationId))) return;
    if (this.conversation?.id === conversationId) {
      if (this.busy) this.stop();
      this.showConversation(null);
    }
    this.sync.changed();
  }

  private showConversation(conversation: Parameters<SessionRunner["replace"]>[0], runningElsewhere = false): void {
    this.runner.replace(conversation);
    this.conversationCommands.clearTotals();
    this.runningElsewhere = runningElsewhere;
    if (this.runningElsewhereCheck) clearTimeout(this.runningElsewhereCheck);
    this.runningElsewhereCheck = null;
    const conversationId = conversation?.id;
    if (!runningElsewhere || conversationId === undefined) return;
    // A window that stops answering without a word (closed, crashed) changes no file: look again now and then.
    this.runningElsewhereCheck = setTimeout(() => {
      this.runningElsewhereCheck = null;
      void this.reopen(conversationId).then(() => this.sync.changed());
    }, RUNNING_ELSEWHERE_RECHECK_MS);
    this.runningElsewhereCheck.unref?.();
  }

  private chatSettings(): ChatSettings {
    const settings = this.options.relay.settings;
    const relay = this.options.relay.activeRelay ?? undefined;
    const model = this.model();
    return chatSettingsWithDefaults({
      model,
      relay,
      priceOf: (priced) => (relay === undefined ? null : (this.options.priceOf?.(relay, priced) ?? null)),
      spendWarningAmount: settings.spendWarningAmount ?? null,
      stream: settings.stream,
      maxOutputTokens: settings.maxOutputTokens,
      toolRoundCap: settings.toolRoundCap,
      expensiveSendThresholdTokens: settings.historyWarningTokens,
      contextWindowTokens: this.contextWindow(),
      compaction: settings.compaction ?? DEFAULT_COMPACTION_SETTINGS,
    });
  }

  private async reloadConversations(): Promise<void> {
    const problems = await this.conversationCommands.reload();
    for (const problem of problems) this.options.log.error(problem);
    if (problems.length > 0) this.setNotice(problems.join(" "));
  }

  private redact(text: string): string {
    return redactSecrets(text, [this.options.relay.secret]);
  }

  private setNotice(notice: string | null): void {
    this.notice = notice;
    this.sync.changed();
  }
}

