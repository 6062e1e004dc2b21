import type { AttachmentView, ToHost } from "../../src/panel/protocol";
import type { AttachmentPeek } from "./attachmentPeek";
import { chipOpener } from "./attachmentPeek";
import { chipTitle, contextIcon, redactedMarker } from "./contextOptions";
import { element } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";

/** What the chips above the message box show. */
export interface ComposerChipsState {
  readonly attachments: readonly AttachmentView[];
  readonly selectionOffer: { label: string } | null;
  /** The active editor's file, sent with the message unless removed. */
  readonly activeFileOffer: { label: string } | null;
}

/**
 * The chips above the message box: the active editor's file (unless attached already: then it goes once, as
 * attached), the attachments, and the selection offered with one click. A chip's name opens it (what it adds to
 * the message: `peek`, shown above the box, `popupIn`), its close button takes it off the message.
 */
export function renderComposerChips(state: ComposerChipsState, localizer: Localizer, post: (message: ToHost) => void, peek: AttachmentPeek, popupIn: HTMLElement): HTMLElement[] {
  const opened = (target: Parameters<typeof chipOpener>[1]["target"], kind: AttachmentView["kind"], label: string, content: Node[]) => chipOpener(peek, { target, kind, label }, content, localizer, () => ({ popupIn }));
  const chips = state.attachments.map((attachment) =>
    element("span", { className: `chip${attachment.note === undefined ? "" : " noted"}${attachment.redacted ? " redacted" : ""}`, attributes: { title: chipTitle(attachment, localizer) } }, [
      opened({ place: "pending", id: attachment.id }, attachment.kind, attachment.label, [icon(contextIcon(attachment.kind)), element("span", { className: "chip-label", text: attachment.label }), ...redactedMarker(attachment, localizer)]),
      iconButton("close", localizer.format("Remove {0}", attachment.label), () => post({ type: "removeAttachment", id: attachment.id }), "chip-remove"),
    ]),
  );
  const activeFile = state.activeFileOffer;
  const activeFileShown = activeFile !== null && !state.attachments.some((attachment) => attachment.kind === "file" && attachment.label === activeFile.label);
  if (activeFileShown) {
    const content = [icon("file"), element("span", { className: "chip-label", text: activeFile.label }), element("span", { className: "chip-description", text: localizer.text("Current file") })];
    chips.unshift(
      element("span", { className: "chip active-file", attributes: { title: localizer.format("{0} (current file): sent with your message", activeFile.label) } }, [
        opened({ place: "activeFile" }, "file", activeFile.label, content),
        iconButton("close", localizer.format("Remove {0}", activeFile.label), () => post({ type: "removeActiveFile" }), "chip-remove"),
      ]),
    );
  }
  const offer = state.selectionOffer;
  // The selection is offered unless it is attached already.
  if (offer !== null && !state.attachments.some((attachment) => attachment.kind === "selection" && attachment.label === offer.label)) {
    const label = localizer.format("Attach selection {0}", offer.label);
    const offered = element("button", { className: "chip offered", attributes: { type: "button", title: label, "aria-label": label } }, [icon("add"), icon("selection"), element("span", { className: "chip-label", text: offer.label })]);
    offered.addEventListener("click", () => post({ type: "attachSelection" }));
    chips.push(offered);
  }
  // An opened chip that is not shown any more (removed, or gone with the message) closes.
  peek.closeIfGone((target) => (target.place === "pending" ? state.attachments.some((attachment) => attachment.id === target.id) : activeFileShown));
  return chips;
}
