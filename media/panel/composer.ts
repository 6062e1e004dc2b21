import type { AttachmentView, ToHost } from "../../src/panel/protocol";
import { button, element } from "./dom";
import type { Localizer } from "./localizer";

export interface ComposerState {
  readonly busy: boolean;
  /** False until a relay address and key are set: the box stays usable, sending does not. */
  readonly canSend: boolean;
  readonly attachments: readonly AttachmentView[];
}

/** The message box with its attachments, Send and Stop. */
export class Composer {
  readonly root: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly attachmentChips = element("div", { className: "attachment-chips" });
  private readonly editBanner: HTMLElement;
  private attachmentSignature = "";
  private state: ComposerState = { busy: false, canSend: false, attachments: [] };
  /** Set while the box holds an earlier message being edited: sending then resends that turn. */
  private editingTurnId: string | null = null;

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
    private readonly saveDraft: (draft: string) => void,
    initialDraft: string,
  ) {
    this.textarea = element("textarea", {
      className: "message-input",
      attributes: { "aria-label": localizer.text("Message"), rows: "3", placeholder: localizer.text("Ask something (Enter sends, Shift+Enter adds a line)") },
    });
    this.textarea.value = initialDraft;
    this.textarea.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.textarea.addEventListener("input", () => {
      this.saveDraft(this.textarea.value);
      this.updateButtons();
    });
    this.sendButton = button(localizer.text("Send"), () => this.send(), { className: "primary" });
    this.stopButton = button(localizer.text("Stop"), () => this.post({ type: "stop" }), { className: "secondary" });
    this.editBanner = element("div", { className: "edit-banner" }, [
      element("span", { text: localizer.text("Editing an earlier message; sending it starts a new version of the conversation from there.") }),
      button(localizer.text("Cancel edit"), () => this.cancelEdit(), { className: "link-button" }),
    ]);
    this.editBanner.hidden = true;
    this.root = element("div", { className: "composer" }, [
      this.attachmentChips,
      this.editBanner,
      this.textarea,
      element("div", { className: "composer-buttons" }, [
        button(localizer.text("Attach selection"), () => this.post({ type: "attachSelection" }), { className: "secondary" }),
        button(localizer.text("Attach file"), () => this.post({ type: "attachFile" }), { className: "secondary" }),
        element("span", { className: "spacer" }),
        this.stopButton,
        this.sendButton,
      ]),
    ]);
  }

  update(state: ComposerState): void {
    this.state = state;
    this.updateButtons();
    const signature = JSON.stringify(state.attachments);
    if (signature === this.attachmentSignature) return;
    this.attachmentSignature = signature;
    this.attachmentChips.replaceChildren(...state.attachments.map((attachment) => this.renderChip(attachment)));
    this.attachmentChips.hidden = state.attachments.length === 0;
  }

  focus(): void {
    this.textarea.focus();
  }

  startEdit(turnId: string, text: string): void {
    this.editingTurnId = turnId;
    this.editBanner.hidden = false;
    this.textarea.value = text;
    this.saveDraft(text);
    this.updateButtons();
    this.textarea.focus();
    this.textarea.setSelectionRange(text.length, text.length);
  }

  private cancelEdit(): void {
    this.editingTurnId = null;
    this.editBanner.hidden = true;
    this.textarea.value = "";
    this.saveDraft("");
    this.updateButtons();
    this.textarea.focus();
  }

  private onKeyDown(event: KeyboardEvent): void {
    // Enter that confirms an IME composition belongs to the composition, not to us.
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === "Enter" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.send();
    } else if (event.key === "Escape" && !this.state.busy && this.editingTurnId !== null) {
      event.preventDefault();
      this.cancelEdit();
    }
  }

  private sendable(): boolean {
    return !this.state.busy && this.state.canSend && this.textarea.value.trim().length > 0;
  }

  private send(): void {
    if (!this.sendable()) return;
    const text = this.textarea.value;
    if (this.editingTurnId !== null) this.post({ type: "editAndResend", turnId: this.editingTurnId, text });
    else this.post({ type: "send", text });
    this.editingTurnId = null;
    this.editBanner.hidden = true;
    this.textarea.value = "";
    this.saveDraft("");
    this.updateButtons();
    // A clicked Send button is now disabled and would drop focus to the page.
    this.textarea.focus();
  }

  private updateButtons(): void {
    this.sendButton.disabled = !this.sendable();
    this.stopButton.disabled = !this.state.busy;
    this.stopButton.hidden = !this.state.busy;
  }

  private renderChip(attachment: AttachmentView): HTMLElement {
    const icon = attachment.kind === "file" ? "📄" : "✂";
    return element("span", { className: "attachment-chip" }, [
      element("span", { className: "attachment-icon", text: icon, attributes: { "aria-hidden": "true" } }),
      element("span", { className: "attachment-label", text: attachment.label }),
      button("×", () => this.post({ type: "removeAttachment", id: attachment.id }), {
        className: "icon-button",
        attributes: { "aria-label": this.localizer.format("Remove {0}", attachment.label) },
      }),
    ]);
  }
}
