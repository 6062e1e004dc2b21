// diff 7 ships no types; the reference brings ours along to every project that compiles this file.
/// <reference path="../types/diff.d.ts" />
import { diffArrays } from "diff";
import type { DisplaySegment } from "./approvalDisplay";
import { displaySegments } from "./approvalDisplay";

// What the approval card of a file change shows: the change as a diff (lines removed, lines added, a few
// unchanged lines around each part), not the JSON of the arguments with its "\n" escapes. Pure: the tool
// computes the file's text before and after (Tool.previewChange) and this module lays the difference out.
// Hidden characters are shown as markers here too (displaySegments), as in every other argument.

/** A proposed change to one file, as the tool would make it. */
export type ProposedChange =
  | {
      /** The file, as the card shows it (workspace-relative). */
      readonly path: string;
      /** The file's text now; null when the change creates it. */
      readonly original: string | null;
      readonly proposed: string;
      /** The arguments the diff shows (the card leaves them out of its list; the exact JSON stays available). */
      readonly arguments: readonly string[];
    }
  | {
      readonly path: string;
      /** Replacements that could not be placed in the file: each is shown alone, old text against new. */
      readonly replacements: ReadonlyArray<{ readonly oldText: string; readonly newText: string }>;
      readonly arguments: readonly string[];
    };

export interface DiffLine {
  readonly kind: "context" | "removed" | "added";
  readonly segments: DisplaySegment[];
}

export interface DiffHunk {
  /** 1-based line numbers where the hunk starts, before and after; null for a replacement shown alone. */
  readonly originalLine: number | null;
  readonly proposedLine: number | null;
  readonly lines: DiffLine[];
}

export interface EditDiff {
  /** The file as the card shows it, hidden characters as markers. */
  readonly path: DisplaySegment[];
  readonly createsFile: boolean;
  /** The replacements could not be placed in the file (the tool will say why): shown one by one. */
  readonly unplaced: boolean;
  readonly added: number;
  readonly removed: number;
  readonly hunks: DiffHunk[];
  /** Lines left out to keep the card short (the exact arguments have them all). */
  readonly omittedLines: number;
  readonly arguments: string[];
}

/** Unchanged lines shown before and after each changed part. */
export const CONTEXT_LINES = 2;
/** At most this many lines on a card. */
export const MAX_DIFF_LINES = 400;

type Kind = DiffLine["kind"];

function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every line of the two texts in order, each marked context, removed or added. */
function lineChanges(original: string, proposed: string): Array<{ kind: Kind; text: string }> {
  return diffArrays(linesOf(original), linesOf(proposed)).flatMap((change) => {
    const kind: Kind = change.added ? "added" : change.removed ? "removed" : "context";
    return change.value.map((text) => ({ kind, text }));
  });
}

/** The changed parts with CONTEXT_LINES of unchanged lines around each; parts whose context touches are one hunk. */
function hunksOf(changes: ReadonlyArray<{ kind: Kind; text: string }>): Array<Omit<DiffHunk, "lines"> & { lines: Array<{ kind: Kind; text: string }> }> {
  const keep = changes.map(() => false);
  changes.forEach((change, index) => {
    if (change.kind === "context") return;
    for (let near = Math.max(0, index - CONTEXT_LINES); near <= Math.min(changes.length - 1, index + CONTEXT_LINES); near++) keep[near] = true;
  });
  const hunks: Array<{ originalLine: number; proposedLine: number; lines: Array<{ kind: Kind; text: string }> }> = [];
  let originalLine = 1;
  let proposedLine = 1;
  let open: (typeof hunks)[number] | null = null;
  changes.forEach((change, index) => {
    if (keep[index]) {
      open ??= { originalLine, proposedLine, lines: [] };
      open.lines.push(change);
    } else if (open) {
      hunks.push(open);
      open = null;
    }
    if (change.kind !== "added") originalLine += 1;
    if (change.kind !== "removed") proposedLine += 1;
  });
  if (open) hunks.push(open);
  return hunks;
}

export function editDiff(change: ProposedChange): EditDiff {
  const raw =
    "replacements" in change
      ? change.replacements.map((replacement) => ({ originalLine: null, proposedLine: null, lines: lineChanges(replacement.oldText, replacement.newText) }))
      : hunksOf(lineChanges(change.original ?? "", change.proposed));
  let budget = MAX_DIFF_LINES;
  let omittedLines = 0;
  let added = 0;
  let removed = 0;
  const hunks: DiffHunk[] = [];
  for (const hunk of raw) {
    for (const line of hunk.lines) {
      if (line.kind === "added") added += 1;
      if (line.kind === "removed") removed += 1;
    }
    const shown = hunk.lines.slice(0, Math.max(0, budget));
    omittedLines += hunk.lines.length - shown.length;
    budget -= shown.length;
    if (shown.length > 0) hunks.push({ originalLine: hunk.originalLine, proposedLine: hunk.proposedLine, lines: shown.map((line) => ({ kind: line.kind, segments: displaySegments(line.text) })) });
  }
  return {
    path: displaySegments(change.path),
    createsFile: !("replacements" in change) && change.original === null,
    unplaced: "replacements" in change,
    added,
    removed,
    hunks,
    omittedLines,
    arguments: [...change.arguments],
  };
}
