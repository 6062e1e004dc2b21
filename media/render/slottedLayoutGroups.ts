// Finished top-level nodes per layout group. Big enough that a long answer has few groups, small enough
// that re-laying out the last group stays cheap.
const nodesPerGroup = 64;

const rootsCreatedHere = new WeakSet<ShadowRoot>();

type SlottableNode = Element | Text;

interface LayoutGroup {
  readonly slot: HTMLSlotElement;
  readonly finishedNodes: SlottableNode[];
}

/**
 * Chromium lays out every child of a block container again when its last child changes, so a flat list
 * of a few hundred blocks makes each streaming update cost grow with the answer. This groups the
 * container's children into block wrappers that exist only in a shadow tree (manual slot assignment):
 * the light DOM, and so innerHTML, CSS selectors and event targets, stays exactly the rendered markdown,
 * while layout only revisits the last group and the group list.
 */
export class SlottedLayoutGroups {
  private groups: LayoutGroup[] = [];
  private assignedOpenNodes: readonly Node[] | undefined;

  private constructor(private readonly shadowRoot: ShadowRoot) {
    shadowRoot.replaceChildren();
  }

  /** Undefined when the host cannot take a shadow root (or has one of someone else): then layout stays flat. */
  static attachTo(host: HTMLElement): SlottedLayoutGroups | undefined {
    const existing = host.shadowRoot;
    if (existing !== null) return rootsCreatedHere.has(existing) ? new SlottedLayoutGroups(existing) : undefined;
    try {
      const shadowRoot = host.attachShadow({ mode: "open", slotAssignment: "manual" });
      rootsCreatedHere.add(shadowRoot);
      return new SlottedLayoutGroups(shadowRoot);
    } catch {
      return undefined;
    }
  }

  /** Nodes that will not change any more, in document order, following the previously added ones. */
  addFinished(nodes: readonly Node[]): void {
    let group = this.lastGroup();
    for (const node of nodes) {
      if (group.finishedNodes.length >= nodesPerGroup) {
        group.slot.assign(...group.finishedNodes);
        group = this.startGroup();
      }
      if (isSlottable(node)) group.finishedNodes.push(node);
    }
    this.assignedOpenNodes = undefined;
  }

  /** The nodes after all finished ones; cheap to call with an unchanged list. */
  setOpen(nodes: readonly Node[]): void {
    if (this.assignedOpenNodes !== undefined && sameNodes(this.assignedOpenNodes, nodes)) return;
    const group = this.lastGroup();
    group.slot.assign(...group.finishedNodes, ...nodes.filter(isSlottable));
    this.assignedOpenNodes = [...nodes];
  }

  clear(): void {
    this.shadowRoot.replaceChildren();
    this.groups = [];
    this.assignedOpenNodes = undefined;
  }

  private lastGroup(): LayoutGroup {
    return this.groups[this.groups.length - 1] ?? this.startGroup();
  }

  private startGroup(): LayoutGroup {
    const wrapper = document.createElement("div");
    const slot = document.createElement("slot");
    wrapper.appendChild(slot);
    this.shadowRoot.appendChild(wrapper);
    const group = { slot, finishedNodes: [] };
    this.groups.push(group);
    return group;
  }
}

function sameNodes(left: readonly Node[], right: readonly Node[]): boolean {
  return left.length === right.length && left.every((node, index) => node === right[index]);
}

function isSlottable(node: Node): node is SlottableNode {
  return node instanceof Element || node instanceof Text;
}
