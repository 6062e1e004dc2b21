import type { FileMatchView } from "../../src/panel/protocol";
import { attachMessage, choiceIcon, contextChoices, matchChoices } from "./contextOptions";
import type { PickerChoice } from "./contextOptions";
import { element, showListOptions, uniqueId } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

/** Where `#` starts in the text before the caret, and what follows it; null when the caret is not in a `#` word. */
export function hashQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)#([^\s#]*)$/.exec(text.slice(0, caret));
  return match === null ? null : { start: match.index + (match[1] ?? "").length, query: match[2] ?? "" };
}

/**
 * The `#` picker: typing `#` and part of a name in the message box lists the editor's context (Problems,
 * Terminal, Changes: contextOptions.ts), then matching folders, workspace files and symbols (the host searches
 * them); Up/Down move, Enter or Tab picks, Escape closes. The message box keeps focus
 * and points at the highlighted option (aria-activedescendant), as a combobox would.
 */
export class FilePicker {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private files: PickerChoice[] = [];
  private active = 0;
  private query: string | null = null;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly localizer: Localizer,
    private readonly pick: (message: ReturnType<typeof attachMessage>) => void,
  ) {
    const listId = uniqueId("file-picker");
    this.list = element("div", { className: "file-picker-list", attributes: { id: listId, role: "listbox", "aria-label": localizer.text("Context to attach") } });
    this.root = element("div", { className: "file-picker" }, [this.list]);
    this.root.hidden = true;
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", listId);
    // Keep the message box focused while choosing with the mouse.
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** The query the picker is showing files for (the text after `#`), or null when closed. */
  get currentQuery(): string | null {
    return this.query;
  }

  open(query: string): void {
    this.query = query;
  }

  /** The host's answer; answers to an older query are ignored. */
  show(query: string, files: readonly FileMatchView[]): void {
    if (query !== this.query) return;
    this.files = [...contextChoices(query, this.localizer), ...matchChoices(files)];
    this.active = 0;
    this.render();
  }

  close(): void {
    this.query = null;
    this.files = [];
    this.root.hidden = true;
    this.input.removeAttribute("aria-activedescendant");
    this.input.setAttribute("aria-expanded", "false");
  }

  /** True when the key was the picker's (the composer then does nothing else with it). */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      this.active = (this.active + (event.key === "ArrowDown" ? 1 : -1) + this.files.length) % Math.max(1, this.files.length);
      this.render();
      return true;
    }
    if ((event.key === "Enter" || event.key === "Tab") && this.files.length > 0) {
      this.choose(this.active);
      return true;
    }
    if (event.key === "Escape") {
      this.close();
      return true;
    }
    return false;
  }

  private choose(index: number): void {
    const file = this.files[index];
    if (file === undefined) return;
    this.close();
    this.pick(attachMessage(file));
  }

  private render(): void {
    this.root.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    if (this.files.length === 0) {
      this.list.replaceChildren(element("div", { className: "file-picker-empty", text: this.localizer.text("No matching files") }));
      this.input.removeAttribute("aria-activedescendant");
      return;
    }
    const options = this.files.map((file, index) => {
      const [name, where] = rowText(file);
      const option = element("div", { className: `file-option ${file.kind}-option${index === this.active ? " active" : ""}`, attributes: { role: "option", id: uniqueId("file-option"), "aria-selected": String(index === this.active) } }, [
        icon(choiceIcon(file)),
        element("span", { className: "file-name", text: name }),
        element("span", { className: "file-folder", text: where }),
      ]);
      option.addEventListener("click", () => this.choose(index));
      return option;
    });
    showListOptions(this.list, this.input, options, this.active);
  }
}

/** A row's name and the quieter text beside it (the folder, a symbol's kind and place, what a context entry sends). */
function rowText(choice: PickerChoice): [string, string] {
  if (choice.kind === "context") return [choice.title, choice.description];
  if (choice.kind === "symbol") return [choice.name, `${choice.detail} · ${choice.path}`];
  const slash = choice.path.lastIndexOf("/");
  return [choice.path.slice(slash + 1) + (choice.kind === "folder" ? "/" : ""), slash === -1 ? "" : choice.path.slice(0, slash)];
}
