import type { AttachmentKind, AttachmentTarget, AttachmentTextView, ToHost } from "../../src/panel/protocol";
import { contextIcon } from "./contextOptions";
import { element, uniqueId } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";

/** A chip as the page shows it, before the host sent its text. */
export interface PeekedChip {
  target: AttachmentTarget;
  kind: AttachmentKind;
  label: string;
}

/** Where the peek shows: above the message box (a chip waiting to be sent) or under a sent message's chips. */
export type PeekPlace = { popupIn: HTMLElement } | { after: HTMLElement };

/**
 * An opened chip: exactly the text it adds to the request (the host sends the block as the message carries it)
 * and about how many tokens that is. One is open at a time; clicking its chip again, Close or Escape closes it
 * and gives the focus back to the chip.
 */
export class AttachmentPeek {
  readonly root: HTMLElement;
  private readonly title = element("span", { className: "attachment-peek-title" });
  private readonly tokens = element("span", { className: "attachment-peek-tokens" });
  private readonly caption = element("div", { className: "attachment-peek-caption" });
  private readonly note = element("div", { className: "attachment-peek-note" });
  private readonly text = element("pre", { className: "attachment-peek-text", attributes: { tabindex: "0" } });
  private readonly kindIcon = element("span", { className: "attachment-peek-icon" });
  private open: { chip: PeekedChip; opener: HTMLElement } | null = null;

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {
    this.root = element("section", { className: "attachment-peek", attributes: { id: uniqueId("attachment-peek") } }, [
      element("div", { className: "attachment-peek-header" }, [this.kindIcon, this.title, this.tokens, iconButton("close", localizer.text("Close"), () => this.close(true), "attachment-peek-close")]),
      this.caption,
      this.note,
      this.text,
    ]);
    this.root.hidden = true;
    this.root.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      this.close(true);
    });
  }

  get id(): string {
    return this.root.id;
  }

  /** Opens `chip` (its button `opener`) at `place`, or closes it when it is the one open. */
  toggle(chip: PeekedChip, opener: HTMLElement, place: PeekPlace): void {
    const same = this.open !== null && JSON.stringify(this.open.chip.target) === JSON.stringify(chip.target);
    this.close(false);
    if (same) return;
    this.open = { chip, opener };
    opener.setAttribute("aria-expanded", "true");
    this.root.classList.toggle("popup", "popupIn" in place);
    if ("popupIn" in place) place.popupIn.append(this.root);
    else place.after.after(this.root);
    this.root.setAttribute("aria-label", this.localizer.format("What {0} adds to the message", chip.label));
    this.kindIcon.replaceChildren(icon(contextIcon(chip.kind)));
    this.title.textContent = chip.label;
    this.tokens.textContent = "";
    this.caption.textContent = "";
    this.note.textContent = "";
    this.note.hidden = true;
    this.text.hidden = false;
    this.text.textContent = "…";
    this.root.hidden = false;
    this.post({ type: "openAttachment", target: chip.target });
  }

  /** The host's answer; an answer for a chip that is not open any more is dropped. */
  received(target: AttachmentTarget, attachment: AttachmentTextView | null): void {
    const open = this.open;
    if (open === null || JSON.stringify(open.chip.target) !== JSON.stringify(target)) return;
    if (attachment === null) {
      this.caption.textContent = this.localizer.text("This attachment is not there any more.");
      this.text.textContent = "";
      this.text.hidden = true;
      return;
    }
    this.text.hidden = false;
    this.title.textContent = attachment.label;
    this.tokens.textContent = this.localizer.format("≈{0} tokens", this.localizer.number(attachment.tokens));
    this.caption.textContent =
      target.place === "sent" ? this.localizer.text("Sent to the model inside this message, exactly as below.") : this.localizer.text("Goes to the model inside your message, exactly as below.");
    this.note.textContent = attachment.note ?? "";
    this.note.hidden = attachment.note === undefined;
    this.text.textContent = attachment.text;
  }

  /** Closes the peek; `refocus` gives the focus back to the chip that opened it. */
  close(refocus: boolean): void {
    const open = this.open;
    this.open = null;
    this.root.hidden = true;
    this.root.remove();
    if (open === null) return;
    open.opener.setAttribute("aria-expanded", "false");
    if (refocus && open.opener.isConnected) open.opener.focus();
  }

  /** The chip that opened the peek was drawn again: the new one points at the peek (a sent message drawn again closes it). */
  adopt(target: AttachmentTarget, opener: HTMLElement): void {
    if (this.open === null || JSON.stringify(this.open.chip.target) !== JSON.stringify(target)) return;
    if (!this.root.isConnected) {
      this.close(false);
      return;
    }
    this.open.opener = opener;
    opener.setAttribute("aria-expanded", "true");
  }

  /** Closes the peek when its chip is one of the message box's and `shown` no longer lists it (removed, or sent). */
  closeIfGone(shown: (target: AttachmentTarget) => boolean): void {
    const open = this.open;
    if (open !== null && open.chip.target.place !== "sent" && !shown(open.chip.target)) this.close(false);
  }
}

/** The button of a chip that opens its peek; `content` is the chip's icon and label. */
export function chipOpener(peek: AttachmentPeek, chip: PeekedChip, content: readonly Node[], localizer: Localizer, place: () => PeekPlace): HTMLButtonElement {
  const opener = element("button", {
    className: "chip-open",
    attributes: { type: "button", "aria-expanded": "false", "aria-controls": peek.id, "aria-label": localizer.format("Show what {0} adds to the message", chip.label) },
  }, [...content]);
  opener.addEventListener("click", () => peek.toggle(chip, opener, place()));
  peek.adopt(chip.target, opener);
  return opener;
}
