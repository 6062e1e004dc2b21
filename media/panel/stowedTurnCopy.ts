// Copying a selection that spans stowed turns (turnStower.ts): their text is not rendered, so the browser's
// own copy would leave it out. The selection is cut at each stowed turn; the parts between are read as the
// browser reads a selection (line breaks as shown), the stowed turns give their message and answer.

export interface StowedTurnText {
  readonly root: Element;
  /** The turn's message and answer. */
  readonly text: string;
}

/** The selection's text with the stowed turns in it filled in; null when it contains none. */
export function textAcrossStowedTurns(selection: Selection, stowed: readonly StowedTurnText[]): string | null {
  if (selection.rangeCount === 0 || selection.isCollapsed) return null;
  const original = selection.getRangeAt(0);
  const inside = stowed.filter((turn) => original.intersectsNode(turn.root));
  if (inside.length === 0) return null;
  const parts: string[] = [];
  const segment = original.cloneRange();
  try {
    for (const turn of inside) {
      segment.setEndBefore(turn.root);
      parts.push(selectedText(selection, segment), turn.text);
      segment.setStartAfter(turn.root);
      segment.setEnd(original.endContainer, original.endOffset);
    }
    parts.push(selectedText(selection, segment));
  } finally {
    selection.removeAllRanges();
    selection.addRange(original);
  }
  return parts.map((part) => part.trim()).filter((part) => part !== "").join("\n\n");
}

/** `range`'s text as the browser gives a selection's (Selection.toString follows the layout's line breaks). */
function selectedText(selection: Selection, range: Range): string {
  if (range.collapsed) return "";
  selection.removeAllRanges();
  selection.addRange(range);
  return selection.toString();
}
