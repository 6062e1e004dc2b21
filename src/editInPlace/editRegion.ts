import type { TextHunk } from "../tools/textHunks";
import { computeHunks, linesWithBreaks } from "../tools/textHunks";

// The part of a file an edit in place replaces: whole lines (a selection that starts or ends inside a line takes
// the whole line, so the replacement never has to splice into half a line), with the lines around it that go with
// the request as context. Plain text in, plain text out: the host reads the document, this decides the cut.

/** Lines above and below the selection sent as context: enough for a model to match names and indentation. */
export const DEFAULT_CONTEXT_LINES = 30;

export interface EditRegion {
  /** The text above the replaced lines, every line of it. */
  readonly before: string;
  /** The lines to replace, each with its own line break (the file's last line may have none). */
  readonly selected: string;
  /** The text below the replaced lines. */
  readonly after: string;
  /** 0-based first replaced line and how many lines are replaced. */
  readonly startLine: number;
  readonly lineCount: number;
  /** The context sent: up to `contextLines` lines above and below. */
  readonly contextBefore: string;
  readonly contextAfter: string;
  /** The file's line break, used for a replacement written with another. */
  readonly eol: "\n" | "\r\n";
}

/**
 * The lines `startLine` to `endLine` (0-based, inclusive) of `text`. A selection that ends at the start of a
 * line (column 0, as a selection of whole lines does) is passed with `endLine` one less by the caller.
 */
export function editRegion(text: string, startLine: number, endLine: number, contextLines = DEFAULT_CONTEXT_LINES): EditRegion {
  const lines = linesWithBreaks(text);
  const last = Math.max(0, lines.length - 1);
  const start = clamp(Math.min(startLine, endLine), 0, last);
  const end = clamp(Math.max(startLine, endLine), start, last);
  const selectedLines = lines.slice(start, end + 1);
  return {
    before: lines.slice(0, start).join(""),
    selected: selectedLines.join(""),
    after: lines.slice(end + 1).join(""),
    startLine: start,
    lineCount: selectedLines.length,
    contextBefore: lines.slice(Math.max(0, start - contextLines), start).join(""),
    contextAfter: lines.slice(end + 1, end + 1 + contextLines).join(""),
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/**
 * The replacement as the file will hold it: the file's line breaks, and a final line break exactly when the
 * replaced lines had one (a model rarely says whether its last line ends; the file decides).
 */
export function fittedReplacement(region: EditRegion, replacement: string): string {
  let fitted = replacement.replace(/\r\n/g, "\n");
  if (region.eol === "\r\n") fitted = fitted.replace(/\n/g, "\r\n");
  const endsWithBreak = region.selected.endsWith("\n");
  const trimmed = fitted.endsWith(region.eol) ? fitted.slice(0, -region.eol.length) : fitted;
  if (trimmed === "") return "";
  return endsWithBreak ? `${trimmed}${region.eol}` : trimmed;
}

/** The whole file with the region's lines replaced. */
export function editedText(region: EditRegion, replacement: string): string {
  return `${region.before}${fittedReplacement(region, replacement)}${region.after}`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** The changes the replacement makes to the replaced lines, as the review shows them hunk by hunk. */
export function replacementHunks(region: EditRegion, replacement: string): TextHunk[] {
  return computeHunks(region.selected, fittedReplacement(region, replacement));
}
