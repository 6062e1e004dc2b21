// Reading a model's answer to an edit request into the replacement text. The request asks for the new lines in one
// fenced block and nothing else; models add a sentence before or after anyway, pick another fence length, or leave
// the fence out. The fenced block wins wherever it is; an answer without one is taken whole. While the answer
// streams, only what is surely code is shown: lines inside the fence, or lines of an answer that started without one.

export interface ReadReplacement {
  /** The replacement text (lines with their breaks). */
  readonly text: string;
  /** The block's closing fence was read: nothing after it belongs to the replacement. */
  readonly closed: boolean;
}

const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})[^\n`]*$/;

/**
 * The replacement in `answer`, the whole answer when it ended (`ended`), or what can be shown of it so far: only
 * whole lines while it streams, and nothing while a first line may still turn out to open a fence.
 */
export function readReplacement(answer: string, ended: boolean): ReadReplacement {
  const text = answer.replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  // While streaming, the last piece is an unfinished line.
  const whole = ended ? lines : lines.slice(0, -1);
  const opening = whole.findIndex((line) => OPENING_FENCE.test(line));
  if (opening !== -1) return fencedBlock(whole, opening, ended);
  if (!ended) {
    // Prose may come before a fence: only an answer whose first characters are code is shown as it streams.
    const startsLikeProse = /^\s*$/.test(text) || /^ {0,3}[`~]/.test(text) || PROSE_OPENING.test(text);
    return { text: startsLikeProse ? "" : joinLines(whole), closed: false };
  }
  return { text: joinLines(trimBlankEdges(whole)), closed: true };
}

/** A sentence a model puts before its code ("Here is the updated code:"), which a file's first line rarely is. */
const PROSE_OPENING = /^(here('s| is| are)|sure|certainly|okay|ok,|below|the (updated|new|changed|edited)|i('ve| have| changed| updated))\b/i;

function fencedBlock(lines: readonly string[], opening: number, ended: boolean): ReadReplacement {
  const fence = OPENING_FENCE.exec(lines[opening]!)![1]!;
  const closing = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
  const body: string[] = [];
  for (const line of lines.slice(opening + 1)) {
    if (closing.test(line)) return { text: joinLines(body), closed: true };
    body.push(line);
  }
  // A block cut off (the answer stopped inside it) is still the replacement as far as it went.
  return { text: joinLines(body), closed: ended };
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}
