import type { AttachmentTarget, AttachmentTextView, FileMatchView, PanelState, ToHost } from "../../src/panel/protocol";
import { Announcer } from "./announcer";
import { AttachmentPeek } from "./attachmentPeek";
import { routeAnswerActions } from "./answerActions";
import { renderApprovalCard } from "./approvalCard";
import { Composer } from "./composer";
import type { DraftState } from "./messageEdit";
import { element } from "./dom";
import { HistoryView } from "./historyView";
import { icon, iconButton } from "./icons";
import { ImageViewer } from "./imageViewer";
import { KeyedChildren } from "./keyedChildren";
import { OfferSlots } from "./offerSlots";
import type { Localizer } from "./localizer";
import type { AppliedPatch } from "./panelStore";
import { ScrollFollower } from "./scrollFollower";
import { ScrollPlaceKeeper } from "./scrollPlace";
import type { ScrollPlace } from "./scrollPlace";
import { SentImages } from "./sentImages";
import { renderSetupNotice } from "./setupNotice";
import { renderSpendWarning } from "./spendWarning";
import { TitleBar } from "./titleBar";
import { TaskListView } from "./taskListView";
import { EAGER_TURNS, RENDERED_AT_OPEN, TurnList } from "./turnList";

export interface PanelViewOptions {
  readonly localizer: Localizer;
  readonly post: (message: ToHost) => void;
  readonly saveDraft: (state: DraftState) => void;
  /** What the message box held when the page was last open (a reloaded window gives it back). */
  readonly initialDraft: DraftState;
  readonly savePlace: (place: ScrollPlace | null) => void;
  /** Where the person was in the conversation when the page was last open; null: at its end. */
  readonly initialPlace: ScrollPlace | null;
}

/**
 * The whole panel, laid out like VS Code's own chat: a title line that never scrolls away, one scrolling
 * list of turns (with "Jump to latest" when the user scrolled up), and the message box at the bottom. The
 * history covers it while open. Built once per set of UI strings; snapshots and patches update it.
 */
export class PanelView {
  readonly root: HTMLElement;
  private readonly localizer: Localizer;
  private readonly post: (message: ToHost) => void;
  private readonly titleBar: TitleBar;
  private readonly setupSlot = element("div", { className: "setup-slot" });
  private readonly notice = element("div", { className: "panel-notice", attributes: { role: "status" } });
  private readonly noticeText = element("span", { className: "panel-notice-text" });
  private readonly scroller = element("main", { className: "scroller" });
  private readonly turnList: TurnList;
  private readonly emptyState: HTMLElement;
  private readonly approvals = element("div", { className: "approvals" });
  private readonly approvalCards: KeyedChildren<PanelState["approvals"][number]>;
  private readonly spendSlot = element("div", { className: "spend-slot" });
  private readonly composer: Composer;
  private readonly taskList: TaskListView;
  private readonly offers: OfferSlots;
  private readonly sentImages: SentImages;
  /** An opened chip's text, in the message box or under a sent message. */
  private readonly peek: AttachmentPeek;
  private readonly viewer: ImageViewer;
  private readonly history: HistoryView;
  private readonly follower: ScrollFollower;
  private readonly place: ScrollPlaceKeeper;
  /** Given back by the first snapshot that shows their conversation, then dropped. */
  private pendingPlace: ScrollPlace | null;
  private pendingEdit: DraftState["edit"];
  private readonly announcer = new Announcer();
  private setupSignature = "";
  private spendSignature = "";
  private dismissedNotice: string | null = null;
  private busy = false;
  private firstTurnId: string | undefined;
  private conversationId: string | null = null;

