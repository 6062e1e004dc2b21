import type { RulesView, ToHost } from "../../src/panel/protocol";
import { button, element, uniqueId } from "./dom";
import { icon } from "./icons";
import { REDACTED_NOTE, redactedMarker } from "./contextOptions";
import type { Localizer } from "./localizer";

/**
 * The Rules chip in the message box: how many project rules files go with the next message and what all the
 * instructions add (the same figure "What the model is told" gives). Clicking it lists the files, each with a
 * switch that takes it out of this conversation's requests, and a link to the whole text.
 */
export class RulesChip {
  readonly chip: HTMLButtonElement;
  /** The list, placed above the message box like the `#` picker. */
  readonly popup: HTMLElement;
  private readonly chipLabel = element("span", { className: "chip-label" });
  private readonly chipDescription = element("span", { className: "chip-description" });
  private view: RulesView | null = null;

  constructor(private readonly localizer: Localizer, private readonly post: (message: ToHost) => void) {
    const popupId = uniqueId("rules-list");
    this.chip = element("button", { className: "chip rules-chip", attributes: { type: "button", "aria-haspopup": "true", "aria-expanded": "false", "aria-controls": popupId } }, [icon("book"), this.chipLabel, this.chipDescription]);
    this.chip.addEventListener("click", () => this.toggle());
    this.popup = element("div", { className: "rules-popup", attributes: { id: popupId, role: "group" } });
    this.popup.hidden = true;
    this.popup.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      this.close();
      this.chip.focus();
    });
    document.addEventListener("mousedown", (event) => {
      if (this.popup.hidden || !(event.target instanceof Node)) return;
      if (!this.popup.contains(event.target) && !this.chip.contains(event.target)) this.close();
    });
  }

  /** Shows `view` (null hides the chip and its list). */
  update(view: RulesView | null): void {
    this.view = view;
    this.chip.hidden = view === null;
    if (view === null) {
      this.close();
      return;
    }
    const sent = view.files.filter((file) => !file.off && !file.left);
    const cut = view.files.some((file) => file.cut !== null || file.left);
    this.chipLabel.textContent = view.untrusted ? this.localizer.text("Rules off") : this.localizer.plural(sent.length, "{0} rules file", "{0} rules files");
    this.chipDescription.textContent = cut ? this.localizer.text("cut") : "";
    const title = view.untrusted
      ? this.localizer.text("This workspace is not trusted: its project rules files are not sent.")
      : this.localizer.format("What the model is told with your next message: about {0} tokens, rules files included. Click to choose the rules files for this conversation.", this.localizer.number(view.instructionTokens));
    this.chip.title = title;
    this.chip.setAttribute("aria-label", `${this.chipLabel.textContent}. ${title}`);
    if (!this.popup.hidden) this.renderList();
  }

  close(): void {
    this.popup.hidden = true;
    this.chip.setAttribute("aria-expanded", "false");
  }

  private toggle(): void {
    if (!this.popup.hidden) {
      this.close();
      return;
    }
    this.renderList();
    this.popup.hidden = false;
    this.chip.setAttribute("aria-expanded", "true");
    this.popup.querySelector<HTMLElement>("input, button")?.focus();
  }

  private renderList(): void {
    const view = this.view;
    if (view === null) return;
    const rows = view.files.map((file) => {
      const box = element("input", { attributes: { type: "checkbox" } });
      box.checked = !file.off;
      box.addEventListener("change", () => this.post({ type: "setRuleFile", id: file.id, on: box.checked }));
      const note = file.off
        ? this.localizer.text("off for this conversation")
        : file.left
          ? this.localizer.text("left out: the total limit was reached")
          : file.cut !== null
            ? this.localizer.format("cut: {0} of {1} characters sent", this.localizer.number(file.cut.keptChars), this.localizer.number(file.cut.totalChars))
            : this.localizer.format("≈{0} tokens", this.localizer.number(file.tokens));
      const title = file.redacted ? `${file.source}\n${this.localizer.text(REDACTED_NOTE)}` : file.source;
      return element("label", { className: `rules-file${file.redacted ? " redacted" : ""}`, attributes: { title } }, [
        box,
        element("span", { className: "rules-file-name", text: file.source }),
        ...redactedMarker(file, this.localizer),
        element("span", { className: "rules-file-note", text: note }),
      ]);
    });
    const heading = view.untrusted
      ? this.localizer.text("This workspace is not trusted: its project rules files are not sent.")
      : this.localizer.format("Sent with your next message in this conversation (about {0} tokens of instructions in all):", this.localizer.number(view.instructionTokens));
    this.popup.replaceChildren(
      element("div", { className: "rules-heading", text: heading }),
      ...rows,
      button(this.localizer.text("What the model is told"), () => {
        this.close();
        this.post({ type: "showInstructions" });
      }, { className: "link-button rules-show-all" }),
    );
  }
}
