import type { ToolCallOutcomeView, ToolCallView } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

const outcomeLabels: Record<ToolCallOutcomeView, string> = {
  ran: "ran",
  failed: "failed",
  denied: "denied",
  invalid_arguments: "not run: invalid arguments",
  unavailable: "not run: tool not available",
  stopped: "not run: stopped",
  stopped_while_running: "stopped while running",
};

/** A tool call the model made in this turn: what it asked for, what happened, and what it was told back. */
export function renderToolCallCard(call: ToolCallView, localizer: Localizer): HTMLElement {
  // A host that sends no outcome is older than outcomes; "ran" is never assumed, only said when it is known.
  const outcome: ToolCallOutcomeView | null = call.outcome !== undefined && call.outcome in outcomeLabels ? call.outcome : null;
  const status = outcome !== null ? localizer.text(outcomeLabels[outcome]) : call.status === "ready" ? localizer.text("finished") : localizer.text("rejected");
  const result = element("details", { className: "tool-result" }, [
    element("summary", { text: localizer.text("Result") }),
    element("pre", { text: call.output }),
  ]);
  const detail = call.outcomeDetail ? element("div", { className: "tool-outcome-detail", text: call.outcomeDetail }) : null;
  const approvedBy = call.approvedBy?.kind === "rule"
    ? element("div", { className: "tool-approved-by", text: localizer.format("Ran without asking: your rule {0}", call.approvedBy.rule) })
    : call.approvedBy?.kind === "session"
      ? element("div", { className: "tool-approved-by", text: localizer.text("Ran without asking: allowed for this session") })
      : null;
  const tone = outcome === "ran" || (outcome === null && call.status === "ready") ? "ready" : "rejected";
  return element("div", { className: `tool-card tool-status-${tone}`, attributes: outcome === null ? {} : { "data-outcome": outcome } }, [
    element("div", { className: "tool-card-header" }, [
      element("span", { className: "tool-card-icon", text: "⚙", attributes: { "aria-hidden": "true" } }),
      element("span", { className: "tool-name", text: call.name }),
      element("span", { className: "tool-status", text: status }),
    ]),
    approvedBy,
    detail,
    element("div", { className: "tool-arguments-label", text: localizer.text("Arguments") }),
    element("pre", { className: "tool-arguments", text: call.argumentsJson }),
    result,
  ]);
}
