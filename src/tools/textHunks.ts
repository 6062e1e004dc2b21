// diff 7 ships no types; the reference brings ours along to every project that compiles this file.
/// <reference path="../types/diff.d.ts" />
import { diffArrays } from "diff";

// The changes between a file and a proposed version of it, as hunks a person keeps or undoes one by one. Lines
// keep their own line breaks, so a CRLF file stays CRLF and a last line without a break stays without one.

export interface TextHunk {
  /** Where the hunk starts in the original, as a 0-based line index. */
  readonly originalStart: number;
  /** The original lines it replaces (empty for an insertion). */
  readonly originalLines: readonly string[];
  /** The lines it puts in their place (empty for a deletion). */
  readonly proposedLines: readonly string[];
}

/** The text as lines that each end with their own line break (the last may have none). */
export function linesWithBreaks(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

export function computeHunks(original: string, proposed: string): TextHunk[] {
  const hunks: TextHunk[] = [];
  let originalLine = 0;
  let open: { originalStart: number; originalLines: string[]; proposedLines: string[] } | null = null;
  for (const change of diffArrays(linesWithBreaks(original), linesWithBreaks(proposed))) {
    if (!change.added && !change.removed) {
      if (open) hunks.push(open);
      open = null;
      originalLine += change.value.length;
      continue;
    }
    open ??= { originalStart: originalLine, originalLines: [], proposedLines: [] };
    if (change.removed) {
      open.originalLines.push(...change.value);
      originalLine += change.value.length;
    } else {
      open.proposedLines.push(...change.value);
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** The original with the hunks `applied` says yes to put in; the others stay as they were. */
export function applyHunks(original: string, hunks: readonly TextHunk[], applied: (index: number) => boolean): string {
  const lines = linesWithBreaks(original);
  const result: string[] = [];
  let position = 0;
  hunks.forEach((hunk, index) => {
    result.push(...lines.slice(position, hunk.originalStart));
    result.push(...(applied(index) ? hunk.proposedLines : hunk.originalLines));
    position = hunk.originalStart + hunk.originalLines.length;
  });
  result.push(...lines.slice(position));
  return result.join("");
}

/**
 * Where hunk `index` starts (0-based line) in the text that `applyHunks` makes with the same choices: earlier
 * hunks that are in shift it by the lines they add or remove.
 */
export function hunkStartLine(hunks: readonly TextHunk[], index: number, applied: (index: number) => boolean): number {
  let shift = 0;
  for (let earlier = 0; earlier < index; earlier++) {
    const hunk = hunks[earlier]!;
    if (applied(earlier)) shift += hunk.proposedLines.length - hunk.originalLines.length;
  }
  return hunks[index]!.originalStart + shift;
}
