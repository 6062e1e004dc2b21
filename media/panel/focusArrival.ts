// Keys typed right after Focus Chat belong in the message box. Ctrl+Shift+Alt+R is bound to the view's own
// focus command, which VS Code runs at once in the window (the extension's command ran in the extension
// host first, and on a busy machine the first keys went into the editor's file meanwhile). VS Code then
// focuses the webview in two steps: the frame that hosts the page, then at least 50 ms later the page, with
// nothing focused on it (WebviewElement._doFocus). This puts the caret in the box the moment the page gets
// the focus, without waiting for a message from the host.
//
// Keys typed in between land in the hosting frame, which forwards them to the workbench only to look up
// keybindings; the page cannot reach that frame (VS Code sets the page's `window.parent` to the page
// itself), so those keys cannot be recovered from here. Measured in code-server: none lost when the keys
// follow the shortcut by 50 ms or more, as a person types; at machine speed the first one to five.

/** A click also focuses the page; the person then chose what to focus. */
const POINTER_GRACE_MS = 1_000;

/**
 * Calls `takeFocus` when the page gets the focus with nothing focused on it, nothing selected and no click
 * that brought it. Returns the function that stops listening.
 */
export function focusOnArrival(takeFocus: () => void, page: Window = window): () => void {
  let lastPointerDown = -Infinity;
  const onPointerDown = (): void => {
    lastPointerDown = page.performance.now();
  };
  const onPageFocus = (event: FocusEvent): void => {
    if (event.target !== page || !nothingFocused(page.document)) return;
    if (page.performance.now() - lastPointerDown < POINTER_GRACE_MS) return;
    // A selection in the answers is kept for copying: focusing the box would replace it.
    if (page.getSelection()?.isCollapsed === false) return;
    takeFocus();
  };
  page.addEventListener("pointerdown", onPointerDown, true);
  page.addEventListener("focus", onPageFocus);
  return () => {
    page.removeEventListener("pointerdown", onPointerDown, true);
    page.removeEventListener("focus", onPageFocus);
  };
}

function nothingFocused(document: Document): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
}
