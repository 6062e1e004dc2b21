/**
 * Keeps `container`'s children in line with a list of items, reusing the element of an item whose key
 * and content signature are unchanged, so focus and open <details> survive a new state.
 */
export class KeyedChildren<Item> {
  private rendered = new Map<string, { signature: string; node: HTMLElement }>();

  constructor(
    private readonly container: HTMLElement,
    private readonly keyOf: (item: Item) => string,
    private readonly render: (item: Item) => HTMLElement,
  ) {}

  update(items: readonly Item[]): void {
    const next = new Map<string, { signature: string; node: HTMLElement }>();
    let previousNode: Node | null = null;
    for (const item of items) {
      const key = this.keyOf(item);
      if (next.has(key)) continue;
      const signature = JSON.stringify(item);
      const existing = this.rendered.get(key);
      const node = existing !== undefined && existing.signature === signature ? existing.node : this.render(item);
      if (existing !== undefined && existing.node !== node) existing.node.remove();
      next.set(key, { signature, node });
      const expectedPosition: Node | null = previousNode === null ? this.container.firstChild : previousNode.nextSibling;
      if (node !== expectedPosition) this.container.insertBefore(node, expectedPosition);
      previousNode = node;
    }
    for (const [key, entry] of this.rendered) if (!next.has(key)) entry.node.remove();
    this.rendered = next;
  }
}
