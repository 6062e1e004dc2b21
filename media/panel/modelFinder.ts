import { element, showListOptions, uniqueId } from "./dom";
import { iconButton } from "./icons";
import type { Localizer } from "./localizer";

/** A model the finder offers: its id, and the relay it is on when there are several. */
export interface ModelEntry {
  readonly model: string;
  readonly relay: string | null;
}

/** From this many models on, the picker offers the finder beside its list. */
export const FINDER_FROM_MODELS = 10;

/** The entries whose model id and relay name hold every word of `query` (any case, any order). */
export function matchModels(entries: readonly ModelEntry[], query: string): ModelEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word !== "");
  return entries.filter((entry) => {
    const haystack = `${entry.model} ${entry.relay ?? ""}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/**
 * A filterable list of models for relays that list many: a text box (a combobox pointing at the highlighted
 * option with aria-activedescendant) above the matching models, each with its relay. Typing filters, Up/Down
 * move, Enter picks, Escape closes and gives the focus back to the button that opened it.
 */
export class ModelFinder {
  readonly root: HTMLElement;
  readonly button: HTMLButtonElement;
  private readonly input: HTMLInputElement;
  private readonly list: HTMLElement;
  /** How many models match, read out politely (not the page's status region, which tells of answers). */
  private readonly status = element("div", { className: "visually-hidden model-finder-count", attributes: { "aria-live": "polite" } });
  private entries: ModelEntry[] = [];
  private shown: ModelEntry[] = [];
  private active = 0;

  constructor(
    private readonly localizer: Localizer,
    private readonly pick: (entry: ModelEntry) => void,
  ) {
    const listId = uniqueId("model-finder");
    this.button = iconButton("search", localizer.text("Find a model…"), () => (this.isOpen ? this.close() : this.open()), "model-finder-button");
    this.button.setAttribute("aria-haspopup", "listbox");
    this.input = element("input", {
      className: "model-finder-input",
      attributes: { type: "text", role: "combobox", "aria-label": localizer.text("Find a model"), placeholder: localizer.text("Type to filter models"), "aria-autocomplete": "list", "aria-controls": listId, "aria-expanded": "true", spellcheck: "false" },
    });
    this.list = element("div", { className: "model-finder-list", attributes: { id: listId, role: "listbox", "aria-label": localizer.text("Models") } });
    this.root = element("div", { className: "model-finder" }, [this.input, this.list, this.status]);
    this.root.hidden = true;
    this.input.addEventListener("input", () => this.filter());
    this.input.addEventListener("keydown", (event) => this.handleKey(event));
    // Choosing with the mouse keeps the focus in the box until the pick.
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
    this.root.addEventListener("focusout", (event) => {
      if (!this.root.contains(event.relatedTarget as Node | null) && event.relatedTarget !== this.button) this.close(false);
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** The models to offer; the button shows only when there are many. */
  setEntries(entries: readonly ModelEntry[]): void {
    this.entries = [...entries];
    this.button.hidden = entries.length < FINDER_FROM_MODELS;
    if (this.isOpen) this.filter();
  }

  open(): void {
    this.root.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.input.value = "";
    this.filter();
    this.input.focus();
  }

  close(returnFocus = true): void {
    if (!this.isOpen) return;
    this.root.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    if (returnFocus) this.button.focus();
  }

  private filter(): void {
    this.shown = matchModels(this.entries, this.input.value);
    this.active = 0;
    this.status.textContent = this.localizer.plural(this.shown.length, "{0} model", "{0} models");
    this.render();
  }

  private handleKey(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (this.shown.length === 0) return;
      this.active = (this.active + (event.key === "ArrowDown" ? 1 : -1) + this.shown.length) % this.shown.length;
      this.render();
    } else if (event.key === "Enter") {
      event.preventDefault();
      this.choose(this.active);
    } else if (event.key === "Escape") {
      // Handled here: Escape elsewhere in the page stops a running answer.
      event.preventDefault();
      event.stopPropagation();
      this.close();
    }
  }

  private choose(index: number): void {
    const entry = this.shown[index];
    if (entry === undefined) return;
    this.close();
    this.pick(entry);
  }

  private render(): void {
    if (this.shown.length === 0) {
      this.list.replaceChildren(element("div", { className: "model-finder-empty", text: this.localizer.text("No models match") }));
      this.input.removeAttribute("aria-activedescendant");
      return;
    }
    const options = this.shown.map((entry, index) => {
      const full = entry.relay === null ? entry.model : `${entry.model} · ${entry.relay}`;
      const option = element("div", { className: `model-option${index === this.active ? " active" : ""}`, attributes: { role: "option", id: uniqueId("model-option"), "aria-selected": String(index === this.active), "aria-label": full, title: full } }, [
        element("span", { className: "model-option-id", text: entry.model }),
        entry.relay === null ? null : element("span", { className: "model-option-relay", text: entry.relay }),
      ]);
      option.addEventListener("click", () => this.choose(index));
      return option;
    });
    showListOptions(this.list, this.input, options, this.active);
  }
}
