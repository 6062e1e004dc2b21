// Where each turn of a conversation's list is, and each turn's children. Finding a turn by id, or its siblings,
// scanned the whole list: the views of a 1,000-turn conversation that opens took three scans per turn (about
// 3 million steps, 15-45 ms). The list is changed in place (a turn pushed, or replaced where it was), so an
// index is kept per list and checked on each use: a list that changed length, or whose last turn is another,
// is indexed again, and a turn found is always the one now at its place.

/** What the index reads of a turn (conversation.ts's Turn has both). */
interface Linked {
  readonly id: string;
  readonly parentId: string | null;
}

interface TurnIndex {
  readonly length: number;
  readonly lastId: string | undefined;
  readonly positionById: Map<string, number>;
  readonly childPositions: Map<string | null, number[]>;
}

const indexes = new WeakMap<readonly Linked[], TurnIndex>();

function indexFor(turns: readonly Linked[], rebuild = false): TurnIndex {
  const known = indexes.get(turns);
  if (!rebuild && known !== undefined && known.length === turns.length && known.lastId === turns[turns.length - 1]?.id) return known;
  const positionById = new Map<string, number>();
  const childPositions = new Map<string | null, number[]>();
  turns.forEach((turn, position) => {
    // The first of two turns with one id is the one a scan finds.
    if (!positionById.has(turn.id)) positionById.set(turn.id, position);
    const siblings = childPositions.get(turn.parentId);
    if (siblings === undefined) childPositions.set(turn.parentId, [position]);
    else siblings.push(position);
  });
  const index = { length: turns.length, lastId: turns[turns.length - 1]?.id, positionById, childPositions };
  indexes.set(turns, index);
  return index;
}

export function turnById<T extends Linked>(turns: readonly T[], turnId: string): T | undefined {
  for (const rebuild of [false, true]) {
    const position = indexFor(turns, rebuild).positionById.get(turnId);
    const turn = position === undefined ? undefined : turns[position];
    if (turn?.id === turnId) return turn;
    // A miss may be a list changed in a way the checks do not see: index it again once before saying so.
  }
  return undefined;
}

/** The turns whose parent is `parentId`, in list order. */
export function turnsWithParent<T extends Linked>(turns: readonly T[], parentId: string | null): T[] {
  const childrenBy = (index: TurnIndex) => (index.childPositions.get(parentId) ?? []).flatMap((position) => turns[position] ?? []);
  const children = childrenBy(indexFor(turns));
  // A list changed in a way the checks do not see puts another turn at a child's place: index it again.
  return children.every((turn) => turn.parentId === parentId) ? children : childrenBy(indexFor(turns, true));
}
