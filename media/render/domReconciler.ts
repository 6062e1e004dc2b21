/**
 * Brings `currentNodes` (the trailing children of `parent`) in line with `nextNodes` while touching as
 * little of the live DOM as possible: equal nodes are kept, elements of the same tag are patched in
 * place, everything else is swapped. Keeping unchanged nodes is what keeps layout work small when a
 * long list or table grows by one character. Returns the nodes now in the DOM, in order.
 */
export function reconcileTrailingChildren(parent: Node, currentNodes: readonly Node[], nextNodes: readonly Node[]): Node[] {
  const result: Node[] = [];
  for (let index = 0; index < nextNodes.length; index++) {
    const next = nextNodes[index]!;
    const current = currentNodes[index];
    if (current === undefined) {
      parent.appendChild(next);
      result.push(next);
    } else if (current.isEqualNode(next)) {
      result.push(current);
    } else if (patchInPlace(current, next)) {
      result.push(current);
    } else {
      parent.replaceChild(next, current);
      result.push(next);
    }
  }
  for (let index = nextNodes.length; index < currentNodes.length; index++) {
    parent.removeChild(currentNodes[index]!);
  }
  return result;
}

function patchInPlace(current: Node, next: Node): boolean {
  if (current instanceof Text && next instanceof Text) {
    patchText(current, next.data);
    return true;
  }
  if (!(current instanceof Element) || !(next instanceof Element) || current.tagName !== next.tagName) return false;
  if (!copyAttributeValues(current, next)) return false;
  reconcileTrailingChildren(current, Array.from(current.childNodes), Array.from(next.childNodes));
  return true;
}

// appendData lets Chromium extend the laid-out text instead of shaping the whole node again.
function patchText(current: Text, data: string): void {
  const shown = current.data;
  if (data.length > shown.length && data.startsWith(shown)) current.appendData(data.slice(shown.length));
  else current.data = data;
}

// Only values are patched: adding or dropping an attribute would change the serialized attribute order,
// and the view promises the same innerHTML as a one-shot render.
function copyAttributeValues(current: Element, next: Element): boolean {
  const currentNames = current.getAttributeNames();
  const nextNames = next.getAttributeNames();
  if (currentNames.length !== nextNames.length || currentNames.some((name, index) => name !== nextNames[index])) return false;
  for (const name of nextNames) {
    const value = next.getAttribute(name)!;
    if (current.getAttribute(name) !== value) current.setAttribute(name, value);
  }
  return true;
}
