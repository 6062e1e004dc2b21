import type Token from "markdown-it/lib/token.mjs";

/** The text node that shows the end of the open text, while that end is plain prose. */
export interface PlainTextTail {
  readonly textNode: Text;
  /** Offset in the open text up to which the text node shows it (trailing whitespace is not shown). */
  shownEnd: number;
}

// Characters that can never start, end or join markdown syntax, links or linkified URLs, whatever
// surrounds them. Everything else (including newlines) goes through a full render of the open block.
const plainCharactersPattern = /^[\p{L}\p{N} ,;?'".!]+$/u;
const plainCharacterPattern = /^[\p{L}\p{N},;?'"]$/u;
const letterPattern = /^\p{L}$/u;
const textContainers = new Set(["P", "LI", "TD", "TH", "H1", "H2", "H3", "H4", "H5", "H6"]);

/**
 * Finds the text node that ends the rendered open block, if the block's last inline token is plain text
 * that runs to the end of the source. Only then can more plain characters be appended to that node
 * without rendering.
 */
export function findPlainTextTail(openTokens: readonly Token[], openNodes: readonly Node[], openText: string): PlainTextTail | undefined {
  let inlineIndex = openTokens.length - 1;
  while (inlineIndex >= 0 && openTokens[inlineIndex]!.nesting === -1) inlineIndex--;
  const inline = openTokens[inlineIndex];
  const lastChild = inline?.type === "inline" ? inline.children?.[inline.children.length - 1] : undefined;
  if (lastChild?.type !== "text" || lastChild.content.length === 0) return undefined;
  const shownEnd = trimmedEnd(openText);
  if (!openText.startsWith(lastChild.content, shownEnd - lastChild.content.length)) return undefined;
  const textNode = lastTextNode(openNodes);
  if (textNode === undefined || !textNode.data.endsWith(lastChild.content)) return undefined;
  if (!textContainers.has(textNode.parentElement?.tagName ?? "")) return undefined;
  return { textNode, shownEnd };
}

// A list item, heading or table row marker that already has content after it decides its line's block; before the
// content arrives ("1. " alone) the line may still be paragraph text, so it is not skipped then.
const settledLineMarkerPattern = /^(?:[-+*]|\d{1,9}[.)]|#{1,6}|\|)$/;

/**
 * True when `delta`, appended to `openTextBefore`, only extends the plain text at its end: the delta is
 * plain, the current line's block is decided already (by its markers and a complete first word), and the
 * last word stays plain (so no link, entity, escape or delimiter run can form with what came before).
 */
export function extendsPlainText(openTextBefore: string, delta: string): boolean {
  if (!plainCharactersPattern.test(delta) || !sentenceEndsAreSafe(openTextBefore, delta)) return false;
  const lineStart = openTextBefore.lastIndexOf("\n") + 1;
  const contentStart = skipSettledLineMarkers(openTextBefore, lineStart);
  if (contentStart >= openTextBefore.length) return false;
  const firstWordEnd = findWordEnd(openTextBefore, contentStart);
  if (firstWordEnd < openTextBefore.length) {
    if (!isSettledFirstWord(openTextBefore, contentStart, firstWordEnd)) return false;
  } else {
    // This delta may complete the first word, which decides the line's block ("*" + " x" is a list item).
    const spaceInDelta = delta.search(/[ \t]/);
    if (spaceInDelta !== -1) {
      const firstWord = openTextBefore.slice(contentStart) + delta.slice(0, spaceInDelta);
      if (!isFinishedPlainWord(firstWord, 0, firstWord.length)) return false;
    }
  }
  if (isSpaceOrTab(delta.charCodeAt(0))) return true;
  let trailingWordStart = openTextBefore.length;
  while (trailingWordStart > lineStart && !isSpaceOrTab(openTextBefore.charCodeAt(trailingWordStart - 1))) trailingWordStart--;
  // The trailing word starts after whitespace, so a delimiter run at its start ("**bo" + "ld", "`co" + "de",
  // "[li" + "nk") can only open something, and its partner can only come in a delta that is not plain.
  while (trailingWordStart < openTextBefore.length && isOpeningCharacter(openTextBefore.charCodeAt(trailingWordStart))) trailingWordStart++;
  return isPlainWord(openTextBefore, trailingWordStart, openTextBefore.length);
}

// Skips quote markers and list item, heading and table row markers that are complete (followed by a space or
// tab), however they nest ("> - 1. text").
function skipSettledLineMarkers(text: string, lineStart: number): number {
  let contentStart = lineStart;
  for (;;) {
    contentStart = skipQuoteMarkersAndSpaces(text, contentStart);
    const wordEnd = findWordEnd(text, contentStart);
    if (wordEnd >= text.length || !settledLineMarkerPattern.test(text.slice(contentStart, wordEnd))) return contentStart;
    contentStart = wordEnd;
  }
}

// The first word of a line, once complete, has decided the line's block (list item, heading, quote, table row
// or paragraph text); plain text appended after it cannot change that. The exception is a word that opens with
// "[": a reference definition ("[a]: /url \"title") forms or not depending on the rest of the line.
function isSettledFirstWord(text: string, start: number, end: number): boolean {
  return text.charCodeAt(start) !== 0x5b || isFinishedPlainWord(text, start, end);
}

function isOpeningCharacter(code: number): boolean {
  return code === 0x2a || code === 0x5f || code === 0x7e || code === 0x60 || code === 0x5b || code === 0x28; // * _ ~ ` [ (
}

/**
 * Shows the open text up to its last character that is not a space or tab, which markdown-it drops. Returns
 * the text added to the node.
 */
export function showPlainText(tail: PlainTextTail, openText: string): string {
  const end = trimmedEnd(openText);
  const added = end > tail.shownEnd ? openText.slice(tail.shownEnd, end) : "";
  if (added.length > 0) tail.textNode.appendData(added);
  tail.shownEnd = end;
  return added;
}

// Only spaces and tabs: blocks disagree on other whitespace (tables trim U+00A0, paragraphs keep it), and
// a tail whose hidden end holds anything else simply fails the match in findPlainTextTail.
function trimmedEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isSpaceOrTab(text.charCodeAt(end - 1))) end--;
  return end;
}

