import type { ApprovalDiffView } from "../../src/panel/protocol";
import { element, visuallyHidden } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

type Segments = ApprovalDiffView["path"];

/**
 * A file change on an approval card, as a diff: the file in the header with how many lines go and come,
 * then each changed part with a line or two around it, removed lines marked "-" and added ones "+" (colour
 * is never the only sign). Long lines scroll inside the diff, never the panel. Text goes in as text nodes;
 * hidden characters arrive as marker segments and are highlighted as on the rest of the card.
 */
export function renderDiff(diff: ApprovalDiffView, localizer: Localizer): HTMLElement {
  const headerNote = diff.createsFile ? localizer.text("new file") : diff.unplaced ? localizer.text("replacements not found in the file as it is") : null;
  const header = element("div", { className: "diff-header" }, [
    icon("diff"),
    element("bdo", { className: "diff-path", attributes: { dir: "ltr" } }, diff.path.map(segmentNode)),
    headerNote === null ? null : element("span", { className: "diff-note", text: headerNote }),
    element("span", { className: "diff-counts" }, [
      element("span", { className: "diff-count-added", text: `+${diff.added}`, attributes: { "aria-hidden": "true" } }),
      element("span", { className: "diff-count-removed", text: ` −${diff.removed}`, attributes: { "aria-hidden": "true" } }),
      visuallyHidden(localizer.format("{0} lines added, {1} removed", diff.added, diff.removed)),
    ]),
  ]);
  const body = element(
    "div",
    { className: "diff-body", attributes: { tabindex: "0", role: "group", "aria-label": localizer.text("Proposed change") } },
    diff.hunks.flatMap((hunk, index) => [
      ...(hunk.originalLine === null && diff.hunks.length > 1 ? [element("div", { className: "diff-hunk-header", text: localizer.format("Replacement {0}", index + 1) })] : []),
      ...(hunk.originalLine !== null && hunk.proposedLine !== null ? [element("div", { className: "diff-hunk-header", text: localizer.format("Line {0}", hunk.proposedLine) })] : []),
      ...hunk.lines.map((line) =>
        element("div", { className: `diff-line diff-${line.kind}` }, [
          element("span", { className: "diff-sign", text: line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " " }),
          line.kind === "context" ? null : visuallyHidden(line.kind === "added" ? localizer.text("added:") : localizer.text("removed:")),
          element("bdo", { className: "diff-text", attributes: { dir: "ltr" } }, line.segments.map(segmentNode)),
        ]),
      ),
    ]),
  );
  const omitted = diff.omittedLines > 0 ? element("p", { className: "approval-note", text: localizer.plural(diff.omittedLines, "{0} more line is not shown here; the exact arguments below have it.", "{0} more lines are not shown here; the exact arguments below have them.") }) : null;
  return element("figure", { className: "approval-diff" }, [header, body, omitted]);
}

function segmentNode(segment: Segments[number]): Node {
  return segment.marker ? element("mark", { className: "hidden-character", text: segment.text }) : document.createTextNode(segment.text);
}
