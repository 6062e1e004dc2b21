// One reason to change: how the HTML our markdown renderer emits maps onto the DOM nodes the parser builds
// from it (tags, text runs, their nesting), which is what lets an update touch only what changed.
import { patchText, reconcileChildRange } from "./domReconciler";
import { createInertContainer } from "./htmlSanitizer";
import type { DetachedNodeSanitizer } from "./htmlSanitizer";

/**
 * Applies the difference between two renderings of the open block to the live DOM without parsing the
 * whole block again. `previousHtml` must be what the live nodes show (they were built from it and the
 * sanitizer changed nothing). The changed region is found by comparing the strings from both ends, widened
 * to whole tags and text runs, and then to whole elements until it is balanced in both versions; only that
 * region is touched: a text run is patched as text, anything else is parsed, sanitized and reconciled.
 * This works on the HTML our markdown renderer emits (`html: false`): text and attribute values are escaped,
 * so `<` and `>` only ever delimit tags, and the only entities are the four `escapeHtml` writes.
 *
 * Returns false when the change reaches the top level (or the live DOM does not have the shape the HTML
 * says); the caller then reconciles the whole block.
 */
export function patchChangedRegion(liveRoots: readonly Node[], previousHtml: string, nextHtml: string, sanitizer: DetachedNodeSanitizer): boolean {
  const region = findChangedRegion(previousHtml, nextHtml);
  if (region === undefined) return false;
  const position = locateRegion(liveRoots, region.openElements, region.parentDepth);
  if (position === undefined) return false;
  const { parent, offset } = position;
  const liveNodes: Node[] = [];
  for (let index = 0; index < region.previous.topLevelNodeCount; index++) {
    const node = parent.childNodes[offset + index];
    if (node === undefined) return false;
    liveNodes.push(node);
  }
  const nextText = nextHtml.slice(region.start, region.nextEnd);
  if (region.previous.isPlainText && region.next.isPlainText && region.next.topLevelNodeCount === 1 && liveNodes.length === 1 && liveNodes[0] instanceof Text) {
    patchText(liveNodes[0], decodeEscapedText(nextText));
    return true;
  }
  const container = parseInContext(nextText, parent.localName);
  if (container.childNodes.length !== region.next.topLevelNodeCount) return false;
  // The region is small, so it is sanitized whole, in one pass, before it is compared with the live nodes.
  const nextNodes = sanitizer.sanitizeChildren(container);
  const followingNode = liveNodes.length > 0 ? liveNodes[liveNodes.length - 1]!.nextSibling : (parent.childNodes[offset] ?? null);
  reconcileChildRange(parent, liveNodes, nextNodes, followingNode, (node) => [node]);
  return true;
}

/**
 * The open block's HTML after `text` was appended to the text node that ends it (the plain-text fast path):
 * the text goes at the end of the last text run, before the closing tags and line breaks that follow it.
 */
export function appendToLastTextRun(html: string, text: string): string {
  let end = html.length;
  for (;;) {
    if (end > 0 && html.charCodeAt(end - 1) === 0x0a) {
      end--;
    } else if (end > 0 && html.charCodeAt(end - 1) === 0x3e) {
      const tagStart = html.lastIndexOf("<", end - 1);
      if (html.charCodeAt(tagStart + 1) !== 0x2f) break;
      end = tagStart;
    } else {
      break;
    }
  }
  return html.slice(0, end) + escapeText(text) + html.slice(end);
}

interface RegionShape {
  /** Text runs and elements directly in the region, which are the DOM nodes it stands for. */
  readonly topLevelNodeCount: number;
  readonly isPlainText: boolean;
  /** How far the region closes elements opened before it (0 or negative). */
  readonly lowestDepth: number;
  /** Elements the region leaves open. */
  readonly finalDepth: number;
}

interface OpenElement {
  readonly name: string;
  /** Index among its parent's child nodes (for the outermost: among the live roots). */
  readonly index: number;
  readonly tagStart: number;
  childCount: number;
}

interface ChangedRegion {
  /** Where the region starts in both versions (the text before it is the same). */
  readonly start: number;
  readonly previousEnd: number;
  readonly nextEnd: number;
  readonly previous: RegionShape;
  readonly next: RegionShape;
  /** The elements open at the original start; the region's parent is `openElements[parentDepth - 1]`. */
  readonly openElements: readonly OpenElement[];
  readonly parentDepth: number;
}

