import type { SlashCommandView } from "../../src/panel/protocol";
import { element, showListOptions, uniqueId } from "./dom";
import type { Localizer } from "./localizer";

/** The command word being typed: `/` at the very start of the message and the caret still in that word; null otherwise. */
export function slashQueryAt(text: string, caret: number): string | null {
  const match = /^\/([^\s/]*)$/.exec(text.slice(0, caret));
  return match === null ? null : (match[1] ?? "");
}

/** The commands for a query: names that start with it first, then names and descriptions that contain it. */
export function filterSlashCommands(commands: readonly SlashCommandView[], query: string): SlashCommandView[] {
  const wanted = query.toLowerCase();
  const starts = commands.filter((command) => command.name.toLowerCase().startsWith(wanted));
  const contains = commands.filter((command) => !starts.includes(command) && (command.name.toLowerCase().includes(wanted) || command.description.toLowerCase().includes(wanted)));
  return [...starts, ...contains];
}

/**
 * The `/` menu: typing `/` at the start of the message lists the slash commands (built-ins and prompt
 * files), filtered as one types; Up/Down move, Enter or Tab puts the command in the box (its arguments
 * follow), Escape closes it until the command word changes. The message box keeps focus and points at the
 * highlighted option (aria-activedescendant), like the `#` picker.
 */
export class SlashMenu {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private commands: readonly SlashCommandView[] = [];
  private shown: SlashCommandView[] = [];
  private active = 0;
  private query: string | null = null;
  /** The query the person closed the menu on with Escape: it stays closed until the word changes. */
  private dismissed: string | null = null;
  /** The `#` picker's aria-controls, given back when the menu closes (both list for the same box). */
  private otherControls: string | null = null;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly localizer: Localizer,
    /** The box's text changed because a command was picked. */
    private readonly picked: (text: string) => void,
  ) {
    const listId = uniqueId("slash-menu");
    this.list = element("div", { className: "slash-menu-list", attributes: { id: listId, role: "listbox", "aria-label": localizer.text("Slash commands") } });
    this.root = element("div", { className: "slash-menu" }, [this.list]);
    this.root.hidden = true;
    // Keep the message box focused while choosing with the mouse.
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  setCommands(commands: readonly SlashCommandView[]): void {
    if (JSON.stringify(commands) === JSON.stringify(this.commands)) return;
    this.commands = commands;
    if (this.query !== null) this.refresh();
  }

  /** After each change of the text or caret: opens, filters or closes. */
  follow(): void {
    const query = slashQueryAt(this.input.value, this.input.selectionStart);
    if (query === null || query === this.dismissed) {
      if (query === null) this.dismissed = null;
      this.close();
      return;
    }
    this.dismissed = null;
    if (query === this.query && this.isOpen) return;
    this.query = query;
    this.active = 0;
    this.refresh();
  }

  close(): void {
    this.query = null;
    if (this.root.hidden) return;
    this.root.hidden = true;
    this.input.removeAttribute("aria-activedescendant");
    this.input.setAttribute("aria-expanded", "false");
    if (this.otherControls !== null) this.input.setAttribute("aria-controls", this.otherControls);
  }

  /** True when the key was the menu's (the composer then does nothing else with it). */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      this.active = (this.active + (event.key === "ArrowDown" ? 1 : -1) + this.shown.length) % Math.max(1, this.shown.length);
      this.render();
      return true;
    }
    if ((event.key === "Enter" || event.key === "Tab") && this.shown.length > 0 && !event.shiftKey) {
      this.choose(this.active);
      return true;
    }
    if (event.key === "Escape") {
      this.dismissed = this.query;
      this.close();
      return true;
    }
    return false;
  }

  private refresh(): void {
    this.shown = filterSlashCommands(this.commands, this.query ?? "");
    this.active = Math.min(this.active, Math.max(0, this.shown.length - 1));
    if (this.shown.length === 0) {
      this.close();
      return;
    }
    this.render();
  }

  private choose(index: number): void {
    const command = this.shown[index];
    if (command === undefined) return;
    const rest = this.input.value.slice(this.input.selectionStart).replace(/^\S*/, "").replace(/^\s*/, "");
    const text = `/${command.name} ${rest}`;
    this.close();
    this.picked(text);
    const caret = command.name.length + 2;
    this.input.setSelectionRange(caret, caret);
  }

  private render(): void {
    if (this.root.hidden) this.otherControls = this.input.getAttribute("aria-controls");
    this.root.hidden = false;
    this.input.setAttribute("aria-controls", this.list.id);
    this.input.setAttribute("aria-expanded", "true");
    const options = this.shown.map((command, index) => {
      const origin = originText(command, this.localizer);
      const option = element("div", { className: `slash-option${index === this.active ? " active" : ""}`, attributes: { role: "option", id: uniqueId("slash-option"), "aria-selected": String(index === this.active), title: command.description } }, [
        element("span", { className: "slash-name", text: `/${command.name}` }),
        command.argumentHint === "" ? null : element("span", { className: "slash-hint", text: command.argumentHint }),
        element("span", { className: "slash-description", text: command.description }),
        origin === null ? null : element("span", { className: "slash-origin", text: origin }),
      ]);
      option.addEventListener("click", () => this.choose(index));
      return option;
    });
    showListOptions(this.list, this.input, options, this.active);
  }
}

/** Whose command it is, said beside it: a prompt file (in the built-in's place, when it is), or a built-in keeping its name. */
function originText(command: SlashCommandView, localizer: Localizer): string | null {
  if (command.ignoredFile !== undefined) return localizer.format("{0} is not used: /{1} is Relay Chat's own", command.ignoredFile, command.name);
  if (command.origin === "workspace") return command.replacesBuiltin === true ? localizer.text("Workspace prompt file, in place of the built-in") : localizer.text("Workspace prompt file");
  if (command.origin === "user") return command.replacesBuiltin === true ? localizer.text("Your prompt file, in place of the built-in") : localizer.text("Your prompt file");
  return null;
}
