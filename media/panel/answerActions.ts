import type { ToHost } from "../../src/panel/protocol";

/**
 * One listener for every rendered answer: links are markup from the sanitized renderer (and file links built
 * after it), which carry no handlers, so clicks are routed here by their data attributes. Links never navigate
 * the webview; the host checks and opens them. (Code block toolbars handle their own buttons: media/render/codeBlockToolbar.ts.)
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
    const fileLink = target.closest<HTMLElement>("a[data-file-path]");
    if (fileLink !== null && container.contains(fileLink)) {
      event.preventDefault();
      post(openFileMessage(fileLink));
      return;
    }
    // Any other anchor (there should be none) must not navigate either.
    if (target.closest("a") !== null) event.preventDefault();
  });
  container.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.target instanceof HTMLElement)) return;
    if (event.target.matches("a[data-href]")) {
      event.preventDefault();
      post({ type: "openLink", href: event.target.dataset["href"] ?? "" });
    } else if (event.target.matches("a[data-file-path]")) {
      event.preventDefault();
      post(openFileMessage(event.target));
    }
  });
}

/** A file link of an answer (media/render/fileReferences.ts): the path and line it names. */
function openFileMessage(link: HTMLElement): ToHost {
  const line = Number(link.dataset["line"]);
  return { type: "openFileReference", path: link.dataset["filePath"] ?? "", line: Number.isInteger(line) && line > 0 ? line : null };
}