function lastTextNode(openNodes: readonly Node[]): Text | undefined {
  let node: Node | null | undefined = openNodes[openNodes.length - 1];
  while (node) {
    // markdown-it puts a "\n" after every block tag; those are layout whitespace, not the text we want.
    if (node instanceof Text) {
      if (node.data === "\n" && node.previousSibling instanceof Element) node = node.previousSibling;
      else return node;
    } else {
      node = node.lastChild;
    }
  }
  return undefined;
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function skipQuoteMarkersAndSpaces(text: string, position: number): number {
  let cursor = position;
  while (cursor < text.length && (isSpaceOrTab(text.charCodeAt(cursor)) || text.charCodeAt(cursor) === 0x3e)) cursor++;
  return cursor;
}

function findWordEnd(text: string, position: number): number {
  let cursor = position;
  while (cursor < text.length && !isSpaceOrTab(text.charCodeAt(cursor))) cursor++;
  return cursor;
}

function isPlainWord(text: string, start: number, end: number): boolean {
  for (let position = start; position < end; position++) {
    if (!plainCharacterPattern.test(text.charAt(position))) return false;
  }
  return true;
}

// A full stop or exclamation mark is plain only where it ends a word after a letter: "end." cannot start
// a list ("1."), and a dot followed by more letters could make a linkified domain ("example.co").
function sentenceEndsAreSafe(openTextBefore: string, delta: string): boolean {
  for (let index = 0; index < delta.length; index++) {
    const character = delta.charAt(index);
    if (character !== "." && character !== "!") continue;
    const previous = index > 0 ? delta.charAt(index - 1) : openTextBefore.charAt(openTextBefore.length - 1);
    const next = delta.charAt(index + 1);
    if (!letterPattern.test(previous) || (next !== "" && next !== " ")) return false;
  }
  return true;
}

function isFinishedPlainWord(text: string, start: number, end: number): boolean {
  const last = text.charAt(end - 1);
  if ((last === "." || last === "!") && end - start >= 2 && letterPattern.test(text.charAt(end - 2))) {
    return isPlainWord(text, start, end - 1);
  }
  return isPlainWord(text, start, end);
}
