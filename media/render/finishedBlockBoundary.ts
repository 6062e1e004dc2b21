import type Token from "markdown-it/lib/token.mjs";

export interface FinishedBlockBoundary {
  /** Index of the first token of the first block that may still change. */
  readonly tokenIndex: number;
  /** Offset in the parsed text of the line where that block starts. */
  readonly textOffset: number;
}

// A partial line starting with one of these may still turn into a list item that continues the list
// above it, even across a blank line ("1. a\n\n2" becomes "1. a\n\n2. b").
const listMarkerStartPattern = /[-+*0-9]/;

/**
 * Finds where the finished top-level blocks of `text` end. A block is finished when the next top-level
 * block has started in a way later input cannot undo: after a blank line (with a first line that cannot
 * grow into a list item of the block above), or with a complete line that opens a fence or an ATX heading,
 * which interrupt anything and are decided by their own line. When in doubt the block stays open.
 * `tokens` must be markdown-it's block tokens of `text`.
 */
export function findFinishedBlockBoundary(tokens: readonly Token[], text: string): FinishedBlockBoundary | undefined {
  let lineOffsets: number[] | undefined;
  for (let index = tokens.length - 1; index > 0; index--) {
    const token = tokens[index]!;
    if (token.level !== 0 || token.nesting === -1 || token.map === null) continue;
    lineOffsets ??= computeLineOffsets(text);
    const startLine = token.map[0];
    const lineStart = lineOffsets[startLine];
    if (lineStart === undefined || startLine === 0) continue;
    if (startsBlockThatClosesThePrevious(token, text, lineStart, lineOffsets[startLine - 1]!)) {
      return { tokenIndex: index, textOffset: lineStart };
    }
  }
  return undefined;
}

function startsBlockThatClosesThePrevious(token: Token, text: string, lineStart: number, previousLineStart: number): boolean {
  const lineIsComplete = text.indexOf("\n", lineStart) !== -1;
  if (lineIsComplete && (token.type === "fence" || (token.type === "heading_open" && token.markup.startsWith("#")))) {
    return true;
  }
  if (!isBlankLine(text, previousLineStart, lineStart - 1)) return false;
  if (lineIsComplete) return true;
  const firstCharacter = text.charAt(skipSpacesAndTabs(text, lineStart));
  return firstCharacter !== "" && !listMarkerStartPattern.test(firstCharacter);
}

// Blank in markdown-it's sense: only spaces and tabs.
function isBlankLine(text: string, start: number, end: number): boolean {
  return skipSpacesAndTabs(text, start) >= end;
}

function skipSpacesAndTabs(text: string, position: number): number {
  let cursor = position;
  while (cursor < text.length) {
    const code = text.charCodeAt(cursor);
    if (code !== 0x20 && code !== 0x09) break;
    cursor++;
  }
  return cursor;
}

function computeLineOffsets(text: string): number[] {
  const offsets = [0];
  for (let position = text.indexOf("\n"); position !== -1; position = text.indexOf("\n", position + 1)) {
    offsets.push(position + 1);
  }
  return offsets;
}
