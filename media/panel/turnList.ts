import type { TurnView } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";
import { isFinished, TurnElement } from "./turnElement";
import type { TurnHandlers } from "./turnElement";

/**
 * The conversation's turns, keyed by turn id: a state message updates the turns that changed and moves
 * or drops the others, but never rebuilds a turn just because a new snapshot arrived.
 */
export class TurnList {
  readonly root: HTMLElement;
  private turns = new Map<string, TurnElement>();
  /** Turns seen unfinished, so their end can be announced once. */
  private readonly running = new Set<string>();

  constructor(
    private readonly handlers: TurnHandlers,
    private readonly announce: (text: string) => void,
    label: string,
  ) {
    this.root = element("div", {
      className: "turn-list",
      attributes: { role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-label": label },
    });
  }

  update(turns: readonly TurnView[], busy: boolean, localizer: Localizer): void {
    const next = new Map<string, TurnElement>();
    let previousNode: Node | null = null;
    turns.forEach((turn, index) => {
      const turnElement = this.turns.get(turn.id) ?? new TurnElement(turn.id, this.handlers);
      next.set(turn.id, turnElement);
      turnElement.update(turn, { localizer, busy, isNewest: index === turns.length - 1 });
      const expectedPosition: Node | null = previousNode === null ? this.root.firstChild : previousNode.nextSibling;
      if (turnElement.root !== expectedPosition) this.root.insertBefore(turnElement.root, expectedPosition);
      previousNode = turnElement.root;
      this.announceEnd(turn, localizer);
    });
    for (const [turnId, turnElement] of this.turns) {
      if (!next.has(turnId)) {
        turnElement.root.remove();
        this.running.delete(turnId);
      }
    }
    this.turns = next;
  }

  /** False when the turn is unknown or not streaming. */
  appendAnswer(turnId: string, delta: string): boolean {
    return this.turns.get(turnId)?.appendAnswer(delta) ?? false;
  }

  private announceEnd(turn: TurnView, localizer: Localizer): void {
    if (!isFinished(turn)) {
      this.running.add(turn.id);
    } else if (this.running.delete(turn.id)) {
      this.announce(turn.outcome === "completed" ? localizer.text("Answer complete") : localizer.format("Answer ended: {0}", turn.outcomeLabel));
    }
  }
}
