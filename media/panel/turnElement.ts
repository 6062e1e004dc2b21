import type { ToHost, TurnView } from "../../src/panel/protocol";
import { AnswerView } from "./answerView";
import { element } from "./dom";
import { icon } from "./icons";
import type { AttachmentPeek } from "./attachmentPeek";
import type { Localizer } from "./localizer";
import { renderToolCallCard } from "./toolCallCard";
import { renderNoCheckpoint, renderTurnChanges } from "./turnChanges";
import { renderTurnReceipt } from "./turnReceipt";
import { renderActOnPlan } from "./planTurn";
import { renderTurnSummary } from "./turnSummary";
import { renderUserMessage } from "./userMessage";
import { estimatedTurnPixels, findableText, isFinished, placeholderPixels, stowable } from "./turnSizes";
import { renderRefusal, renderTurnState, toneOf } from "./turnState";

export interface TurnPlace {
  /** Another turn is running: nothing here can be resent. */
  readonly busy: boolean;
  /** Only the newest turn's problem is announced as an alert, and only it offers Retry and Continue. */
  readonly isNewest: boolean;
}

export interface TurnContext extends TurnPlace {
  readonly localizer: Localizer;
  /** The turn is far from view: a finished answer not shown yet may wait until it comes near. */
  readonly deferAnswer: boolean;
}

export interface TurnHandlers {
  post(message: ToHost): void;
  /** Puts the turn's text back in the message box; sending it then starts a new branch. */
  edit(turnId: string, text: string): void;
  /** Thumbnails of the images a message carried, by their stored names. */
  sentImages(names: readonly string[]): HTMLElement;
  /** Shows what an opened chip added to the message. */
  peek: AttachmentPeek;
}


/**
 * One user message and the answer to it. The parts are rebuilt separately and only when what they show
 * changed, so a patch during streaming leaves every other part's DOM (and focus) alone.
 */
export class TurnElement {
  readonly root: HTMLElement;
  private readonly userSlot = element("div", { className: "user-slot" });
  private readonly toolSlot = element("div", { className: "tool-slot" });
  private readonly answer = new AnswerView();
  /** "Working…": made when the turn is first seen unfinished (most turns of a long conversation never are). */
  private progress: { root: HTMLElement; label: HTMLElement } | null = null;
  private waitingForApproval = false;
  /** Seconds the running request has waited for content, when long enough to say (src/panel/turns/contentWait.ts). */
  private contentWaitSeconds: number | null = null;
  private readonly footerSlot = element("div", { className: "footer-slot" });
  private readonly summarySlot = element("div", { className: "summary-slot" });
  private readonly assistantMessage: HTMLElement;
  /** What the turn shows, as last given: a stowed turn is rendered from it when it comes back. */
  private turn: TurnView | null = null;
  private place: TurnPlace = { busy: false, isNewest: false };
  /** Set while the turn is stowed (see `stow`): the element that keeps its text findable. */
  private stowedText: HTMLElement | null = null;
  private summarySignature = "";
  private summaryOpen = false;
  /** The turn came brief (a long conversation's older turn): its answer, tool calls and receipts are asked for. */
  isBrief = false;
  /** A summary of the branch down to this turn is in effect: this turn and the ones before it are "Summarized". */
  hasSummary = false;
  private userSignature = "";
  private toolSignature = "";
  private footerSignature = "";
  /** The state box, whose alert role follows whether this is the newest turn. */
  private stateBox: HTMLElement | null = null;
  private retryActions: HTMLElement | null = null;
  private planActions: HTMLElement | null = null;
  private receiptExpanded = false;
  private reasoningOpen = false;

  constructor(
    private readonly turnId: string,
    private readonly handlers: TurnHandlers,
    private readonly localizer: Localizer,
  ) {
    // Everything the assistant side shows changes while the turn runs; the turn's end is announced once
    // by the panel's status region instead.
    this.assistantMessage = element("div", { className: "assistant-message", attributes: { "aria-live": "off" } }, [this.toolSlot, this.answer.root, this.footerSlot]);
    this.root = element("article", { className: "turn", attributes: { "data-turn-id": turnId } }, [this.userSlot, this.assistantMessage, this.summarySlot]);
  }

