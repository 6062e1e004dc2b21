import { button, element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

/** What the message box holds, as the page keeps it across reloads (hostChannel.ts). */
export interface DraftState {
  /** The person's own message; while an earlier message is edited, the one given back when the edit ends. */
  readonly draft: string;
  /** An earlier message being edited, with its text as changed so far. */
  readonly edit?: { readonly turnId: string; readonly text: string };
}

/**
 * Editing an earlier message borrows the message box: which turn is edited, the banner that says so (with
 * Cancel edit), and the person's own draft kept aside meanwhile. Edit used to replace the draft, and
 * neither Cancel edit nor Ctrl+Z brought it back.
 */
export class MessageEdit {
  readonly banner: HTMLElement;
  private editedTurnId: string | null = null;
  private keptDraft = "";

  constructor(localizer: Localizer, cancel: () => void) {
    this.banner = element("div", { className: "edit-banner" }, [
      icon("edit"),
      element("span", { text: localizer.text("Editing an earlier message; sending it starts a new version of the conversation from there.") }),
      button(localizer.text("Cancel edit"), cancel, { className: "link-button" }),
    ]);
    this.banner.hidden = true;
  }

  /** The turn being edited; null when the box holds the person's own message. */
  get turnId(): string | null {
    return this.editedTurnId;
  }

  /** `draft` is what the box holds now: kept when the edit starts (editing another message while editing keeps the first draft). */
  begin(turnId: string, draft: string): void {
    if (this.editedTurnId === null) this.keptDraft = draft;
    this.editedTurnId = turnId;
    this.banner.hidden = false;
  }

  /** The edit is over (sent or cancelled): the draft to give back. */
  end(): string {
    const draft = this.keptDraft;
    this.editedTurnId = null;
    this.keptDraft = "";
    this.banner.hidden = true;
    return draft;
  }

  /** What to save for a box that holds `text`. */
  stateWith(text: string): DraftState {
    return this.editedTurnId === null ? { draft: text } : { draft: this.keptDraft, edit: { turnId: this.editedTurnId, text } };
  }
}

/**
 * Puts `text` in the box as one step of its undo history when the box has the focus (Ctrl+Z goes back to
 * what was there), by assignment otherwise; the caret ends up after it.
 */
export function replaceTextareaText(textarea: HTMLTextAreaElement, text: string): void {
  if (document.activeElement === textarea && textarea.value !== text) {
    textarea.select();
    // execCommand is the one way to change a textarea that its undo history records; it fires `input`.
    document.execCommand(text === "" ? "delete" : "insertText", false, text);
  }
  if (textarea.value !== text) textarea.value = text;
  textarea.setSelectionRange(text.length, text.length);
}
