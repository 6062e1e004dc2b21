// Keeps tool output within what a request can reasonably carry, and says so visibly when it cuts.

export const defaultMaxResultChars = 20_000;

export function truncationMarker(shownChars: number, totalChars: number): string {
  return `\n[... output truncated: ${shownChars} of ${totalChars} characters shown]`;
}

/** The text unchanged if it fits; otherwise its first `maxChars` characters and a marker naming both counts. */
export function truncateOutput(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const keep = avoidSplittingSurrogatePair(text, Math.max(0, Math.floor(maxChars)));
  return { text: text.slice(0, keep) + truncationMarker(keep, text.length), truncated: true };
}

/** Cutting between the halves of a surrogate pair leaves a lone half that some JSON encoders reject. */
export function avoidSplittingSurrogatePair(text: string, cutIndex: number): number {
  if (cutIndex <= 0 || cutIndex >= text.length) return cutIndex;
  const before = text.charCodeAt(cutIndex - 1);
  return before >= 0xd800 && before <= 0xdbff ? cutIndex - 1 : cutIndex;
}
