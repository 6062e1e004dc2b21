// Keys typed right after Focus Chat belong in the message box. Ctrl+Shift+Alt+R is bound to the view's own
// focus command, which VS Code runs at once in the window (the extension's command ran in the extension
// host first, and on a busy machine the first keys went into the editor's file meanwhile). VS Code then
// focuses the webview in two steps: the frame that hosts the page, then about 50 ms later the page, with
// nothing focused on it (WebviewElement._doFocus). This puts the caret in the box the moment the page gets
// the focus, without waiting for a message from the host; and keys typed in between, which land in the
// hosting frame where nothing can take them, are caught there and typed into the box, in order.

/** A click also focuses the page; the person then chose what to focus. */
const POINTER_GRACE_MS = 1_000;

/**
 * Calls `takeFocus` when the page gets the focus with nothing focused on it, nothing selected and no click
 * that brought it, and when a character is typed in the frame that hosts the page; the character then goes
 * where `takeFocus` put the caret, if that is a text box. Returns the function that stops listening.
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
  const onHostKeydown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || !typesACharacter(event)) return;
    takeFocus();
    // Nothing took the focus (the history is open, say): the key is left where it was.
    const box = page.document.activeElement;
    if (!page.document.hasFocus() || (box?.tagName !== "TEXTAREA" && box?.tagName !== "INPUT")) return;
    // The key's own typing would go to the hosting frame's empty page: it is typed here instead, as a step
    // of the box's undo history (execCommand is the one way that records it; it fires `input`).
    event.preventDefault();
    page.document.execCommand("insertText", false, event.key);
  };
  const host = hostingFrame(page);
  page.addEventListener("pointerdown", onPointerDown, true);
  page.addEventListener("focus", onPageFocus);
  host?.addEventListener("keydown", onHostKeydown, true);
  return () => {
    page.removeEventListener("pointerdown", onPointerDown, true);
    page.removeEventListener("focus", onPageFocus);
    host?.removeEventListener("keydown", onHostKeydown, true);
  };
}

/**
 * The frame VS Code hosts the page in, when the page may listen to it: it has the page's origin in VS Code
 * (desktop and browser alike); anywhere else reading it throws, and keys there are left alone.
 */
function hostingFrame(page: Window): Window | null {
  if (page.parent === page) return null;
  try {
    void page.parent.document;
    return page.parent;
  } catch {
    return null;
  }
}

/** A key that types one character: no shortcut (Ctrl, Alt, Cmd), no composition, no named key (Enter, Tab, Escape). */
function typesACharacter(event: KeyboardEvent): boolean {
  return !event.ctrlKey && !event.altKey && !event.metaKey && !event.isComposing && [...event.key].length === 1;
}

function nothingFocused(document: Document): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
}
