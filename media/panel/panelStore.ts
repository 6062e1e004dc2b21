import type { PanelChange, PanelFields, PanelState, TurnView } from "../../src/panel/protocol";

/** What a patch touched, so the view updates only those parts. */
export interface AppliedPatch {
  fields: ReadonlySet<keyof PanelFields>;
  /** Turns added or changed (a new receipt changes its turn). */
  turns: ReadonlySet<string>;
  /** Of those, brief turns that came whole (older turns filled in, nothing new). */
  filled: ReadonlySet<string>;
  orderChanged: boolean;
  approvalsChanged: boolean;
}

/**
 * The webview's copy of the host's state: set by a snapshot, then changed by patches. No DOM here, so
 * the patch rules are checked on their own.
 */
export class PanelStore {
  private turnsById: Map<string, TurnView>;

  constructor(private current: PanelState) {
    this.turnsById = new Map(current.turns.map((turn) => [turn.id, turn]));
  }

  get state(): PanelState {
    return this.current;
  }

  turn(turnId: string): TurnView | undefined {
    return this.turnsById.get(turnId);
  }

  apply(changes: readonly PanelChange[]): AppliedPatch {
    const fields = new Set<keyof PanelFields>();
    const turns = new Set<string>();
    const filled = new Set<string>();
    let orderChanged = false;
    let approvalsChanged = false;
    let state = this.current;
    for (const change of changes) {
      switch (change.kind) {
        case "fields":
          state = { ...state, ...change.fields };
          for (const name of Object.keys(change.fields) as Array<keyof PanelFields>) fields.add(name);
          break;
        case "turn":
          if (this.turnsById.get(change.turn.id)?.brief !== undefined && change.turn.brief === undefined) filled.add(change.turn.id);
          this.turnsById.set(change.turn.id, change.turn);
          turns.add(change.turn.id);
          break;
        case "turnOrder":
          this.turnsById = new Map(change.turnIds.flatMap((id) => {
            const turn = this.turnsById.get(id);
            return turn === undefined ? [] : [[id, turn] as const];
          }));
          orderChanged = true;
          break;
        case "receipt": {
          const turn = this.turnsById.get(change.turnId);
          if (turn === undefined) break;
          const receipts = [...turn.receipts];
          receipts[change.index] = change.receipt;
          this.turnsById.set(turn.id, { ...turn, receipts: receipts.filter((receipt) => receipt !== undefined) });
          turns.add(turn.id);
          break;
        }
        case "approvals":
          state = { ...state, approvals: change.approvals };
          approvalsChanged = true;
          break;
        default:
          unreachable(change);
      }
    }
    // The order is the snapshot's (or the last turnOrder's); turns added since are appended until one comes.
    const order = orderChanged ? [...this.turnsById.keys()] : state.turns.map((turn) => turn.id);
    for (const id of turns) if (!order.includes(id) && this.turnsById.has(id)) order.push(id);
    state = { ...state, turns: order.flatMap((id) => this.turnsById.get(id) ?? []) };
    this.current = state;
    return { fields, turns, filled, orderChanged, approvalsChanged };
  }
}

function unreachable(change: never): never {
  throw new Error(`Unknown change ${JSON.stringify(change)}`);
}
