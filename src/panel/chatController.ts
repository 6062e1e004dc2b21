import * as l10n from "@vscode/l10n";
import { DEFAULT_COMPACTION_SETTINGS } from "../chat/compaction";
import { findTurn } from "../chat/conversation";
import { redactSecrets } from "../relay/redact";
import { ConversationCommands } from "./conversations/conversationCommands";
import type { ChatControllerOptions } from "./chatControllerOptions";
import { ConversationSwitcher } from "./conversations/conversationSwitcher";
import { EditorActions } from "./editor/editorActions";
import { contextMeterFor } from "./context/contextMeter";
import { ModelChoice } from "./relays/modelChoice";
import { PanelPresenter } from "./panelPresenter";
import type { PanelInputs } from "./panelPresenter";
import { relayKeys } from "./panelServices";
import type { PanelView } from "./panelServices";
import { PanelSync } from "./panelSync";
import type { PanelSource } from "./panelSync";
import { PromptBroker } from "./turns/promptBroker";
import type { ApprovalView, ImageLimitsView, PanelFields, PanelState, ReceiptView, ToHost, TurnView } from "./protocol";
import { DEFAULT_IMAGE_LIMITS } from "./protocol";
import { dispatchPanelMessage } from "./panelMessages";
import { SessionRunner } from "./turns/sessionRunner";
import { SlashCommandRunner, toolsLimitedBy } from "./turns/slashCommandRunner";
import { NextRequestSource } from "./context/nextRequest";
import { contextWindowOf, sessionSettings } from "./relays/sessionSettings";
import { TurnFileActions } from "./turns/turnFileActions";
import { TurnStarter } from "./turns/turnStarter";

// Carries out what the user asks for in the panel. The parts with their own reason to change live
// beside it: the presenter (what is shown), PanelSync (what is posted when), the session runner (the
// ChatSession on screen and its stream), the prompt broker (approvals, spend confirmations), the model
// choice and the conversation commands. No vscode here: the editor is reached through panelServices.ts.
// Sending lives in TurnStarter, which conversation is on screen in ConversationSwitcher, and what a session
// is given in sessionSettings.ts; this class ties the parts together and answers PanelSource.
// This file is longer than 300 lines because it builds those parts and hands each message to one of them.

export class ChatController implements PanelSource {
  private view: PanelView | null = null;
  private notice: string | null = null;
  /** The page has sent `ready` since it was (re)loaded: messages to it are heard. */
  private pageReady = false;
  /** History was asked for before the page could show it. */
  private historyWanted = false;
  private readonly presenter = new PanelPresenter();
  private readonly sync: PanelSync;
  /** Tool approvals and spend confirmations the running turn waits on. */
  readonly prompts: PromptBroker;
  private readonly runner: SessionRunner;
  /** The model and wire of the next request (Model settings… shows the wire in use). */
  readonly modelChoice: ModelChoice;
  private readonly conversationCommands: ConversationCommands;
  /** Which conversation is on screen: opened, renamed, deleted, or changed by another window. */
  readonly conversations: ConversationSwitcher;
  /** Sending, retrying, editing and summarizing on the conversation on screen. */
  readonly turns: TurnStarter;
  /** Review, restore and Apply to file on the files a turn changed. */
  readonly turnFiles: TurnFileActions;
  readonly editorActions: EditorActions;
  /** Messages that start with a slash command, and the command of the message being sent. */
  readonly slash: SlashCommandRunner;
  /**
   * What the next request tells the model: one assembly per panel state for the meter, the Rules chip, the preview
   * and the request; with the rules files switched off for the conversation on screen (the Rules chip).
   */
  readonly nextRequest: NextRequestSource;

