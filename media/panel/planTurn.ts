import { button, element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

// What a turn sent in Plan mode shows: a "Plan" mark on the message, and once the plan is finished (on the
// newest turn, while nothing runs) "Act on this plan", which switches to Act and asks the model to carry it out.

export function renderPlanBadge(localizer: Localizer): HTMLElement {
  return element("span", { className: "plan-badge", attributes: { title: localizer.text("Sent in Plan mode: read-only tools, asked for a plan") } }, [icon("checklist"), element("span", { text: localizer.text("Plan") })]);
}

export function renderActOnPlan(localizer: Localizer, onAct: () => void): HTMLElement {
  const act = button(localizer.text("Act on this plan"), onAct, { className: "act-on-plan", attributes: { title: localizer.text("Switch to Act and ask the model to carry out this plan, with every tool") } });
  return element("div", { className: "plan-actions" }, [act]);
}
