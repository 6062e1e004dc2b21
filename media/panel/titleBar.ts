import type { PanelState } from "../../src/panel/protocol";
import { element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

/**
 * The one line above the messages that never scrolls away: the conversation's title (it opens the history)
 * and what the conversation cost so far.
 */
export class TitleBar {
  readonly root: HTMLElement;
  private readonly titleText = element("span", { className: "title-text" });
  private readonly titleButton: HTMLButtonElement;
  private readonly totals = element("span", { className: "conversation-totals" });
  /** The conversation's cost: apart from the token totals, so it stays in view in a narrow panel. */
  private readonly cost = element("span", { className: "conversation-cost" });
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
    this.root = element("header", { className: "panel-header" }, [this.titleButton, this.cost, this.totals]);
  }

  update(state: PanelState): void {
    const signature = JSON.stringify([state.title, state.totals, state.balance]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.titleText.textContent = state.title;
    const totals = state.totals;
    this.totals.hidden = totals === null || totals.requests === 0;
    const cost = totals?.cost ?? null;
    this.cost.hidden = cost === null || cost === undefined;
    if (cost) {
      const partial = (totals?.requestsWithoutCost ?? 0) > 0;
      this.cost.textContent = `${this.localizer.money(cost.amount, cost.currency, cost.estimated)}${partial ? "+" : ""}`;
      const what = cost.estimated ? this.localizer.text("This conversation's cost, estimated from the models' prices where the relay billed nothing") : this.localizer.text("This conversation's cost, as the relay billed it");
      const label = partial ? `${what}. ${this.localizer.plural(totals?.requestsWithoutCost ?? 0, "{0} request has no known cost.", "{0} requests have no known cost.")}` : what;
      this.cost.title = state.balance ? `${label}\n${state.balance}` : label;
      this.cost.setAttribute("aria-label", `${this.cost.textContent}: ${label}`);
    }
    if (totals === null) return;
    const requests = this.localizer.plural(totals.requests, "{0} request", "{0} requests");
    const reported = totals.requests - totals.requestsWithoutUsage;
    // Tokens are "unknown" when no request reported usage, and "at least" when some did not.
    const tokens =
      reported === 0
        ? this.localizer.text("tokens unknown")
        : this.localizer.format("{0} in · {1} out", this.localizer.compact(totals.inputTokens), this.localizer.compact(totals.outputTokens));
    this.totals.textContent = `${requests} · ${tokens}`;
    // With no usage reported at all, there is no count to give: never "0 input tokens".
    const exact =
      reported === 0
        ? this.localizer.format("This conversation: {0}, tokens unknown (the relay reported no usage)", requests)
        : this.localizer.format(
            "This conversation: {0}, {1} input tokens ({2} cached), {3} output tokens",
            requests,
            this.localizer.number(totals.inputTokens),
            this.localizer.number(totals.cachedTokens),
            this.localizer.number(totals.outputTokens),
          );
    const missing =
      totals.requestsWithoutUsage === 0 || reported === 0
        ? ""
        : ` ${this.localizer.plural(totals.requestsWithoutUsage, "({0} request without reported usage: its tokens are unknown)", "({0} requests without reported usage: their tokens are unknown)")}`;
    this.totals.title = state.balance ? `${exact}${missing}\n${state.balance}` : exact + missing;
    this.totals.setAttribute("aria-label", exact + missing);
  }
}