  get isStowed(): boolean {
    return this.stowedText !== null;
  }

  /** Whether `stow` would stow the turn now. */
  get canStow(): boolean {
    return this.stowedText === null && this.turn !== null && stowable(this.turn);
  }

  update(turn: TurnView, context: TurnContext): void {
    this.turn = turn;
    this.place = { busy: context.busy, isNewest: context.isNewest };
    if (this.stowedText !== null) {
      // A stowed turn that runs again (a retry), gets a summary or goes brief is shown; otherwise only its findable text follows.
      if (stowable(turn)) this.stowedText.textContent = findableText(turn);
      else this.unstow();
      return;
    }
    this.render(turn, context);
  }

  /**
   * Far from view in a long session: the turn's DOM is let go (its answer's markdown, tool cards, receipt
   * and buttons are most of a page's elements) and one hidden element keeps its text, so the page's find
   * still finds it (`hidden="until-found"`: a match shows the turn again). The turn keeps its height, so
   * nothing moves. False when the turn was not stowed (see `stowable`).
   */
  stow(heightPx: number): boolean {
    const turn = this.turn;
    if (!this.canStow || turn === null) return false;
    for (const slot of [this.userSlot, this.toolSlot, this.footerSlot, this.summarySlot]) slot.replaceChildren();
    this.userSignature = this.toolSignature = this.footerSignature = this.summarySignature = "";
    this.stateBox = this.retryActions = this.planActions = null;
    this.progress?.root.remove();
    this.progress = null;
    this.answer.release();
    this.showStowed(turn, heightPx);
    return true;
  }

  /**
   * A new turn far from the end of a conversation that opens: shown stowed at about its height, never rendered
   * until it comes near, so a conversation of 1,000 turns opens at about the cost of the turns near its end. A
   * brief turn too: its whole view fills in the stowed text, and it renders when it comes near. False (nothing
   * done) for a turn that must show: it runs, or has a summary.
   */
  openStowed(turn: TurnView, place: TurnPlace): boolean {
    if (this.turn !== null || !isFinished(turn) || turn.summary !== undefined) return false;
    this.turn = turn;
    this.place = place;
    this.showStowed(turn, estimatedTurnPixels(turn));
    return true;
  }

  private showStowed(turn: TurnView, heightPx: number): void {
    const stowedText = element("div", { className: "stowed-text", text: findableText(turn) });
    stowedText.setAttribute("hidden", "until-found");
    stowedText.addEventListener("beforematch", () => this.unstow());
    if (heightPx > 0) this.root.style.height = `${heightPx}px`;
    this.root.classList.add("stowed");
    this.root.replaceChildren(stowedText);
    this.stowedText = stowedText;
  }

  /** Near the view again (or found): rendered from the turn as last given. */
  unstow(): void {
    if (this.stowedText === null) return;
    this.stowedText = null;
    this.root.replaceChildren(this.userSlot, this.assistantMessage, this.summarySlot);
    this.root.style.height = "";
    this.root.classList.remove("stowed");
    if (this.turn !== null) this.render(this.turn, { ...this.place, localizer: this.localizer, deferAnswer: false });
  }
  /** The text a selection copied across this stowed turn gets: the message and the answer. */
  get stowedCopyText(): string | null {
    return this.stowedText === null || this.turn === null ? null : findableText(this.turn);
  }

