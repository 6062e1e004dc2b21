import type { AttachmentView, ChatModeView, ContextMeterView, FileMatchView, ImageLimitsView, RelayModelsView, RulesView, SlashCommandView, ToHost } from "../../src/panel/protocol";
import { DEFAULT_IMAGE_LIMITS, IMAGE_MEDIA_TYPES } from "../../src/panel/protocol";
import type { AttachmentPeek } from "./attachmentPeek";
import { renderComposerChips } from "./composerChips";
import { ContextMeter } from "./contextMeter";
import { element } from "./dom";
import { FilePicker, hashQueryAt } from "./filePicker";
import { icon, iconButton } from "./icons";
import { ImageAttachments } from "./imageAttachments";
import type { Localizer } from "./localizer";
import { fitMessageHint } from "./messageHint";
import { MessageEdit, replaceTextareaText } from "./messageEdit";
import type { DraftState } from "./messageEdit";
import { ModelPicker } from "./modelPicker";
import { RulesChip } from "./rulesChip";
import { ModeSwitch } from "./modeSwitch";
import { SlashMenu } from "./slashMenu";

export interface ComposerState {
  readonly busy: boolean;
  /** False until a relay address and key are set: the box stays usable, sending does not. */
  readonly canSend: boolean;
  readonly attachments: readonly AttachmentView[];
  readonly selectionOffer: { label: string } | null;
  /** The active editor's file, sent with the message unless removed (a chip with a close button). */
  readonly activeFileOffer: { label: string } | null;
  readonly model: string | null;
  readonly models: readonly string[];
  readonly modelsNote: string | null;
  readonly relay: string | null;
  readonly relayModels: readonly RelayModelsView[];
  readonly context: ContextMeterView | null;
  readonly imageLimits: ImageLimitsView;
  /** The Rules chip; null: no rules files. */
  readonly rules?: RulesView | null;
  /** The Plan / Act switch; absent: Act. */
  readonly mode?: ChatModeView;
  /** What `/` at the start of the message lists (slashMenu.ts). */
  readonly slashCommands?: readonly SlashCommandView[];
}

const MAX_INPUT_HEIGHT = 220;

/**
 * The message box, as VS Code's chat has it: attached context as chips above the text, a toolbar below
 * with the paperclip, the model picker and the context meter on the left and Send (or Stop) on the right.
 */
