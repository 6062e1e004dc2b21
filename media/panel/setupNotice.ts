import type { SetupView, ToHost } from "../../src/panel/protocol";
import { button, element } from "./dom";
import type { Localizer } from "./localizer";

/** First run: says what is missing before anything can be sent, with a button for each missing piece. */
export function renderSetupNotice(setup: SetupView, localizer: Localizer, post: (message: ToHost) => void): HTMLElement | null {
  if (setup.hasBaseUrl && setup.hasApiKey) return null;
  const lines: HTMLElement[] = [element("h2", { className: "setup-title", text: localizer.text("Set up Relay Chat") })];
  const buttons: HTMLButtonElement[] = [];
  if (!setup.hasBaseUrl) {
    // An address that was set but cannot be used says what is wrong with it, not that none is set.
    lines.push(element("p", { className: setup.baseUrlProblem ? "setup-problem" : undefined, text: setup.baseUrlProblem ?? localizer.text("No relay address is set.") }));
    // Add relay asks for the address, a name and the key, then checks the relay: the whole setup in one go.
    buttons.push(button(localizer.text("Add relay…"), () => post({ type: "fix", action: "addRelay" }), { className: "primary" }));
    buttons.push(button(localizer.text("Set base URL"), () => post({ type: "fix", action: "openSettings" }), { className: "secondary" }));
  }
  if (!setup.hasApiKey) {
    lines.push(element("p", { text: localizer.text("No API key is set.") }));
    buttons.push(button(localizer.text("Set API key"), () => post({ type: "fix", action: "setApiKey" }), { className: "primary" }));
  }
  lines.push(element("p", { className: "setup-hint", text: localizer.text("You can write a message now; sending is possible once both are set.") }));
  return element("section", { className: "setup-notice", attributes: { "aria-label": localizer.text("Setup") } }, [...lines, element("div", { className: "setup-buttons" }, buttons)]);
}
