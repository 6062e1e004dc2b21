import type { ConversationListEntry, ToHost } from "../../src/panel/protocol";
import { element } from "./dom";
import { iconButton } from "./icons";
import type { Localizer } from "./localizer";

/**
 * The saved conversations, newest first: title, when, model and length; typing filters them. Opening one
 * goes back to the chat; rename, export and delete act on the entry. It covers the chat while open.
 */
export class HistoryView {
  readonly root: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly list = element("ul", { className: "history-list" });
  private readonly empty = element("p", { className: "history-empty" });
  private entries: readonly ConversationListEntry[] = [];
  private currentId: string | null = null;
  private signature = "";

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
    private readonly onClose: () => void,
  ) {
    this.filter = element("input", {
      className: "history-filter",
      attributes: { type: "search", "aria-label": localizer.text("Filter conversations"), placeholder: localizer.text("Filter by title or model") },
    });
    this.filter.addEventListener("input", () => this.render());
    this.root = element("section", { className: "history-view", attributes: { "aria-label": localizer.text("Chat history") } }, [
      element("div", { className: "history-header" }, [
        iconButton("arrow-left", localizer.text("Back to chat"), () => this.close()),
        element("h2", { className: "history-title", text: localizer.text("History") }),
      ]),
      this.filter,
      this.list,
      this.empty,
    ]);
    this.root.hidden = true;
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        this.close();
      }
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  open(): void {
    this.root.hidden = false;
    this.filter.value = "";
    this.render();
    this.filter.focus();
  }

  close(): void {
    if (this.root.hidden) return;
    this.root.hidden = true;
    this.onClose();
  }

  update(entries: readonly ConversationListEntry[], currentId: string | null): void {
    this.entries = entries;
    this.currentId = currentId;
    if (this.isOpen) this.render();
  }

  private render(): void {
    const needle = this.filter.value.trim().toLowerCase();
    const shown = needle === "" ? this.entries : this.entries.filter((entry) => `${entry.title}\n${entry.model}`.toLowerCase().includes(needle));
    const signature = JSON.stringify([shown, this.currentId, Math.floor(Date.now() / 60_000)]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.list.replaceChildren(...shown.map((entry) => this.renderEntry(entry)));
    this.empty.hidden = shown.length > 0;
    this.empty.textContent = this.entries.length === 0 ? this.localizer.text("No saved conversations yet.") : this.localizer.text("No conversation matches the filter.");
  }

  private renderEntry(entry: ConversationListEntry): HTMLElement {
    const meta = [this.localizer.relativeTime(entry.updatedAt), entry.model, this.localizer.plural(entry.turnCount, "{0} message", "{0} messages")].filter(Boolean).join(" · ");
    const openButton = element("button", { className: "history-open", attributes: { type: "button" } }, [
      element("span", { className: "history-entry-title", text: entry.title }),
      element("span", { className: "history-entry-meta", text: meta }),
    ]);
    openButton.addEventListener("click", () => {
      if (entry.id !== this.currentId) this.post({ type: "switchConversation", conversationId: entry.id });
      this.close();
    });
    if (entry.id === this.currentId) openButton.setAttribute("aria-current", "true");
    const forEntry = (type: "renameConversation" | "exportConversation" | "deleteConversation") => () => this.post({ type, conversationId: entry.id });
    return element("li", { className: `history-entry${entry.id === this.currentId ? " current" : ""}` }, [
      openButton,
      element("span", { className: "history-actions" }, [
        iconButton("edit", this.localizer.format("Rename {0}", entry.title), forEntry("renameConversation")),
        iconButton("export", this.localizer.format("Export {0}", entry.title), forEntry("exportConversation")),
        iconButton("trash", this.localizer.format("Delete {0}", entry.title), forEntry("deleteConversation")),
      ]),
    ]);
  }
}
