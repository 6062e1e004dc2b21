import MarkdownIt from "markdown-it";
import type { RenderRule } from "markdown-it/lib/renderer.mjs";
import { renderFencedCodeBlock } from "./codeBlockMarkup";
import { isAllowedLinkTarget } from "./linkPolicy";

let sharedParser: MarkdownIt | undefined;

/** The one markdown-it configuration used by both the one-shot and the streaming path. */
export function getMarkdownParser(): MarkdownIt {
  sharedParser ??= createMarkdownParser();
  return sharedParser;
}

function createMarkdownParser(): MarkdownIt {
  const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
  // Only what the model wrote as an address with its scheme becomes a link: fuzzy matching would turn file
  // names into web sites (`.md`, `.py`, `.rs` and `.sh` are top-level domains, so README.md -> http://readme.md/).
  markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  const { escapeHtml, unescapeAll } = markdown.utils;
  // Links the policy refuses stay literal text instead of becoming dead anchors.
  markdown.validateLink = isAllowedLinkTarget;

  const rules = markdown.renderer.rules;
  rules.link_open = (tokens, index) => {
    const token = tokens[index]!;
    const target = token.attrGet("href") ?? "";
    const title = token.attrGet("title");
    const targetAttribute = isAllowedLinkTarget(target) ? ` data-href="${escapeHtml(target)}"` : "";
    const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
    return `<a${targetAttribute}${titleAttribute}>`;
  };
  // Remote images would leak the user's address to whoever the model names; show a placeholder instead.
  rules.image = (tokens, index, options, env, renderer) => {
    const token = tokens[index]!;
    const description = escapeHtml(renderer.renderInlineAsText(token.children ?? [], options, env) || "image");
    const source = token.attrGet("src") ?? "";
    return isAllowedLinkTarget(source)
      ? `<a class="image-placeholder" data-href="${escapeHtml(source)}">[image: ${description}]</a>`
      : `<span class="image-placeholder">[image: ${description}]</span>`;
  };
  rules.fence = (tokens, index) => renderFencedCodeBlock(tokens[index]!, { escapeHtml, unescapeAll });
  // The panel's CSP forbids inline styles, so table alignment travels as a class.
  const renderAlignedCell: RenderRule = (tokens, index, options, _env, renderer) => {
    const token = tokens[index]!;
    const style = token.attrGet("style");
    if (style !== null) {
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
      const alignment = /^text-align:(left|right|center)$/.exec(style)?.[1];
      if (alignment) token.attrJoin("class", `align-${alignment}`);
    }
    return renderer.renderToken(tokens, index, options);
  };
  rules.th_open = renderAlignedCell;
  rules.td_open = renderAlignedCell;
  return markdown;
}
