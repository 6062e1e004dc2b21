import type { FixAction, ToHost, TurnView } from "../../src/panel/protocol";
import { AnswerView } from "./answerView";
import { button, element, uniqueId, visuallyHidden } from "./dom";
import type { Localizer } from "./localizer";
import { renderReceipt } from "./receipt";
import { renderToolCallCard } from "./toolCallCard";

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
}

const fixLabels: Record<FixAction, string> = {
  setApiKey: "Set API key",
  openSettings: "Open settings",
  selectModel: "Pick another model",
  checkConnection: "Check connection",
};

/** A turn is finished once nothing more will arrive for it. */
export function isFinished(turn: TurnView): boolean {
  return !turn.streaming && turn.outcome !== "in_progress";
}

/**
 * One user message and the answer to it. The parts are rebuilt separately and only when what they show
 * changed, so a state message during streaming leaves every other turn's DOM (and focus) alone.
 */
export class TurnElement {
  readonly root: HTMLElement;
  private readonly userSlot = element("div", { className: "user-slot" });
  private readonly toolSlot = element("div", { className: "tool-slot" });
  private readonly answer = new AnswerView();
  private readonly footerSlot = element("div", { className: "footer-slot" });
  private userSignature = "";
  private toolSignature = "";
  private footerSignature = "";
  /** The explanation box, whose alert role follows whether this is the newest turn. */
  private explanationBox: HTMLElement | null = null;
  private retryActions: HTMLElement | null = null;

  constructor(
    private readonly turnId: string,
    private readonly handlers: TurnHandlers,
  ) {
    this.root = element("article", { className: "turn", attributes: { "data-turn-id": turnId } }, [
      this.userSlot,
      // Everything the assistant side shows changes while the turn runs; the turn's end is announced once
      // by the panel's status region instead.
      element("div", { className: "assistant-message", attributes: { "aria-live": "off" } }, [this.toolSlot, this.answer.root, this.footerSlot]),
    ]);
  }

  update(turn: TurnView, context: TurnContext): void {
    const userSignature = JSON.stringify([turn.userText, turn.branchIndex, turn.branchCount]);
    if (userSignature !== this.userSignature) {
      this.userSignature = userSignature;
      this.userSlot.replaceChildren(this.renderUserMessage(turn, context));
    }
    const toolSignature = JSON.stringify([turn.hasReasoning, turn.toolCalls]);
    if (toolSignature !== this.toolSignature) {
      this.toolSignature = toolSignature;
      this.toolSlot.replaceChildren(...this.renderReasoningAndTools(turn, context.localizer));
    }
    if (turn.streaming) this.answer.showStreaming(turn.answerText);
    else if (context.deferAnswer && (!this.answer.hasContent || this.answer.isDeferred)) this.answer.defer(turn.answerText);
    else this.answer.showFinished(turn.answerText);
    const footerSignature = JSON.stringify([
      isFinished(turn),
      turn.outcomeLabel,
      turn.explanation,
      turn.fixes,
      turn.actions,
      turn.receipts,
      turn.otherItemKinds,
    ]);
    if (footerSignature !== this.footerSignature) {
      this.footerSignature = footerSignature;
      this.explanationBox = null;
      this.retryActions = null;
      this.footerSlot.replaceChildren(...this.renderFooter(turn, context));
    }
    this.setContext(context);
  }

  /** Toggled in place: a newer turn arriving, or a send elsewhere, must not rebuild this turn. */
  setContext(place: TurnPlace): void {
    for (const control of this.userSlot.querySelectorAll<HTMLButtonElement>(".user-actions button")) {
      control.disabled = place.busy || control.dataset["alwaysDisabled"] === "true";
    }
    if (this.retryActions !== null) this.retryActions.hidden = place.busy || !place.isNewest;
    if (this.explanationBox !== null) {
      if (place.isNewest) this.explanationBox.setAttribute("role", "alert");
      else this.explanationBox.removeAttribute("role");
    }
  }

  /** False when the answer was not waiting to be rendered. */
  renderDeferredAnswer(): boolean {
    if (!this.answer.isDeferred) return false;
    this.answer.renderDeferred();
    return true;
  }

  appendAnswer(delta: string): boolean {
    return this.answer.append(delta);
  }

  private renderUserMessage(turn: TurnView, context: TurnContext): HTMLElement {
    const { localizer } = context;
    const actions = element("div", { className: "user-actions" }, [
      button(localizer.text("Edit"), () => this.handlers.edit(this.turnId, turn.userText), { className: "link-button" }),
      button(localizer.text("Regenerate"), () => this.handlers.post({ type: "regenerate", turnId: this.turnId }), { className: "link-button" }),
    ]);
    if (turn.branchCount > 1) actions.appendChild(this.renderBranchNavigation(turn, localizer));
    return element("div", { className: "user-message" }, [
      visuallyHidden(`${localizer.text("You")}: `),
      element("div", { className: "user-text", text: turn.userText }),
      actions,
    ]);
  }