export class Composer {
  readonly root: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly chips = element("div", { className: "composer-chips" });
  private readonly edit: MessageEdit;
  private readonly filePicker: FilePicker;
  private readonly modelPicker: ModelPicker;
  private readonly rulesChip: RulesChip;
  private readonly modeSwitch: ModeSwitch;
  private readonly slashMenu: SlashMenu;
  private readonly meter: ContextMeter;
  private readonly images: ImageAttachments;
  private readonly imagePicker = element("input", { className: "image-picker", attributes: { type: "file", accept: IMAGE_MEDIA_TYPES.join(","), multiple: "", hidden: "" } });
  private chipsSignature = "";
  private state: ComposerState = { busy: false, canSend: false, attachments: [], selectionOffer: null, activeFileOffer: null, model: null, models: [], modelsNote: null, relay: null, relayModels: [], context: null, imageLimits: DEFAULT_IMAGE_LIMITS };
  /** The box's text is being replaced, not typed: the `#` and `/` menus stay closed. */
  private replacing = false;

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
    private readonly saveDraft: (state: DraftState) => void,
    initialDraft: string,
    /** Called when a message was sent (the view scrolls to it). */
    private readonly onSent: () => void,
    /** Shows what an opened chip adds to the message (shared with the sent messages' chips). */
    private readonly peek: AttachmentPeek,
  ) {
    this.meter = new ContextMeter(localizer);
    this.textarea = element("textarea", {
      className: "message-input",
      attributes: { "aria-label": localizer.text("Message"), rows: "1" },
    });
    fitMessageHint(this.textarea, localizer);
    this.textarea.value = initialDraft;
    this.textarea.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.textarea.addEventListener("input", () => this.onInput());
    this.textarea.addEventListener("blur", () => {
      this.filePicker.close();
      this.slashMenu.close();
    });
    this.images = new ImageAttachments(localizer, () => {
      this.updateButtons();
      this.updateMeter();
    });
    this.filePicker = new FilePicker(this.textarea, localizer, (message) => this.pickFile(message));
    this.modelPicker = new ModelPicker(localizer, post);
    this.rulesChip = new RulesChip(localizer, post);
    this.modeSwitch = new ModeSwitch(localizer, post);
    this.slashMenu = new SlashMenu(this.textarea, localizer, (text) => this.setText(text));
    this.sendButton = iconButton("send", localizer.text("Send"), () => this.send(), "send-button");
    this.stopButton = iconButton("debug-stop", localizer.text("Stop"), () => this.post({ type: "stop" }), "stop-button");
    this.edit = new MessageEdit(localizer, () => this.cancelEdit());
    this.root = element("div", { className: "composer-area" }, [
      this.edit.banner,
      this.filePicker.root,
      this.slashMenu.root,
      this.modelPicker.finderPopup,
      this.rulesChip.popup,
      element("div", { className: "composer" }, [
        this.chips,
        this.images.root,
        this.textarea,
        element("div", { className: "composer-toolbar" }, [
          iconButton("attach", localizer.text("Attach context"), () => this.post({ type: "attachFile" })),
          iconButton("file-media", localizer.text("Attach image"), () => this.imagePicker.click()),
          this.imagePicker,
          this.modelPicker.root,
          this.meter.root,
          iconButton("book", localizer.text("What the model is told"), () => this.post(this.textarea.value === "" ? { type: "showInstructions" } : { type: "showInstructions", draft: this.textarea.value }), "instructions-button"),
          element("span", { className: "spacer" }),
          this.modeSwitch.root,
          this.stopButton,
          this.sendButton,
        ]),
      ]),
    ]);
    this.images.acceptFrom(this.textarea, this.root, this.imagePicker);
    this.resize();
  }

  update(state: ComposerState): void {
    this.state = state;
    this.images.limits = state.imageLimits;
    this.updateButtons();
    this.modelPicker.update({ model: state.model, models: state.models, note: state.modelsNote, relay: state.relay, relayModels: state.relayModels });
    this.slashMenu.setCommands(state.slashCommands ?? []);
    this.updateMeter();
    this.rulesChip.update(state.rules ?? null);
    this.modeSwitch.update(state.mode ?? "act");
    const signature = JSON.stringify([state.attachments, state.selectionOffer, state.activeFileOffer, state.rules === null || state.rules === undefined]);
    if (signature === this.chipsSignature) return;
    this.chipsSignature = signature;
    const chips = renderComposerChips(state, this.localizer, this.post, this.peek, this.root);
    // The Rules chip is the same element throughout, so its open list and focus survive other chips changing.
    if (state.rules) chips.unshift(this.rulesChip.chip);
    this.chips.replaceChildren(...chips);
    this.chips.hidden = chips.length === 0;
  }

  /** The host's files for the `#` query. */
  showFileMatches(query: string, files: readonly FileMatchView[]): void {
    this.filePicker.show(query, files);
  }

  focus(): void {
    this.textarea.focus();
  }

  /**
   * The box takes an earlier message to edit. The person's draft is kept aside (not replaced: Edit used to
   * throw it away) and comes back when the edit is sent or cancelled. `focus`: false when a reloaded page
   * resumes an edit, which must not take the focus from where the person is.
   */
  startEdit(turnId: string, text: string, focus = true): void {
    this.edit.begin(turnId, this.textarea.value);
    if (focus) this.textarea.focus();
    this.replaceText(text);
  }

  private cancelEdit(): void {
    // Focused first, so the draft comes back as a step of the box's undo history.
    this.textarea.focus();
    this.replaceText(this.edit.end());
  }

  private replaceText(text: string): void {
    this.replacing = true;
    try {
      replaceTextareaText(this.textarea, text);
    } finally {
      this.replacing = false;
    }
    this.setText(text);
  }

  private setText(text: string): void {
    if (this.textarea.value !== text) this.textarea.value = text;
    this.save();
    this.resize();
    this.updateButtons();
    this.updateMeter();
  }

  private save(): void {
    const text = this.textarea.value;
    this.saveDraft(this.edit.stateWith(text));
  }

  private onInput(): void {
    this.save();
    this.resize();
    this.updateButtons();
    this.updateMeter();
    if (this.replacing) return;
    const hash = hashQueryAt(this.textarea.value, this.textarea.selectionStart);
    if (hash === null) {
      this.filePicker.close();
    } else if (hash.query !== this.filePicker.currentQuery) {
      this.filePicker.open(hash.query);
      this.post({ type: "findFiles", query: hash.query });
    }
    // After the # picker, which closes (aria-expanded false) whenever no # word is typed.
    this.slashMenu.follow();
  }

  /** The picked file (or context) replaces the `#word` it was found with and goes with the message as an attachment. */
  private pickFile(attach: ToHost): void {
    const caret = this.textarea.selectionStart;
    const hash = hashQueryAt(this.textarea.value, caret);
    if (hash !== null) {
      const text = this.textarea.value;
      this.setText(text.slice(0, hash.start) + text.slice(caret).replace(/^ /, ""));
      this.textarea.setSelectionRange(hash.start, hash.start);
    }
    this.post(attach);
  }

  private onKeyDown(event: KeyboardEvent): void {
    // Enter that confirms an IME composition belongs to the composition, not to us.
    if (event.isComposing || event.keyCode === 229) return;
    if (this.slashMenu.handleKey(event) || this.filePicker.handleKey(event)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.send();
    } else if (event.key === "Escape" && !this.state.busy && this.edit.turnId !== null) {
      event.preventDefault();
      this.cancelEdit();
    }
  }

  private sendable(): boolean {
    return !this.state.busy && this.state.canSend && (this.textarea.value.trim().length > 0 || this.state.attachments.length > 0 || this.images.count > 0);
  }

  private send(): void {
    if (!this.sendable()) return;
    const text = this.textarea.value;
    this.filePicker.close();
    this.slashMenu.close();
    const editedTurnId = this.edit.turnId;
    if (editedTurnId !== null) {
      this.post({ type: "editAndResend", turnId: editedTurnId, text });
      this.replaceText(this.edit.end());
    } else {
      const images = this.images.take();
      this.post(images.length > 0 ? { type: "send", text, images } : { type: "send", text });
      this.setText("");
    }
    // A clicked Send button is now disabled and would drop focus to the page.
    this.textarea.focus();
    this.onSent();
  }

  private updateButtons(): void {
    this.sendButton.disabled = !this.sendable();
    this.sendButton.hidden = this.state.busy;
    this.stopButton.hidden = !this.state.busy;
  }

  /** The host's estimate (with the draft's command prompt: draftCommand.ts), plus the draft (about four characters a token) and the images. */
  private updateMeter(): void {
    const context = this.state.context;
    this.meter.update(context, Math.ceil(this.textarea.value.length / 4) + this.images.count * (context?.tokensPerImage ?? 0));
  }

  private resize(): void {
    this.textarea.style.height = "auto";
    this.textarea.style.height = `${Math.min(MAX_INPUT_HEIGHT, this.textarea.scrollHeight + 2)}px`;
  }
}
