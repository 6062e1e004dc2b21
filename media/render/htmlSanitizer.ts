import DOMPurify from "dompurify";
import type { Config, DOMPurify as Purifier } from "dompurify";

// An allow-list of what our markdown-it configuration emits; anything else is model-supplied and dropped.
const allowedTags = [
  "a", "blockquote", "br", "button", "code", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
  "ol", "p", "pre", "s", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
];
// `href` is deliberately absent: links carry `data-href` and never navigate the webview.
const allowedAttributes = ["class", "data-action", "data-href", "data-language", "start", "title", "type"];
// Attributes whose values are not URLs; without this DOMPurify would test them against the URL pattern.
const nonUrlAttributes = ["data-action", "data-language", "start", "type"];

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

/**
 * Same policy as `sanitizeHtmlToString`, but hands back nodes, so the caller skips serializing and parsing
 * again. The HTML is parsed into the inert document that owns template contents (no scripts, no loads),
 * reused across calls because creating a document per call is what dominates for small blocks.
 */
export function sanitizeHtmlToNodes(html: string): Node[] {
  inPlacePurifier ??= createPurifier(inPlaceConfig);
  inertDocument ??= document.createElement("template").content.ownerDocument;
  const root = inertDocument.createElement("div");
  root.innerHTML = html;
  inPlacePurifier.sanitize(root, inPlaceConfig);
  return Array.from(root.childNodes);
}