interface RegionPosition {
  readonly parent: Element;
  /** Index in `parent.childNodes` of the region's first node. */
  readonly offset: number;
}

const voidElements = new Set(["br", "hr", "img", "input", "wbr"]);

function findChangedRegion(previousHtml: string, nextHtml: string): ChangedRegion | undefined {
  let start = tokenStartAtOrBefore(nextHtml, commonPrefixLength(previousHtml, nextHtml));
  const suffixLength = commonSuffixLength(previousHtml, nextHtml, Math.min(previousHtml.length, nextHtml.length) - start);
  let nextEnd = tokenEndAtOrAfter(nextHtml, nextHtml.length - suffixLength);
  const openElements = openElementsAt(nextHtml, start);
  let previous = scanRegion(previousHtml, start, previousHtml.length - (nextHtml.length - nextEnd));
  let next = scanRegion(nextHtml, start, nextEnd);
  if (previous === undefined || next === undefined) return undefined;
  // A region that closes elements opened before it grows to start at the outermost one's start tag...
  const parentDepth = openElements.length + Math.min(previous.lowestDepth, next.lowestDepth);
  if (parentDepth <= 0) return undefined;
  if (parentDepth < openElements.length) {
    start = openElements[parentDepth]!.tagStart;
    previous = scanRegion(previousHtml, start, previousHtml.length - (nextHtml.length - nextEnd));
    next = scanRegion(nextHtml, start, nextEnd);
    if (previous === undefined || next === undefined) return undefined;
  }
  // ...and one that leaves elements open grows through the shared text that closes them.
  if (next.finalDepth !== previous.finalDepth || next.lowestDepth < 0 || previous.lowestDepth < 0) return undefined;
  if (next.finalDepth > 0) {
    const closedEnd = skipUntilClosed(nextHtml, nextEnd, next.finalDepth);
    if (closedEnd === undefined) return undefined;
    nextEnd = closedEnd;
    previous = scanRegion(previousHtml, start, previousHtml.length - (nextHtml.length - nextEnd));
    next = scanRegion(nextHtml, start, nextEnd);
    if (previous === undefined || next === undefined || previous.finalDepth !== 0 || next.finalDepth !== 0) return undefined;
  }
  return { start, previousEnd: previousHtml.length - (nextHtml.length - nextEnd), nextEnd, previous, next, openElements, parentDepth };
}

function commonPrefixLength(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let length = 0;
  while (length < limit && left.charCodeAt(length) === right.charCodeAt(length)) length++;
  return length;
}

function commonSuffixLength(left: string, right: string, limit: number): number {
  let length = 0;
  while (length < limit && left.charCodeAt(left.length - 1 - length) === right.charCodeAt(right.length - 1 - length)) length++;
  return length;
}

// The start of the tag or text run that holds `position`; decided by the text before it, which both versions share.
function tokenStartAtOrBefore(html: string, position: number): number {
  const tagStart = html.lastIndexOf("<", position - 1);
  const tagEnd = html.lastIndexOf(">", position - 1);
  return tagStart > tagEnd ? tagStart : tagEnd + 1;
}

// The end of the tag or text run that holds the character before `position`; decided by the shared text after it.
function tokenEndAtOrAfter(html: string, position: number): number {
  const nextTagStart = html.indexOf("<", position);
  const nextTagEnd = html.indexOf(">", position);
  if (nextTagEnd !== -1 && (nextTagStart === -1 || nextTagEnd < nextTagStart)) return nextTagEnd + 1;
  return nextTagStart === -1 ? html.length : nextTagStart;
}

/** Counts the region's top-level nodes and how it nests; undefined when it cuts a tag. */
function scanRegion(html: string, start: number, end: number): RegionShape | undefined {
  let depth = 0;
  let lowestDepth = 0;
  let topLevelNodeCount = 0;
  let isPlainText = true;
  let position = start;
  while (position < end) {
    if (html.charCodeAt(position) !== 0x3c) {
      if (depth === lowestDepth) topLevelNodeCount++;
      position = Math.min(end, nextTagStart(html, position));
      continue;
    }
    isPlainText = false;
    const tagEnd = html.indexOf(">", position);
    if (tagEnd === -1 || tagEnd >= end) return undefined;
    if (html.charCodeAt(position + 1) === 0x2f) {
      depth--;
      if (depth < lowestDepth) {
        lowestDepth = depth;
        // Nodes counted so far belong to an element the region closes; the count restarts above it.
        topLevelNodeCount = 0;
      }
    } else {
      if (depth === lowestDepth) topLevelNodeCount++;
      if (!voidElements.has(tagName(html, position, tagEnd))) depth++;
    }
    position = tagEnd + 1;
  }
  return { topLevelNodeCount, isPlainText, lowestDepth, finalDepth: depth - lowestDepth };
}

