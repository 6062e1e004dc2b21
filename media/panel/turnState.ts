import type { FixAction, OutcomeKind, TurnAction, TurnView } from "../../src/panel/protocol";
import { button, element, uniqueId } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

// How a turn that did not complete says so: once, inside the turn, in a tone that fits (a Stop is not a
// failure, an answer cut at the output budget is a warning), with the buttons that fit the cause and,
// where sending again makes sense, Retry or Continue with a note that it is a new, possibly billed request.

export type TurnTone = "none" | "neutral" | "warning" | "error";

export function toneOf(outcome: OutcomeKind): TurnTone {
  switch (outcome) {
    case "completed":
    case "in_progress":
      return "none";
    case "cancelled":
      return "neutral";
    case "incomplete":
    case "tool_round_limit":
    case "not_finished":
    case "interrupted":
    case "timed_out":
      return "warning";
    default:
      return "error";
  }
}

const toneIcons: Record<TurnTone, string> = { none: "pass", neutral: "circle-slash", warning: "warning", error: "error" };

const actionLabels: Record<TurnAction, string> = {
  retry: "Retry",
  continue: "Continue",
  resendWithoutImages: "Send again without images",
  useChatCompletions: "Use Chat Completions for this model",
};

const fixLabels: Record<FixAction, string> = {
  setApiKey: "Set API key",
  openSettings: "Open settings",
  selectModel: "Pick another model",
  checkConnection: "Check connection",
  openConsole: "Open the relay's console",
  addRelay: "Add relay…",
  summarizeEarlierTurns: "Summarize earlier turns",
  reviewFiles: "Show files",
  modelSettings: "Model settings…",
  confirmChatCompletions: "Use Chat Completions for this model",
};

export interface TurnStateParts {
  root: HTMLElement;
  /** Retry and Continue, shown on the newest turn only while nothing else runs. */
  actions: HTMLElement | null;
}

export function renderTurnState(turn: TurnView, localizer: Localizer, post: (action: FixAction | TurnAction | "includeTurn") => void): TurnStateParts {
  const tone = toneOf(turn.outcome);
  const root = element("div", { className: `turn-state tone-${tone}` }, [
    element("div", { className: "turn-state-heading" }, [icon(toneIcons[tone]), element("span", { className: "turn-outcome", text: turn.outcomeLabel })]),
    turn.explanation === null ? null : element("p", { className: "turn-explanation", text: turn.explanation }),
  ]);
  if (turn.sentLater !== undefined) root.appendChild(renderSentLater(turn.sentLater, localizer, () => post("includeTurn")));
  const fixes = turn.fixes.filter((fix) => Object.prototype.hasOwnProperty.call(fixLabels, fix));
  if (fixes.length > 0) {
    root.appendChild(element("div", { className: "fix-buttons" }, fixes.map((fix) => button(localizer.text(fixLabels[fix]), () => post(fix), { className: "secondary" }))));
  }
  let actions: HTMLElement | null = null;
  if (turn.actions.length > 0) {
    const noteId = uniqueId("billing-note");
    actions = element("div", { className: "retry-actions" }, [
      ...turn.actions.map((action) =>
        button(localizer.text(actionLabels[action]), () => post(action), {
          // The first action leads unless a fix does: after a key error, setting the key comes first.
          className: action === turn.actions[0] && fixes.length === 0 ? "primary" : "secondary",
          attributes: { "aria-describedby": noteId },
        }),
      ),
      element("span", { className: "billing-note", text: localizer.text("sends a new request that may be billed"), attributes: { id: noteId } }),
    ]);
    root.appendChild(actions);
  }
  return { root, actions };
}

/** A refusal is the model's answer, not a failure of the request: said as such, in the model's words. */
export function renderRefusal(refusal: string, localizer: Localizer): HTMLElement {
  return element("div", { className: "turn-state turn-refusal", attributes: { role: "note" } }, [
    element("div", { className: "turn-state-heading" }, [icon("circle-slash"), element("span", { text: localizer.text("The model declined to answer") })]),
    element("p", { className: "turn-explanation turn-refusal-text", text: refusal }),
  ]);
}

/**
 * An incomplete answer is not sent with later messages as if it were complete: the turn says so, and one click
 * includes the person's message and the partial answer (stored with the conversation).
 */
function renderSentLater(sentLater: "left_out" | "included", localizer: Localizer, include: () => void): HTMLElement {
  if (sentLater === "included") {
    return element("p", { className: "turn-sent-later included", text: localizer.text("Your message and this partial answer are sent with later messages.") });
  }
  return element("div", { className: "turn-sent-later left-out" }, [
    element("span", { text: localizer.text("Not sent with the next message.") }),
    button(localizer.text("Include in the next message"), include, { className: "secondary", attributes: { title: localizer.text("Send your message and this partial answer with later messages") } }),
  ]);
}
