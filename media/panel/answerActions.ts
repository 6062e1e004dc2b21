import type { ToHost } from "../../src/panel/protocol";

/**
 * One listener for every rendered answer: links are markup from the sanitized renderer, which carries no
 * handlers, so clicks are routed here by their data attributes. Links never navigate the webview; the host
 * checks and opens them. (Code block toolbars handle their own buttons: media/render/codeBlockToolbar.ts.)
 */
export function routeAnswerActions(container: HTMLElement, post: (message: ToHost) => void): void {
  container.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target === null) return;
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
