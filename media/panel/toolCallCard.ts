import type { ToolCallView } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

/** A tool call the model made in this turn: what it asked for and what it was told back. */
export function renderToolCallCard(call: ToolCallView, localizer: Localizer): HTMLElement {
  const status = call.status === "ready" ? localizer.text("ran") : localizer.text("rejected");
  const result = element("details", { className: "tool-result" }, [
    element("summary", { text: localizer.text("Result") }),
    element("pre", { text: call.output }),
  ]);
  return element("div", { className: `tool-card tool-status-${call.status === "ready" ? "ready" : "rejected"}` }, [
    element("div", { className: "tool-card-header" }, [
      element("span", { className: "tool-card-icon", text: "⚙", attributes: { "aria-hidden": "true" } }),
      element("span", { className: "tool-name", text: call.name }),
      element("span", { className: "tool-status", text: status }),
    ]),
    element("div", { className: "tool-arguments-label", text: localizer.text("Arguments") }),
    element("pre", { className: "tool-arguments", text: call.argumentsJson }),
    result,
  ]);
}