  private render(turn: TurnView, context: TurnContext): void {
    const userSignature = JSON.stringify([turn.userText, turn.attachments, turn.images, turn.reviewNote, turn.branchIndex, turn.branchCount, turn.mode]);
    if (userSignature !== this.userSignature) {
      this.userSignature = userSignature;
      this.userSlot.replaceChildren(renderUserMessage(turn, context.localizer, this.turnId, this.handlers));
    }
    const toolSignature = JSON.stringify([turn.hasReasoning, turn.reasoningSummaries, turn.toolCalls, turn.checkpointProblem]);
    if (toolSignature !== this.toolSignature) {
      this.toolSignature = toolSignature;
      this.toolSlot.replaceChildren(...this.renderReasoningAndTools(turn, context.localizer));
    }
    this.isBrief = turn.brief !== undefined;
    this.root.classList.toggle("brief", this.isBrief);
    if (this.isBrief) this.root.setAttribute("aria-busy", "true");
    else this.root.removeAttribute("aria-busy");
    if (turn.brief !== undefined) this.answer.hold(placeholderPixels(turn.brief));
    else if (turn.streaming) this.answer.showStreaming(turn.answerText);
    else if (context.deferAnswer && (!this.answer.hasContent || this.answer.isDeferred)) this.answer.defer(turn.answerText);
    else this.answer.showFinished(turn.answerText);
    this.showProgress(!isFinished(turn));
    const footerSignature = JSON.stringify([isFinished(turn), turn.refusal, turn.outcome, turn.outcomeLabel, turn.explanation, turn.fixes, turn.actions, turn.receipts, turn.otherItemKinds, turn.changedFiles, turn.restored, turn.sentLater, turn.actOnPlan, turn.commandNote]);
    if (footerSignature !== this.footerSignature) {
      this.footerSignature = footerSignature;
      this.footerSlot.replaceChildren(...this.renderFooter(turn, context.localizer));
    }
    const summarySignature = JSON.stringify(turn.summary ?? null);
    if (summarySignature !== this.summarySignature) {
      this.summarySignature = summarySignature;
      const summary = turn.summary;
      this.hasSummary = summary !== undefined && summary.text !== null;
      this.root.classList.toggle("has-summary", this.hasSummary);
      this.summarySlot.replaceChildren(...(summary === undefined ? [] : [renderTurnSummary(summary, context.localizer, this.summaryOpen, (open) => (this.summaryOpen = open))]));
    }
    this.setContext(context);
  }

  /** Toggled in place: a newer turn arriving, or a send elsewhere, must not rebuild this turn. */
  setContext(place: TurnPlace): void {
    this.place = { busy: place.busy, isNewest: place.isNewest };
    for (const control of this.userSlot.querySelectorAll<HTMLButtonElement>(".user-actions button, .branch-navigation button")) {
      control.disabled = place.busy || control.dataset["alwaysDisabled"] === "true";
    }
    if (this.retryActions !== null) this.retryActions.hidden = place.busy || !place.isNewest;
    if (this.planActions !== null) this.planActions.hidden = place.busy || !place.isNewest;
    if (this.stateBox !== null) {
      if (place.isNewest && this.stateBox.classList.contains("tone-error")) this.stateBox.setAttribute("role", "alert");
      else this.stateBox.removeAttribute("role");
    }
  }

  /** A running turn that waits for the person's approval says so, instead of "Working…". */
  setWaitingForApproval(waiting: boolean, localizer: Localizer): void {
    if (waiting === this.waitingForApproval) return;
    this.waitingForApproval = waiting;
    if (this.progress !== null) this.labelProgress(this.progress, localizer);
  }

  /** A running request that has waited long for content says for how long, in its "Working…" line. */
  setContentWait(seconds: number | null, localizer: Localizer): void {
    if (seconds === this.contentWaitSeconds) return;
    this.contentWaitSeconds = seconds;
    if (this.progress !== null) this.labelProgress(this.progress, localizer);
  }

  private showProgress(shown: boolean): void {
    if (this.progress === null) {
      if (!shown) return;
      const label = element("span");
      this.progress = { root: element("div", { className: "turn-progress" }, [icon("loading", "codicon-modifier-spin"), label]), label };
      this.labelProgress(this.progress, this.localizer);
      this.answer.root.after(this.progress.root);
    }
    this.progress.root.hidden = !shown;
  }

  private labelProgress(progress: { root: HTMLElement; label: HTMLElement }, localizer: Localizer): void {
    progress.label.textContent = this.waitingForApproval
      ? localizer.text("Waiting for your approval")
      : this.contentWaitSeconds !== null
        ? localizer.format("Working… no new content for {0} s", this.contentWaitSeconds)
        : localizer.text("Working…");
    progress.root.classList.toggle("waiting-for-approval", this.waitingForApproval);
  }

