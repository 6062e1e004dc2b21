import type { SpendWarningView, ToHost } from "../../src/panel/protocol";
import { button, element, uniqueId } from "./dom";
import type { Localizer } from "./localizer";

/**
 * The host holds a send until the user confirms an estimate above their threshold. Focus starts on
 * Cancel so that a second Enter does not spend by accident; Escape cancels.
 */
export function renderSpendWarning(warning: SpendWarningView, localizer: Localizer, post: (message: ToHost) => void): { root: HTMLElement; focusTarget: HTMLElement } {
  const headingId = uniqueId("spend-heading");
  const textId = uniqueId("spend-text");
  const answer = (confirmed: boolean) => {
    for (const control of root.querySelectorAll("button")) control.disabled = true;
    post({ type: "confirmSend", confirmed });
  };
  const cancel = button(localizer.text("Cancel"), () => answer(false), { className: "secondary" });
  const root = element("section", { className: "spend-warning", attributes: { role: "alertdialog", "aria-labelledby": headingId, "aria-describedby": textId } }, [
    element("h2", { className: "spend-title", text: localizer.text("Large request"), attributes: { id: headingId } }),
    element("p", { text: warning.text, attributes: { id: textId } }),
    element("div", { className: "spend-buttons" }, [button(localizer.text("Send anyway"), () => answer(true), { className: "primary" }), cancel]),
  ]);
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      answer(false);
    }
  });
  return { root, focusTarget: cancel };
}