  constructor(options: PanelViewOptions) {
    this.localizer = options.localizer;
    this.post = options.post;
    const { localizer, post } = options;
    this.history = new HistoryView(localizer, post, () => this.composer.focus());
    this.titleBar = new TitleBar(localizer, () => this.showHistory());
    this.sentImages = new SentImages(post, () => this.root);
    this.peek = new AttachmentPeek(localizer, post);
    this.viewer = new ImageViewer(localizer);
    this.turnList = new TurnList(
      { post, edit: (turnId, text) => this.composer.startEdit(turnId, text), sentImages: (names) => this.sentImages.render(names, localizer), peek: this.peek },
      (text) => this.announcer.announce(text),
      localizer,
      this.scroller,
      // Asked for the conversation on screen; the host ignores a request for one it no longer shows.
      (turnIds) => {
        if (this.conversationId !== null) post({ type: "loadTurns", conversationId: this.conversationId, turnIds });
      },
    );
    routeAnswerActions(this.turnList.root, post);
    this.approvalCards = new KeyedChildren(
      this.approvals,
      (approval) => approval.callId,
      (approval) => renderApprovalCard(approval, localizer, (callId, answer) => post({ type: "approval", callId, answer })),
    );
    this.emptyState = element("div", { className: "empty-state" }, [
      icon("comment-discussion", "empty-icon"),
      element("p", { className: "empty-title", text: localizer.text("Ask a question to start. Answers and tool calls appear here.") }),
      element("p", { className: "empty-hint", text: localizer.text("Type # to attach files, problems, changes and more, / for commands and prompt files. Each answer ends with a receipt: tokens, time and the request id.") }),
    ]);
    this.composer = new Composer(localizer, post, options.saveDraft, options.initialDraft.draft, () => this.followToEnd(), this.peek);
    this.pendingEdit = options.initialDraft.edit;
    this.pendingPlace = options.initialPlace;
    this.taskList = new TaskListView(localizer, post);
    this.offers = new OfferSlots(localizer, post);
    this.scroller.append(this.emptyState, this.turnList.root, this.approvals);
    this.follower = new ScrollFollower(this.scroller, localizer);
    const scrollArea = element("div", { className: "scroll-area" }, [this.scroller, this.follower.jumpButton]);
    this.place = new ScrollPlaceKeeper(this.scroller, scrollArea, this.turnList.root, {
      conversationId: () => this.conversationId,
      turnIds: () => this.turnList.ids,
      element: (turnId) => this.turnList.element(turnId),
      atEnd: () => this.follower.atEnd,
    }, options.savePlace);
    this.notice.append(icon("info"), this.noticeText, iconButton("close", localizer.text("Dismiss"), () => this.dismissNotice()));
    this.notice.hidden = true;
    this.root = element("div", { className: "panel" }, [
      this.titleBar.root,
      this.setupSlot,
      this.notice,
      scrollArea,
      element("div", { className: "bottom" }, [...this.offers.slots, this.spendSlot, this.taskList.root, this.composer.root]),
      this.history.root,
      this.viewer.root,
      this.announcer.root,
    ]);
    this.root.addEventListener("click", (event) => this.viewer.openFrom(event.target));
  }

  /** An opened chip's text, as the host read it. */
  showAttachmentText(target: AttachmentTarget, attachment: AttachmentTextView | null): void {
    this.peek.received(target, attachment);
  }

  /** The data of a sent image the page asked for. */
  showImage(name: string, dataUrl: string | null): void {
    this.sentImages.received(name, dataUrl);
  }