  /** False when the answer was not waiting to be rendered. */
  renderDeferredAnswer(): boolean {
    if (this.stowedText !== null || !this.answer.isDeferred) return false;
    this.answer.renderDeferred();
    return true;
  }

  appendAnswer(delta: string): boolean {
    return this.stowedText === null && this.answer.append(delta);
  }

  private renderReasoningAndTools(turn: TurnView, localizer: Localizer): HTMLElement[] {
    const parts: HTMLElement[] = [];
    if (turn.checkpointProblem) parts.push(renderNoCheckpoint(turn.checkpointProblem, localizer));
    // Reasoning is never answer text: collapsed, with the summaries the relay sent, or a note that the
    // model reasoned (the reasoning itself is opaque and counted in the reasoning tokens).
    if (turn.hasReasoning || turn.reasoningSummaries.length > 0) {
      const body =
        turn.reasoningSummaries.length > 0
          ? turn.reasoningSummaries.map((summary) => element("p", { className: "reasoning-summary", text: summary }))
          : [element("p", { text: localizer.text("The model reasoned before answering. Its reasoning is not shown; it is counted in the reasoning tokens.") })];
      const details = element("details", { className: "reasoning-note" }, [element("summary", {}, [icon("lightbulb"), element("span", { text: localizer.text("Reasoning") })]), ...body]) as HTMLDetailsElement;
      // Summaries stream in while the model reasons, redrawing this part: an opened Reasoning stays open.
      details.open = this.reasoningOpen;
      details.addEventListener("toggle", () => (this.reasoningOpen = details.open));
      parts.push(details);
    }
    for (const call of turn.toolCalls) parts.push(renderToolCallCard(call, localizer));
    return parts;
  }

  private renderFooter(turn: TurnView, localizer: Localizer): HTMLElement[] {
    this.stateBox = null;
    this.retryActions = null;
    this.planActions = null;
    if (!isFinished(turn)) return turn.receipts.length > 0 ? [this.receipt(turn, localizer)] : [];
    const parts: HTMLElement[] = [];
    if (turn.refusal !== null) parts.push(renderRefusal(turn.refusal, localizer));
    if (toneOf(turn.outcome) !== "none") {
      const state = renderTurnState(turn, localizer, (action) => {
        if (action === "retry" || action === "continue" || action === "resendWithoutImages" || action === "useChatCompletions" || action === "includeTurn") this.handlers.post({ type: action, turnId: this.turnId });
        // Model settings… opens at the model this turn used, which may not be the one picked now.
        else this.handlers.post(action === "modelSettings" ? { type: "fix", action, turnId: this.turnId } : { type: "fix", action });
      });
      this.stateBox = state.root;
      this.retryActions = state.actions;
      parts.push(state.root);
    }
    if (turn.actOnPlan) {
      this.planActions = renderActOnPlan(localizer, () => this.handlers.post({ type: "actOnPlan", turnId: this.turnId }));
      parts.push(this.planActions);
    }
    if (turn.commandNote) parts.push(element("p", { className: "turn-command-note", text: turn.commandNote }));
    if (turn.changedFiles) parts.push(renderTurnChanges(turn.changedFiles, turn.restored === true, localizer, (action) => this.handlers.post({ type: "turnChanges", turnId: this.turnId, action })));
    if (turn.receipts.length > 0) parts.push(this.receipt(turn, localizer));
    return parts;
  }

  private receipt(turn: TurnView, localizer: Localizer): HTMLElement {
    return renderTurnReceipt(turn, localizer, {
      copyRequestId: (requestId) => this.handlers.post({ type: "copyText", text: requestId }),
      copyCurl: (receiptIndex) => this.handlers.post({ type: "copyCurl", turnId: this.turnId, receiptIndex }),
      toggled: (expanded) => (this.receiptExpanded = expanded),
    }, this.receiptExpanded);
  }
}
