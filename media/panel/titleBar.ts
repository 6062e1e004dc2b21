import type { PanelState } from "../../src/panel/protocol";
import { element, visuallyHidden } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";
import { totalsLine } from "./totalsLine";

/**
 * The one line above the messages that never scrolls away: the conversation's title (it opens the history)
 * and what the conversation's requests cost and used so far. The totals never hide: in a narrow panel the
 * tokens take their short form, and where title and totals do not fit on one line the totals go under it.
 */
export class TitleBar {
  readonly root: HTMLElement;
  private readonly titleText = element("span", { className: "title-text" });
  private readonly titleButton: HTMLButtonElement;
  private readonly totals = element("span", { className: "conversation-totals" });
  private signature = "";

  constructor(
    private readonly localizer: Localizer,
    showHistory: () => void,
  ) {
    this.titleButton = element("button", { className: "title-button", attributes: { type: "button", title: localizer.text("Show chat history") } }, [
      this.titleText,
      icon("chevron-down"),
    ]);
    this.titleButton.addEventListener("click", showHistory);
    this.root = element("header", { className: "panel-header" }, [this.titleButton, this.totals]);
  }

  update(state: PanelState): void {
    const signature = JSON.stringify([state.title, state.totals, state.balance]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.titleText.textContent = state.title;
    const totals = state.totals;
    this.totals.hidden = totals === null || totals.requests === 0;
    if (totals === null || totals.requests === 0) {
      this.totals.replaceChildren();
      this.totals.removeAttribute("title");
      return;
    }
    const line = totalsLine(totals, this.localizer);
    const parts: HTMLElement[] = [
      ...(line.cost === null ? [] : [element("span", { className: "conversation-cost", text: line.cost })]),
      element("span", { className: "totals-requests", text: line.requests }),
      element("span", { className: "totals-tokens totals-long", text: line.tokens }),
      element("span", { className: "totals-tokens totals-short", text: line.tokensShort }),
    ];
    // The separator goes before each part but the first; the short and long tokens are alternatives (CSS picks one).
    const shown: Node[] = [];
    parts.forEach((part, index) => {
      if (index > 0 && !part.classList.contains("totals-short")) shown.push(element("span", { className: "totals-separator", text: " · " }));
      shown.push(part);
    });
    const visible = element("span", { className: "totals-visible", attributes: { "aria-hidden": "true" } }, shown);
    this.totals.replaceChildren(visible, visuallyHidden(line.exact));
    this.totals.title = state.balance ? `${line.exact}\n${state.balance}` : line.exact;
  }
}
