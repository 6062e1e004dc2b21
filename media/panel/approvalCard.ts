import type { ApprovalView } from "../../src/panel/protocol";
import { button, element, uniqueId } from "./dom";
import type { Localizer } from "./localizer";

export type ApprovalAnswer = "approve" | "deny" | "allow_session";

const riskExplanations: Record<ApprovalView["risk"], string> = {
  read: "Reads from your workspace.",
  write: "Changes files in your workspace.",
  execute: "Runs a command on your machine.",
};

/**
 * A tool call waiting for the user. The arguments are shown exactly as they will be passed, so what the
 * user approves is what runs.
 */
export function renderApprovalCard(approval: ApprovalView, localizer: Localizer, answer: (callId: string, answer: ApprovalAnswer) => void): HTMLElement {
  const risk: ApprovalView["risk"] = approval.risk === "write" || approval.risk === "execute" ? approval.risk : "read";
  const headingId = uniqueId("approval-heading");
  const buttons: HTMLButtonElement[] = [];
  // One answer per card: the host drops the card with the next state, until then the buttons stay disabled.
  const choose = (choice: ApprovalAnswer) => {
    for (const each of buttons) each.disabled = true;
    answer(approval.callId, choice);
  };
  buttons.push(button(localizer.text("Approve"), () => choose("approve"), { className: "primary" }));
  buttons.push(button(localizer.text("Deny"), () => choose("deny"), { className: "secondary" }));
  if (approval.canAllowForSession) buttons.push(button(localizer.text("Allow for this session"), () => choose("allow_session"), { className: "secondary" }));

  return element("section", { className: `approval-card risk-${risk}`, attributes: { "aria-labelledby": headingId } }, [
    element("div", { className: "approval-heading", attributes: { id: headingId } }, [
      element("span", { text: `${localizer.text("Approval needed")}: ` }),
      element("span", { className: "tool-name", text: approval.toolName }),
    ]),
    element("div", { className: "approval-risk" }, [
      element("span", { className: "risk-badge", text: localizer.text(risk) }),
      element("span", { text: ` ${risk === "read" ? "" : "⚠ "}${localizer.text(riskExplanations[risk])}` }),
    ]),
    element("p", { className: "approval-description", text: approval.toolDescription }),
    element("div", { className: "tool-arguments-label", text: localizer.text("Arguments") }),
    element("pre", { className: "tool-arguments", text: approval.argumentsJson }),
    element("div", { className: "approval-buttons" }, buttons),
  ]);
}
