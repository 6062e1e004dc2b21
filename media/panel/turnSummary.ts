import type { CompactionOfferView, SummaryView, ToHost } from "../../src/panel/protocol";
import { button, element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

// Compaction as the panel shows it: the offer above the message box, and the summary that replaced the
// turns before it, collapsed under "Summarized" at the end of the last turn it covers. The original turns
// stay on screen, hidden until the person shows them (the list's `show-summarized` class).

/** The offer to summarize earlier turns: why, and one button. Nothing is sent until it is clicked. */
export function renderCompactionOffer(offer: CompactionOfferView, localizer: Localizer, post: (message: ToHost) => void): HTMLElement {
  const why =
    offer.reason === "too_long"
      ? localizer.text("The relay refused the conversation as longer than the model's context window.")
      : localizer.text("The next request nears the model's context window.");
  const what = localizer.plural(
    offer.turns,
    "A summary can replace the {0} earlier turn in what is sent: one more request; the turn stays here.",
    "A summary can replace the {0} earlier turns in what is sent: one more request; the turns stay here.",
  );
  return element("section", { className: "compaction-offer", attributes: { role: "status" } }, [
    icon("fold"),
    element("p", { text: `${why} ${what}` }),
    button(localizer.text("Summarize earlier turns"), () => post({ type: "fix", action: "summarizeEarlierTurns" }), { className: "primary" }),
  ]);
}

/** The summary stored on a turn: collapsed, with what it replaced and how its request went. */
export function renderTurnSummary(summary: SummaryView, localizer: Localizer, open: boolean, onToggle: (open: boolean) => void): HTMLElement {
  const title = summary.text === null ? localizer.text("Summary of earlier turns (not made)") : localizer.plural(summary.replacedTurns, "Summarized: {0} earlier turn", "Summarized: {0} earlier turns");
  const receipt = summary.receipt;
  const body: HTMLElement[] = [];
  if (summary.text !== null) body.push(element("div", { className: "summary-text", text: summary.text }));
  else if (receipt !== null) body.push(element("p", { className: "summary-problem", text: localizer.format("The summary request did not complete: {0}", receipt.outcomeLabel) }));
  if (receipt?.note) body.push(element("p", { className: "summary-note", text: receipt.note }));
  if (receipt?.usage) {
    const usage = receipt.usage;
    const count = (tokens: number | null) => (tokens === null ? "?" : localizer.number(tokens));
    body.push(element("p", { className: "summary-note", text: localizer.format("{0} in · {1} out", count(usage.inputTokens), count(usage.outputTokens)) }));
  }
  if (summary.text !== null) {
    const toggle = button(localizer.text("Show the summarized turns"), () => {
      const list = toggle.closest(".turn-list");
      const shown = list?.classList.toggle("show-summarized") ?? false;
      toggle.textContent = shown ? localizer.text("Hide the summarized turns") : localizer.text("Show the summarized turns");
    }, { className: "link-button" });
    body.push(toggle);
  }
  const details = element("details", { className: "turn-summary" }, [element("summary", {}, [icon("fold"), element("span", { text: title })]), ...body]) as HTMLDetailsElement;
  details.open = open;
  details.addEventListener("toggle", () => onToggle(details.open));
  return details;
}
