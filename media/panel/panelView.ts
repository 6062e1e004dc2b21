import type { PanelState, ToHost } from "../../src/panel/protocol";
import type { AppliedPatch } from "./panelStore";
import { Announcer } from "./announcer";
import { routeAnswerActions } from "./answerActions";
import { renderApprovalCard } from "./approvalCard";
import { Composer } from "./composer";
import { element, formatCount } from "./dom";
import { PanelHeader } from "./header";
import { KeyedChildren } from "./keyedChildren";
import type { Localizer } from "./localizer";
import { renderSetupNotice } from "./setupNotice";
import { renderSpendWarning } from "./spendWarning";
import { EAGER_TURNS, TurnList } from "./turnList";

export interface PanelViewOptions {
  readonly localizer: Localizer;
  readonly post: (message: ToHost) => void;
  readonly saveDraft: (draft: string) => void;
  readonly initialDraft: string;
}

// Within this distance of the bottom the view follows new text; further up, the user is reading.
const followThresholdPixels = 48;

/** The whole panel, built once per set of UI strings and updated from every state message. */
export class PanelView {
  readonly root: HTMLElement;
  private readonly localizer: Localizer;
  private readonly post: (message: ToHost) => void;
  private readonly header: PanelHeader;
  private readonly setupSlot = element("div", { className: "setup-slot" });
  private readonly notice = element("div", { className: "panel-notice", attributes: { role: "status" } });
  private readonly scroller = element("main", { className: "scroller" });
  private readonly turnList: TurnList;
  private readonly emptyHint: HTMLElement;
  private readonly approvals = element("div", { className: "approvals" });
  private readonly approvalCards: KeyedChildren<PanelState["approvals"][number]>;
  private readonly spendSlot = element("div", { className: "spend-slot" });
  private readonly totals = element("div", { className: "totals" });
  private readonly composer: Composer;
  private readonly announcer = new Announcer();
  private setupSignature = "";
  private spendSignature = "";
  private busy = false;
  private scrollFrame: number | undefined;

  constructor(options: PanelViewOptions) {
    this.localizer = options.localizer;
    this.post = options.post;
    const { localizer, post } = options;
    this.header = new PanelHeader(localizer, post);
    this.turnList = new TurnList(
      { post, edit: (turnId, text) => this.composer.startEdit(turnId, text) },
      (text) => this.announcer.announce(text),
      localizer,
      this.scroller,
    );
    routeAnswerActions(this.turnList.root, post);
    this.approvalCards = new KeyedChildren(
      this.approvals,
      (approval) => approval.callId,
      (approval) => renderApprovalCard(approval, localizer, (callId, answer) => post({ type: "approval", callId, answer })),
    );
    this.emptyHint = element("p", { className: "empty-hint", text: localizer.text("Ask a question to start. Answers and tool calls appear here.") });
    this.composer = new Composer(localizer, post, options.saveDraft, options.initialDraft);
    this.scroller.append(this.emptyHint, this.turnList.root, this.approvals);
    this.root = element("div", { className: "panel" }, [
      this.header.root,
      this.setupSlot,
      this.notice,
      this.scroller,
      element("div", { className: "bottom" }, [this.spendSlot, this.totals, this.composer.root]),
      this.announcer.root,
    ]);
  }

  /** Escape stops a running turn from anywhere in the page (dialogs handle their own Escape first). */
  handleDocumentKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape" && this.busy && !event.defaultPrevented && !event.isComposing) {
      event.preventDefault();
      this.post({ type: "stop" });
    }
  }

  /** Everything, from a snapshot. */
  render(state: PanelState): void {
    const following = this.scrollFrame !== undefined || this.isNearBottom();
    this.turnList.reset(state.turns, state.busy);
    this.approvalCards.update(state.approvals);
    this.renderFields(state);
    if (following) this.scrollToBottom();
  }

  /** Only what a patch touched; `state` is the store's state after the patch. */
  applyPatch(state: PanelState, applied: AppliedPatch): void {
    const following = this.scrollFrame !== undefined || this.isNearBottom();
    if (applied.fields.has("busy")) this.turnList.setBusy(state.busy);
    const eagerFrom = state.turns.length - EAGER_TURNS;
    state.turns.forEach((turn, index) => {
      if (applied.turns.has(turn.id)) this.turnList.upsert(turn, index >= eagerFrom);
    });
    if (applied.orderChanged) this.turnList.arrange(state.turns.map((turn) => turn.id));
    if (applied.approvalsChanged) this.approvalCards.update(state.approvals);
    if (applied.fields.size > 0 || applied.orderChanged) this.renderFields(state);
    if (following) this.scrollToBottom();
  }

  // Each part compares what it shows with the new state, so calling this costs little when little changed.
  private renderFields(state: PanelState): void {
    this.busy = state.busy;
    this.header.update(state);
    this.renderSetup(state);
    this.notice.textContent = state.notice ?? "";
    this.notice.hidden = !state.notice;
    this.emptyHint.hidden = state.turns.length > 0;
    this.renderSpendWarning(state);
    this.renderTotals(state);
    this.composer.update({ busy: state.busy, canSend: state.setup.hasBaseUrl && state.setup.hasApiKey, attachments: state.attachments });
  }

  appendAnswer(turnId: string, delta: string): boolean {
    const following = this.scrollFrame !== undefined || this.isNearBottom();
    const appended = this.turnList.appendAnswer(turnId, delta);
    if (following) this.scrollToBottom();
    return appended;
  }

  focusInput(): void {
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

  private renderTotals(state: PanelState): void {
    const totals = state.totals;
    this.totals.hidden = totals === null;
    this.totals.textContent =
      totals === null
        ? ""
        : this.localizer.format(
            "This conversation: {0} requests, {1} input tokens, {2} output tokens",
            formatCount(totals.requests),
            formatCount(totals.inputTokens),
            formatCount(totals.outputTokens),
          );
  }

  private isNearBottom(): boolean {
    const scroller = this.scroller;
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= followThresholdPixels;
  }

  // Once per frame: reading scrollHeight right after each delta would force a layout per delta.
  private scrollToBottom(): void {
    if (this.scrollFrame !== undefined) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = undefined;
      this.scroller.scrollTop = this.scroller.scrollHeight;
    });
  }
}