  private renderBranchNavigation(turn: TurnView, localizer: Localizer): HTMLElement {
    const previous = button("‹", () => this.handlers.post({ type: "showBranch", turnId: this.turnId, direction: -1 }), {
      className: "icon-button",
      attributes: { "aria-label": localizer.text("Previous version") },
    });
    const next = button("›", () => this.handlers.post({ type: "showBranch", turnId: this.turnId, direction: 1 }), {
      className: "icon-button",
      attributes: { "aria-label": localizer.text("Next version") },
    });
    previous.dataset["alwaysDisabled"] = String(turn.branchIndex <= 0);
    next.dataset["alwaysDisabled"] = String(turn.branchIndex >= turn.branchCount - 1);
    const position = element("span", {
      className: "branch-position",
      text: `${turn.branchIndex + 1}/${turn.branchCount}`,
      attributes: { "aria-label": localizer.format("Version {0} of {1}", turn.branchIndex + 1, turn.branchCount) },
    });
    return element("span", { className: "branch-navigation", attributes: { role: "group", "aria-label": localizer.text("Versions") } }, [previous, position, next]);
  }

  private renderReasoningAndTools(turn: TurnView, localizer: Localizer): HTMLElement[] {
    const parts: HTMLElement[] = [];
    // The reasoning itself is not shown (the relay returns it only as an opaque item); the note says why
    // reasoning tokens appear in the receipt.
    if (turn.hasReasoning) {
      parts.push(
        element("details", { className: "reasoning-note" }, [
          element("summary", { text: localizer.text("Reasoning") }),
          element("p", { text: localizer.text("The model reasoned before answering. Its reasoning is not shown; it is counted in the reasoning tokens.") }),
        ]),
      );
    }
    for (const call of turn.toolCalls) parts.push(renderToolCallCard(call, localizer));
    return parts;
  }

  private renderFooter(turn: TurnView, context: TurnContext): HTMLElement[] {
    const { localizer } = context;
    if (!isFinished(turn)) {
      return [element("div", { className: "turn-progress", text: localizer.text("Working…") })];
    }
    const parts: HTMLElement[] = [];
    if (turn.explanation !== null) parts.push(this.renderExplanation(turn, context));
    if (turn.actions.length > 0) {
      this.retryActions = this.renderRetryActions(turn, localizer);
      parts.push(this.retryActions);
    }
    turn.receipts.forEach((receipt, index) => {
      parts.push(
        renderReceipt(receipt, index, turn.receipts.length, turn.otherItemKinds, localizer, {
          copyRequestId: (requestId) => this.handlers.post({ type: "copyText", text: requestId }),
          copyCurl: (receiptIndex) => this.handlers.post({ type: "copyCurl", turnId: this.turnId, receiptIndex }),
        }),
      );
    });
    return parts;
  }

  private renderExplanation(turn: TurnView, context: TurnContext): HTMLElement {
    const { localizer } = context;
    const box = element("div", { className: "turn-explanation" }, [
      element("div", { className: "turn-outcome", text: turn.outcomeLabel }),
      element("p", { text: turn.explanation ?? "" }),
    ]);
    this.explanationBox = box;
    const fixes = turn.fixes.filter((fix) => Object.prototype.hasOwnProperty.call(fixLabels, fix));
    if (fixes.length > 0) {
      box.appendChild(
        element(
          "div",
          { className: "fix-buttons" },
          fixes.map((fix) => button(localizer.text(fixLabels[fix]), () => this.handlers.post({ type: "fix", action: fix }), { className: "secondary" })),
        ),
      );
    }
    return box;
  }

  private renderRetryActions(turn: TurnView, localizer: Localizer): HTMLElement {
    const rows = turn.actions
      .filter((action) => action === "retry" || action === "continue")
      .map((action) => {
        const noteId = uniqueId("billing-note");
        const label = action === "retry" ? localizer.text("Retry") : localizer.text("Continue");
        const control = button(label, () => this.handlers.post({ type: action, turnId: this.turnId }), {
          className: "secondary",
          attributes: { "aria-describedby": noteId },
        });
        return element("div", { className: "retry-action" }, [
          control,
          element("span", { className: "billing-note", text: localizer.text("sends a new request that may be billed"), attributes: { id: noteId } }),
        ]);
      });
    return element("div", { className: "retry-actions" }, rows);
  }
}