  constructor(private readonly options: ChatControllerOptions) {
    this.sync = new PanelSync(this, (message) => this.view?.post(message), options.strings, options.timers, options.locale);
    // An open preview follows the state even before the panel's page listens (no state is made for it then).
    this.sync.unheard = () => options.instructionsPreview?.changed(() => this.nextRequest.current().next);
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
      // While a message with a slash command runs, only the tools its prompt names are offered.
      tools: (askUser) => toolsLimitedBy(options.tools(askUser), () => this.slash.messageCommand?.tools ?? null),
      settings: () => this.nextRequest.current().settings,
      redact: (text) => this.redact(text),
      onStorageProblem: (message) => this.setNotice(message),
      onRequestEnd: () => options.onRequestEnd?.(),
      onShown: (conversationId) => void options.conversationOnScreen?.set(conversationId ?? undefined),
    });
    this.nextRequest = new NextRequestSource({ ...options, settings: () => sessionSettings(this.settingsSources()), runner: this.runner, command: () => this.slash.commandForNext, changed: () => this.sync.changed() });
    this.conversationCommands = new ConversationCommands(options.store, options.conversationUi, (text) => this.redact(text));
    this.editorActions = new EditorActions({
      editor: options.editor,
      relay: options.relay,
      conversation: () => this.runner.conversation,
      images: options.store.images,
      tools: () => this.runner.tools,
      notify: (notice) => this.setNotice(notice),
      attachmentsChanged: () => this.sync.changed(),
      files: options.files ?? null,
      workspaceContext: options.workspaceContext ?? null,
      postFileMatches: (query, files) => this.view?.post({ type: "fileMatches", query, files }),
      fileReferences: options.fileReferences ?? null,
      postFileReferences: (checked, files) => this.view?.post({ type: "fileReferences", checked, files }),
      postAttachmentText: (target, attachment) => this.view?.post({ type: "attachmentText", target, attachment }),
    });
    const changed = () => this.sync.changed();
    const setNotice = (notice: string | null) => this.setNotice(notice);
    const reloadConversations = () => this.reloadConversations();
    this.conversations = new ConversationSwitcher({ store: options.store, runner: this.runner, commands: this.conversationCommands, changed, setNotice, stop: () => this.stop(), reloadConversations, sendWhole: (turnIds) => this.sync.loadTurns(turnIds), remembered: options.conversationOnScreen, log: options.log });
    this.turns = new TurnStarter({
      relay: options.relay,
      runner: this.runner,
      editorActions: this.editorActions,
      model: () => this.model(),
      imageLimits: () => this.imageLimits(),
      runningElsewhere: () => this.conversations.runningElsewhere,
      editReviews: options.editReviews,
      changed,
      setNotice,
      reloadConversations,
      instructionsReady: options.instructionsReady,
      useProtocol: async (relay, model, protocol) => {
        this.modelChoice.confirmProtocol(relay, model, protocol);
        await options.saveModelProtocol?.(relay, model, protocol);
      },
    });
    this.slash = new SlashCommandRunner({
      source: options.slashCommands ?? null,
      turns: this.turns,
      newChat: () => this.newChat(),
      commit: options.commitMessages ?? null,
      setNotice,
      // `/plan TEXT` switches the conversation to Plan (read-only tools, a plan asked for) and sends TEXT there.
      plan:
        options.planCommand ??
        (async (text, images) => {
          await this.turns.plan.setMode("plan");
          if (text.trim() !== "" || images.length > 0) await this.turns.send(text, images);
          return true;
        }),
      busy: () => this.runner.busy,
      turnText: (turnId) => (this.conversation ? (findTurn(this.conversation, turnId)?.userText ?? null) : null),
      showInstructions: () => this.nextRequest.show(),
    });
    // Prompt files read again: the `/` menu follows.
    options.slashCommands?.listen(changed);
    this.turnFiles = new TurnFileActions({ runner: this.runner, editorActions: this.editorActions, turnChanges: options.turnChanges, turnChanged: (turnId) => this.sync.turnChanged(turnId) });
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
      consoleConfigured: consoleConfigured(this.options),
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
    const restoring = this.conversations.restoreRemembered();
    if (restoring !== undefined) await restoring;
    this.pageReady = true;
    this.sync.sendSnapshot();
    if (this.historyWanted) this.showHistory();
    await this.initialize();
  }

  rendered(sinceLoadMs: number): void {
    this.options.onRendered?.(sinceLoadMs);
    this.nextRequest.prepareTools();
  }

  log(level: "info" | "error", message: string): void {
    this.options.log[level](`webview: ${message}`);
  }

  async initialize(): Promise<void> {
    await this.reloadConversations();
    this.sync.changed();
    await this.refreshModels();
    this.nextRequest.prepareTools();
  }

  stop(): void {
    this.runner.cancel();
    // Waiting approvals and spend prompts end with "no" so nothing runs after Stop.
    this.prompts.cancelAll();
    this.sync.changed();
  }

  async newChat(): Promise<void> {
    if (this.busy) this.stop();
    this.conversations.show(null);
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

  /** Something the header or the message box shows changed outside the panel: the balance, the project rules files. */
  fieldsChanged(): void {
    this.sync.changed();
  }

  /** Files went into or out of review in the editor: the panel's "N files to review" follows. */
  reviewChanged(): void {
    this.sync.changed();
    void this.turnFiles.recount().catch((error: unknown) => this.options.log.error(`Counting a turn's changed files again failed: ${String(error)}`));
  }

  onConnectionChanged(): void {
    this.runner.applySettings();
    void this.refreshModels();
    this.sync.changed();
  }

  async showBranch(turnId: string, direction: -1 | 1): Promise<void> {
    await this.runner.showBranch(turnId, direction);
    this.sync.changed();
  }

  private get conversation() {
    return this.runner.conversation;
  }

  private settingsSources() {
    return { relay: this.options.relay, model: this.model(), preferences: this.options.preferences, priceOf: this.options.priceOf, protocolOf: (relay: string, model: string) => this.modelChoice.protocolOf(relay, model) };
  }

  private inputs(): PanelInputs {
    const { settings, hasKey } = this.options.relay;
    const streamingTurnId = this.runner.streamingTurnId;
    const next = this.nextRequest.current().next;
    this.options.instructionsPreview?.changed(() => next);
    return {
      setup: { hasBaseUrl: Boolean(settings.baseUrl), hasApiKey: hasKey, baseUrl: settings.baseUrl || null, baseUrlProblem: settings.baseUrl ? null : (settings.relayProblems?.[0] ?? null) },
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
      context: contextMeterFor(this.conversation, this.editorActions.pendingText(), contextWindowOf(this.settingsSources()), next.tokens),
      rules: next.rules,
      compaction: settings.compaction ?? DEFAULT_COMPACTION_SETTINGS,
      maxOutputTokens: settings.maxOutputTokens,
      filesToReview: this.options.filesToReview?.() ?? 0,
      imageLimits: this.imageLimits(),
      consoleConfigured: consoleConfigured(this.options),
      spendEstimate: this.prompts.spendEstimate,
      balanceNote: this.options.balanceNote,
      streamingTurnId,
      liveText: streamingTurnId === null ? null : this.runner.liveText(streamingTurnId),
      mode: this.turns.plan.mode,
      slashCommands: this.slash.views(),
      chatCompletionsFinding: this.options.chatCompletionsFinding?.() ?? null,
    };
  }

  private imageLimits(): ImageLimitsView {
    return this.options.preferences?.().imageLimits ?? DEFAULT_IMAGE_LIMITS;
  }

  private async reloadConversations(): Promise<void> {
    const problems = await this.conversationCommands.reload();
    for (const problem of problems) this.options.log.error(problem);
    if (problems.length > 0) this.setNotice(problems.join(" "));
  }

  private redact(text: string): string {
    return redactSecrets(text, relayKeys(this.options.relay));
  }

  private setNotice(notice: string | null): void {
    this.notice = notice;
    this.sync.changed();
  }
}

/** Whether the active relay has a web console to open (a fix button offers it). */
const consoleConfigured = (options: ChatControllerOptions): boolean => (options.preferences?.().consoleUrl ?? "") !== "";

