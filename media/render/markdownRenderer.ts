import { sanitizeHtmlToString } from "./htmlSanitizer";
import { getMarkdownParser } from "./markdownParser";

/** Renders a whole markdown text at once; the streaming view must always match this output. */
export function renderMarkdownToSafeHtml(markdown: string): string {
  return sanitizeHtmlToString(getMarkdownParser().render(markdown));
}
