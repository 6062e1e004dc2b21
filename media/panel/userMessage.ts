import type { TurnView } from "../../src/panel/protocol";
import { chipOpener } from "./attachmentPeek";
import { contextIcon } from "./contextOptions";
import { element, visuallyHidden } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";
import { renderPlanBadge } from "./planTurn";
import type { TurnHandlers } from "./turnElement";

// The person's message of a turn: its text, attachments and images, Edit and Regenerate, and its versions.

export function renderUserMessage(turn: TurnView, localizer: Localizer, turnId: string, handlers: TurnHandlers): HTMLElement {
  const actions = element("div", { className: "user-actions" }, [
    iconButton("edit", localizer.text("Edit"), () => handlers.edit(turnId, turn.userText)),
    iconButton("refresh", localizer.text("Regenerate"), () => handlers.post({ type: "regenerate", turnId })),
  ]);
  const chips = turn.attachments.length === 0 ? null : element("div", { className: "sent-attachments", attributes: { role: "group", "aria-label": localizer.text("Attached") } });
  chips?.append(
    ...turn.attachments.map((attachment, index) => {
      const chip = { target: { place: "sent" as const, turnId, index }, kind: attachment.kind, label: attachment.label };
      const content = [icon(contextIcon(attachment.kind)), element("span", { className: "chip-label", text: attachment.label })];
      return element("span", { className: "chip sent", attributes: { title: attachment.label } }, [chipOpener(handlers.peek, chip, content, localizer, () => ({ after: chips }))]);
    }),
  );
  // The actions float at the top right, before the text, so the text flows around them instead of under them.
  return element("div", { className: "user-message" }, [
    visuallyHidden(`${localizer.text("You")}: `),
    actions,
    turn.mode === "plan" ? renderPlanBadge(localizer) : null,
    element("div", { className: "user-text", text: turn.userText }),
    chips,
    turn.images && turn.images.length > 0 ? handlers.sentImages(turn.images) : null,
    // What went to the model beside the typed text is on screen too, one click away (it is in English: it is the model's).
    turn.reviewNote
      ? element("details", { className: "review-note" }, [
          element("summary", {}, [icon("diff"), element("span", { text: localizer.text("Sent with this message: what you did with the model's changes to files") })]),
          element("p", { text: turn.reviewNote }),
        ])
      : null,
    turn.branchCount > 1 ? renderBranchNavigation(turn, localizer, turnId, handlers) : null,
  ]);
}

function renderBranchNavigation(turn: TurnView, localizer: Localizer, turnId: string, handlers: TurnHandlers): HTMLElement {
  const previous = iconButton("chevron-left", localizer.text("Previous version"), () => handlers.post({ type: "showBranch", turnId: turnId, direction: -1 }));
  const next = iconButton("chevron-right", localizer.text("Next version"), () => handlers.post({ type: "showBranch", turnId: turnId, direction: 1 }));
  previous.dataset["alwaysDisabled"] = String(turn.branchIndex <= 0);
  next.dataset["alwaysDisabled"] = String(turn.branchIndex >= turn.branchCount - 1);
  const position = element("span", {
    className: "branch-position",
    text: `${turn.branchIndex + 1}/${turn.branchCount}`,
    attributes: { "aria-label": localizer.format("Version {0} of {1}", turn.branchIndex + 1, turn.branchCount) },
  });
  return element("span", { className: "branch-navigation", attributes: { role: "group", "aria-label": localizer.text("Versions") } }, [previous, position, next]);
}
