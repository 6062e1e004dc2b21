/**
 * Runs in the chat webview (passed to Playwright's `evaluate`): what breaks the panel's layout, as
 * sentences. The document must not scroll (the messages scroll on their own), nothing may end past the
 * panel's right edge (code, tables, request details and diffs scroll inside themselves), and no button label may
 * take two lines (a history entry is a two-line button by design).
 */
export function panelLayoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollHeight > root.clientHeight + 1) problems.push(`the document scrolls vertically (${root.scrollHeight} > ${root.clientHeight})`);
  if (root.scrollWidth > root.clientWidth + 1) problems.push(`the document scrolls horizontally (${root.scrollWidth} > ${root.clientWidth})`);
  if (root.scrollTop !== 0) problems.push(`the document is scrolled by ${root.scrollTop} px`);
  const width = document.documentElement.clientWidth;
  for (const node of Array.from(document.querySelectorAll<HTMLElement>(".panel *"))) {
    if (node.closest("pre, table, .code-block, .receipt-details, .diff-body, [hidden]") !== null || node.getClientRects().length === 0) continue;
    const box = node.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) problems.push(`${node.className || node.tagName} ends at ${Math.round(box.right)} px, past ${width} px`);
  }
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>("button:not(.history-open)"))) {
    if (button.getClientRects().length === 0) continue;
    const style = getComputedStyle(button);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.45;
    if (button.getBoundingClientRect().height > 2 * line + 4) problems.push(`the button "${button.textContent || button.getAttribute("aria-label")}" wraps`);
  }
  return problems.slice(0, 10);
}