function skipUntilClosed(html: string, position: number, openCount: number): number | undefined {
  let cursor = position;
  let open = openCount;
  while (open > 0) {
    if (cursor >= html.length) return undefined;
    if (html.charCodeAt(cursor) !== 0x3c) {
      cursor = nextTagStart(html, cursor);
      continue;
    }
    const tagEnd = html.indexOf(">", cursor);
    if (tagEnd === -1) return undefined;
    if (html.charCodeAt(cursor + 1) === 0x2f) open--;
    else if (!voidElements.has(tagName(html, cursor, tagEnd))) open++;
    cursor = tagEnd + 1;
  }
  return cursor;
}

/** The elements open at `position`, outermost first: each start tag before it is an element, each text run a text node. */
function openElementsAt(html: string, position: number): OpenElement[] {
  const openElements: OpenElement[] = [];
  let topLevelCount = 0;
  let cursor = 0;
  while (cursor < position) {
    const current = openElements[openElements.length - 1];
    if (html.charCodeAt(cursor) !== 0x3c) {
      if (current) current.childCount++;
      else topLevelCount++;
      cursor = nextTagStart(html, cursor);
      continue;
    }
    const tagEnd = html.indexOf(">", cursor);
    if (html.charCodeAt(cursor + 1) === 0x2f) {
      openElements.pop();
    } else {
      const name = tagName(html, cursor, tagEnd);
      const index = current ? current.childCount++ : topLevelCount++;
      if (!voidElements.has(name)) openElements.push({ name, index, tagStart: cursor, childCount: 0 });
    }
    cursor = tagEnd + 1;
  }
  return openElements;
}

/**
 * Follows the open elements down the live DOM to the region's parent, exactly as the HTML parser builds them
 * from our renderer's output. Undefined when the live DOM does not have that shape (it was not built from
 * this HTML).
 */
function locateRegion(liveRoots: readonly Node[], openElements: readonly OpenElement[], parentDepth: number): RegionPosition | undefined {
  const [outermost] = openElements;
  const root = outermost === undefined ? undefined : liveRoots[outermost.index];
  if (!(root instanceof Element) || root.localName !== outermost!.name) return undefined;
  let parent: Element = root;
  for (let depth = 1; depth < parentDepth; depth++) {
    const element = openElements[depth]!;
    const child: Node | undefined = parent.childNodes[element.index];
    if (!(child instanceof Element) || child.localName !== element.name) return undefined;
    parent = child;
  }
  const regionStartElement = openElements[parentDepth];
  return { parent, offset: regionStartElement === undefined ? openElements[parentDepth - 1]!.childCount : regionStartElement.index };
}

function nextTagStart(html: string, position: number): number {
  const next = html.indexOf("<", position);
  return next === -1 ? html.length : next;
}

function tagName(html: string, tagStart: number, tagEnd: number): string {
  let nameEnd = tagStart + 1;
  while (nameEnd < tagEnd && html.charCodeAt(nameEnd) !== 0x20) nameEnd++;
  return html.slice(tagStart + 1, nameEnd).toLowerCase();
}

const escapedCharacters: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"' };
const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

// What markdown-it's escapeHtml writes for text.
function escapeText(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (character) => escapes[character]!) : text;
}

function decodeEscapedText(text: string): string {
  return text.indexOf("&") === -1 ? text : text.replace(/&(?:amp|lt|gt|quot);/g, (entity) => escapedCharacters[entity]!);
}

let parsingTemplate: HTMLTemplateElement | undefined;
const tableParts = new Set(["table", "thead", "tbody", "tr"]);

/**
 * Parses a fragment that belongs inside a `parentName` element into a detached div of the inert document
 * (nothing runs or loads). Table rows and cells only parse in a table context, which a template gives; the
 * common case takes the parser's fast path for a div.
 */
function parseInContext(html: string, parentName: string): HTMLDivElement {
  const container = createInertContainer();
  if (!tableParts.has(parentName)) {
    container.innerHTML = html;
    return container;
  }
  parsingTemplate ??= container.ownerDocument.createElement("template");
  parsingTemplate.innerHTML = html;
  container.append(...Array.from(parsingTemplate.content.childNodes));
  return container;
}
