import DOMPurify from "dompurify";
import type { Config, DOMPurify as Purifier } from "dompurify";

// An allow-list of what our markdown-it configuration emits; anything else is model-supplied and dropped.
const allowedTags = [
  "a", "blockquote", "br", "code", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
  "ol", "p", "pre", "s", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
];
// `href` is deliberately absent: links carry `data-href` and never navigate the webview.
const allowedAttributes = ["class", "data-file", "data-href", "data-language", "start", "title"];
// Attributes whose values are not URLs; without this DOMPurify would test them against the URL pattern.
const nonUrlAttributes = ["data-file", "data-language", "start"];

const baseConfig: Config = {
  ALLOWED_TAGS: allowedTags,
  ALLOWED_ATTR: allowedAttributes,
  ADD_URI_SAFE_ATTR: nonUrlAttributes,
  FORBID_TAGS: ["style", "script", "iframe", "frame", "form", "input", "object", "embed", "svg", "math", "img", "template"],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: /^(?:https?:\/\/|mailto:)/i,
};
const inPlaceConfig: Config = { ...baseConfig, IN_PLACE: true };

let stringPurifier: Purifier | undefined;
let inPlacePurifier: Purifier | undefined;
let inertDocument: Document | undefined;
let sanitizeCallsOnInertDocument = 0;
// DOMPurify attaches a NodeIterator to the document of every tree it sanitizes, and Chromium tells every
// iterator still alive (until garbage collection) about each node removed from that document, so moving
// sanitized nodes out of one shared document costs more with every call (measured: 0.01 ms growing to
// 1 ms per insert). A fresh document every few dozen calls keeps that bounded.
const sanitizeCallsPerInertDocument = 32;

// Each purifier gets its config once (setConfig) so a call does not pay for re-parsing the config;
// DOMPurify then ignores the per-call config, which is passed only to select the return type.
function createPurifier(config: Config): Purifier {
  const purifier = DOMPurify(window);
  purifier.setConfig(config);
  return purifier;
}

export function sanitizeHtmlToString(html: string): string {
  stringPurifier ??= createPurifier(baseConfig);
  return stringPurifier.sanitize(html, baseConfig);
}

// A document without a browsing context: parsing into it runs no script and loads nothing.
function getInertDocument(): Document {
  inertDocument ??= document.implementation.createHTMLDocument("");
  return inertDocument;
}

/**
 * Parses HTML from our markdown renderer into an inert document (no scripts run, nothing loads), WITHOUT
 * sanitizing. The nodes must reach the live DOM only through a `DetachedNodeSanitizer` (the streaming view's
 * reconciler does so for everything it inserts). The document is reused across calls because creating one
 * per call is what dominates for small blocks.
 */
export function parseUnsanitizedHtml(html: string): Node[] {
  if (html.length === 0) return [];
  const root = getInertDocument().createElement("div");
  root.innerHTML = html;
  return Array.from(root.childNodes);
}

/**
 * Same policy as `sanitizeHtmlToString`, applied to detached nodes (and their subtrees) from
 * `parseUnsanitizedHtml`, one at a time. Remembers whether the policy had to remove anything, because
 * then the live DOM no longer matches the HTML it was parsed from.
 */
export class DetachedNodeSanitizer {
  removedSomething = false;

  /** What is left of `node`: nothing, the node, or the content of a dropped element. */
  readonly sanitize = (node: Node): Node[] => {
    // A text node carries no markup; the sanitizer would return it unchanged.
    if (node.nodeType === Node.TEXT_NODE) return [node];
    const root = getInertDocument().createElement("div");
    root.appendChild(node);
    return this.sanitizeChildren(root);
  };

  /** Sanitizes the children of `root`, a detached div of the inert document, in one pass; returns them. */
  sanitizeChildren(root: HTMLDivElement): Node[] {
    inPlacePurifier ??= createPurifier(inPlaceConfig);
    inPlacePurifier.sanitize(root, inPlaceConfig);
    if (++sanitizeCallsOnInertDocument >= sanitizeCallsPerInertDocument) {
      inertDocument = undefined;
      sanitizeCallsOnInertDocument = 0;
    }
    if (inPlacePurifier.removed.length > 0) this.removedSomething = true;
    return Array.from(root.childNodes);
  }
}

/** A detached div of the inert document, to parse into or to gather nodes in before `sanitizeChildren`. */
export function createInertContainer(): HTMLDivElement {
  return getInertDocument().createElement("div");
}

// The syntax highlighter emits only spans with token classes around escaped text; nothing else survives.
const highlightedCodeConfig: Config = { ...inPlaceConfig, ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"], ADD_URI_SAFE_ATTR: [] };
let highlightedCodePurifier: Purifier | undefined;

/**
 * The highlighter's HTML for one code block as sanitized nodes of the live document: only `<span class>` and
 * text are kept, so even a compromised highlighter cannot add markup that runs, loads or navigates.
 */
export function sanitizeHighlightedCode(html: string): Node[] {
  highlightedCodePurifier ??= createPurifier(highlightedCodeConfig);
  // A span root: DOMPurify refuses to sanitize in place a root element its policy does not allow.
  const root = getInertDocument().createElement("span");
  root.innerHTML = html;
  highlightedCodePurifier.sanitize(root, highlightedCodeConfig);
  // Cloned, not moved: nothing is removed from the inert document (see sanitizeCallsPerInertDocument).
  return Array.from(document.importNode(root, true).childNodes);
}
