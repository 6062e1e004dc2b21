/** Makes a detached subtree parsed from renderer output fit for the live DOM: the sanitizer's result. */
export type SubtreeSanitizer = (node: Node) => Node[];

export interface ReconciledNodes {
  readonly nodes: Node[];
  readonly firstNodeIndexes: number[];
}

/**
 * Brings `currentNodes` (the trailing children of `parent`, all already sanitized) in line with `nextNodes`,
 * which are parsed from renderer HTML but not sanitized, touching as little of the live DOM as possible:
 * - a node equal to the live one is kept (the live one is what the sanitizer produced);
 * - text is patched in place (a text node cannot carry markup);
 * - an element whose tag and attributes equal the live one's is patched child by child;
 * - anything else goes through `sanitize` before it enters the live DOM.
 * So the sanitizer's cost follows what changed, not the size of the block, and keeping unchanged nodes keeps
 * layout work small when a long list or table grows by one character. Returns the nodes now in the DOM, in
 * order; `firstNodeIndexes[i]` is where the nodes standing for `nextNodes[i]` start (the sanitizer may
 * drop a node or unwrap it into several).
 */
export function reconcileTrailingChildren(parent: Node, currentNodes: readonly Node[], nextNodes: readonly Node[], sanitize: SubtreeSanitizer): ReconciledNodes {
  return reconcileChildRange(parent, currentNodes, nextNodes, null, sanitize);
}

/** The same for a run of consecutive children of `parent` that ends just before `followingNode`. */
export function reconcileChildRange(
  parent: Node,
  currentNodes: readonly Node[],
  nextNodes: readonly Node[],
  followingNode: Node | null,
  sanitize: SubtreeSanitizer,
): ReconciledNodes {
  const nodes: Node[] = [];
  const firstNodeIndexes: number[] = [];
  for (let index = 0; index < nextNodes.length; index++) {
    const next = nextNodes[index]!;
    const current = currentNodes[index];
    firstNodeIndexes.push(nodes.length);
    if (current === undefined) {
      for (const node of sanitize(next)) nodes.push(parent.insertBefore(node, followingNode));
    } else if (current.isEqualNode(next) || patchInPlace(current, next, sanitize)) {
      nodes.push(current);
    } else {
      const replacements = sanitize(next);
      for (const node of replacements) parent.insertBefore(node, current);
      parent.removeChild(current);
      nodes.push(...replacements);
    }
  }
  for (let index = nextNodes.length; index < currentNodes.length; index++) {
    parent.removeChild(currentNodes[index]!);
  }
  return { nodes, firstNodeIndexes };
}

function patchInPlace(current: Node, next: Node, sanitize: SubtreeSanitizer): boolean {
  if (current instanceof Text && next instanceof Text) {
    patchText(current, next.data);
    return true;
  }
  if (!(current instanceof Element) || !(next instanceof Element) || current.tagName !== next.tagName || !haveEqualAttributes(current, next)) return false;
  reconcileTrailingChildren(current, Array.from(current.childNodes), Array.from(next.childNodes), sanitize);
  return true;
}

/** Sets a text node's data; appendData lets Chromium extend the laid-out text instead of shaping it again. */
export function patchText(current: Text, data: string): void {
  const shown = current.data;
  if (data.length > shown.length && data.startsWith(shown)) current.appendData(data.slice(shown.length));
  else if (data !== shown) current.data = data;
}

// Attributes are never copied from unsanitized nodes: an element whose attributes differ is replaced by its
// sanitized version. Order matters too, since the view promises the same innerHTML as a one-shot render.
function haveEqualAttributes(current: Element, next: Element): boolean {
  const currentAttributes = current.attributes;
  const nextAttributes = next.attributes;
  if (currentAttributes.length !== nextAttributes.length) return false;
  for (let index = 0; index < nextAttributes.length; index++) {
    const currentAttribute = currentAttributes[index]!;
    const nextAttribute = nextAttributes[index]!;
    if (currentAttribute.name !== nextAttribute.name || currentAttribute.value !== nextAttribute.value) return false;
  }
  return true;
}
