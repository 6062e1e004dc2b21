import type { ToHost } from "../../src/panel/protocol";
import { codeBlockActions } from "../render/codeBlockMarkup";

/**
 * One listener for every rendered answer: code block toolbar buttons and links are markup from the
 * sanitized renderer, which carries no handlers, so clicks are routed here by their data attributes.
 * Links never navigate the webview; the host checks and opens them.
 */
export function routeAnswerActions(container: HTMLElement, post: (message: ToHost) => void): void {
  container.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target === null) return;
    const actionButton = target.closest<HTMLElement>(".code-block button[data-action]");
    if (actionButton !== null && container.contains(actionButton)) {
      event.preventDefault();
      runCodeBlockAction(actionButton, post);
      return;
    }
    const link = target.closest<HTMLElement>("a[data-href]");
    if (link !== null && container.contains(link)) {
      event.preventDefault();
      post({ type: "openLink", href: link.dataset["href"] ?? "" });
      return;
    }
    // Any other anchor (there should be none) must not navigate either.
    if (target.closest("a") !== null) event.preventDefault();
  });
  container.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.target instanceof HTMLElement) || !event.target.matches("a[data-href]")) return;
    event.preventDefault();
    post({ type: "openLink", href: event.target.dataset["href"] ?? "" });
  });
}

function runCodeBlockAction(actionButton: HTMLElement, post: (message: ToHost) => void): void {
  const block = actionButton.closest<HTMLElement>(".code-block");
  const code = block?.querySelector("pre > code")?.textContent ?? "";
  const language = block?.dataset["language"] ?? "";
  switch (actionButton.dataset["action"]) {
    case codeBlockActions.copy:
      post({ type: "copyText", text: code });
      return;
    case codeBlockActions.insertAtCursor:
      post({ type: "insertCode", code });
      return;
    case codeBlockActions.openInEditor:
      post({ type: "openCode", code, language });
      return;
  }
}