  /** Escape stops a running turn from anywhere in the page (dialogs handle their own Escape first). */
  handleDocumentKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape" && this.busy && !event.defaultPrevented && !event.isComposing && !this.history.isOpen && !this.viewer.isOpen) {
      event.preventDefault();
      this.post({ type: "stop" });
    }
  }

  /** A copy whose selection spans stowed turns (far from view in a long session) gets their text too. */
  handleCopy(event: ClipboardEvent): void {
    const selection = document.getSelection();
    const text = selection === null || event.clipboardData === null ? null : this.turnList.copyText(selection);
    if (text === null || event.clipboardData === null) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
  }

  /** Everything, from a snapshot. */
  render(state: PanelState): void {
    this.turnList.reset(state.turns, state.busy);
    this.approvalCards.update(state.approvals);
    this.turnList.setWaitingForApproval(state.approvals.length > 0);
    this.renderFields(state);
    if (state.turns[0]?.id !== this.firstTurnId) this.announcer.clear();
    this.firstTurnId = state.turns[0]?.id;
    this.resumeEdit(state);
    const place = this.pendingPlace;
    this.pendingPlace = null;
    if (place !== null && this.place.restore(place)) this.follower.stayAway();
    else this.followToEnd();
  }

  /** A reloaded page goes on with the edit of an earlier message, when that message is still on screen. */
  private resumeEdit(state: PanelState): void {
    const edit = this.pendingEdit;
    this.pendingEdit = undefined;
    if (edit !== undefined && state.turns.some((turn) => turn.id === edit.turnId)) this.composer.startEdit(edit.turnId, edit.text, false);
  }

  private followToEnd(): void {
    this.place.release();
    this.follower.followToEnd();
  }

  /** Only what a patch touched; `state` is the store's state after the patch. */
  applyPatch(state: PanelState, applied: AppliedPatch): void {
    // Another conversation (or a new chat) starts at its end, and news of the previous one is not read out there.
    const firstTurnId = state.turns[0]?.id;
    const switched = applied.orderChanged && firstTurnId !== this.firstTurnId;
    if (switched) this.announcer.clear();
    if (applied.fields.has("busy")) this.turnList.setBusy(state.busy);
    const eagerFrom = state.turns.length - EAGER_TURNS;
    // An opening conversation's older turns start stowed (rendered as they come near).
    const renderedFrom = switched ? state.turns.length - RENDERED_AT_OPEN : 0;
    if (switched) this.turnList.opening();
    state.turns.forEach((turn, index) => {
      if (applied.turns.has(turn.id)) this.turnList.upsert(turn, index >= eagerFrom, index < renderedFrom);
    });
    if (applied.orderChanged) this.turnList.arrange(state.turns.map((turn) => turn.id));
    if (applied.approvalsChanged) {
      this.approvalCards.update(state.approvals);
      this.turnList.setWaitingForApproval(state.approvals.length > 0);
    }
    if (applied.fields.size > 0 || applied.orderChanged) this.renderFields(state);
    // Within one conversation, new content is followed.
    if (switched) this.followToEnd();
    else if (applied.turns.size > applied.filled.size || applied.orderChanged || applied.approvalsChanged) this.follower.contentChanged();
    // Older turns filled in: nothing new below, and a reader's place is kept (the browser's scroll anchoring).
    else if (applied.filled.size > 0) this.follower.keepEnd();
    this.firstTurnId = firstTurnId;
  }

  /** How long the turn's request has waited for content; null: it is not waiting. */
  showContentWait(turnId: string, seconds: number | null): void {
    this.turnList.showContentWait(turnId, seconds);
  }

  appendAnswer(turnId: string, delta: string): boolean {
    const appended = this.turnList.appendAnswer(turnId, delta);
    if (appended) this.follower.contentChanged();
    return appended;
  }

  focusInput(): void {
    this.composer.focus();
  }

  /** The page got the focus with nothing focused: the message box takes it, unless the history or an image is open. */
  focusInputUnlessDialog(): void {
    if (!this.history.isOpen && !this.viewer.isOpen) this.composer.focus();
  }

  showHistory(): void {
    this.history.open();
  }

  showFileMatches(query: string, files: readonly FileMatchView[]): void {
    this.composer.showFileMatches(query, files);
  }

  // Each part compares what it shows with the new state, so calling this costs little when little changed.
  private renderFields(state: PanelState): void {
    this.busy = state.busy;
    this.conversationId = state.conversationId;
    this.titleBar.update(state);
    this.renderSetup(state);
    this.renderNotice(state.notice);
    this.emptyState.hidden = state.turns.length > 0;
    this.renderSpendWarning(state);
    this.offers.render(state);
    this.history.update(state.conversations, state.conversationId);
    this.taskList.update(state.tasks ?? []);
    this.composer.update({
      busy: state.busy,
      canSend: state.setup.hasBaseUrl && state.setup.hasApiKey,
      attachments: state.attachments,
      selectionOffer: state.selectionOffer,
      activeFileOffer: state.activeFileOffer,
      model: state.model,
      models: state.models,
      modelsNote: state.modelsNote,
      relay: state.relay,
      relayModels: state.relayModels,
      context: state.context,
      imageLimits: state.imageLimits,
      rules: state.rules ?? null,
      mode: state.mode ?? "act",
      slashCommands: state.slashCommands ?? [],
    });
  }

  private renderNotice(notice: string | null): void {
    if (notice !== this.dismissedNotice) this.dismissedNotice = null;
    this.noticeText.textContent = notice ?? "";
    this.notice.hidden = notice === null || notice === this.dismissedNotice;
  }

  private dismissNotice(): void {
    this.dismissedNotice = this.noticeText.textContent;
    this.notice.hidden = true;
    this.composer.focus();
  }

  private renderSetup(state: PanelState): void {
    const signature = JSON.stringify([state.setup.hasBaseUrl, state.setup.hasApiKey]);
    if (signature === this.setupSignature) return;
    this.setupSignature = signature;
    const notice = renderSetupNotice(state.setup, this.localizer, this.post);
    this.setupSlot.replaceChildren(...(notice === null ? [] : [notice]));
  }

  private renderSpendWarning(state: PanelState): void {
    const signature = JSON.stringify(state.spendWarning);
    if (signature === this.spendSignature) return;
    this.spendSignature = signature;
    if (state.spendWarning === null) {
      // Answering disables the dialog's buttons, which drops focus to the page: give it back to the box.
      const focusWasInDialog = this.spendSlot.contains(document.activeElement) || document.activeElement === document.body;
      const wasShown = this.spendSlot.childElementCount > 0;
      this.spendSlot.replaceChildren();
      if (wasShown && focusWasInDialog) this.composer.focus();
      return;
    }
    const warning = renderSpendWarning(state.spendWarning, this.localizer, this.post);
    this.spendSlot.replaceChildren(warning.root);
    warning.focusTarget.focus();
  }
}
