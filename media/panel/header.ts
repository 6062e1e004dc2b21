import type { PanelState, ToHost } from "../../src/panel/protocol";
import { button, element, uniqueId } from "./dom";
import type { Localizer } from "./localizer";

/**
 * Model picker, new chat and the conversation list. Options are rebuilt only when the lists change, so
 * a state message never closes a select the user has open.
 */
export class PanelHeader {
  readonly root: HTMLElement;
  private readonly modelSelect: HTMLSelectElement;
  private readonly modelsNote = element("div", { className: "models-note" });
  private readonly conversationSelect: HTMLSelectElement;
  private readonly conversationButtons: HTMLButtonElement[];
  private modelSignature = "";
  private conversationSignature = "";
  private conversationId: string | null = null;

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {
    const modelSelectId = uniqueId("model-select");
    this.modelSelect = element("select", { className: "model-select", attributes: { id: modelSelectId } });
    this.modelSelect.addEventListener("change", () => {
      if (this.modelSelect.value) this.post({ type: "selectModel", model: this.modelSelect.value });
    });
    const refresh = button("↻", () => this.post({ type: "refreshModels" }), {
      className: "icon-button",
      attributes: { "aria-label": localizer.text("Refresh models"), title: localizer.text("Refresh models") },
    });
    const newChat = button(localizer.text("New chat"), () => this.post({ type: "newChat" }), { className: "primary" });

    const conversationSelectId = uniqueId("conversation-select");
    this.conversationSelect = element("select", { className: "conversation-select", attributes: { id: conversationSelectId } });
    this.conversationSelect.addEventListener("change", () => {
      const chosen = this.conversationSelect.value;
      if (chosen && chosen !== this.conversationId) this.post({ type: "switchConversation", conversationId: chosen });
    });
    const forCurrent = (type: "renameConversation" | "deleteConversation" | "exportConversation") => () => {
      if (this.conversationId !== null) this.post({ type, conversationId: this.conversationId });
    };
    this.conversationButtons = [
      button(localizer.text("Rename"), forCurrent("renameConversation"), { className: "link-button" }),
      button(localizer.text("Delete"), forCurrent("deleteConversation"), { className: "link-button" }),
      button(localizer.text("Export"), forCurrent("exportConversation"), { className: "link-button" }),
    ];

    this.root = element("header", { className: "panel-header" }, [
      element("div", { className: "header-row" }, [
        element("label", { className: "field-label", text: localizer.text("Model"), attributes: { for: modelSelectId } }),
        this.modelSelect,
        refresh,
        newChat,
      ]),
      this.modelsNote,
      element("div", { className: "header-row" }, [
        element("label", { className: "field-label", text: localizer.text("Conversation"), attributes: { for: conversationSelectId } }),
        this.conversationSelect,
        ...this.conversationButtons,
      ]),
    ]);
  }

  update(state: PanelState): void {
    this.updateModels(state);
    this.updateConversations(state);
  }

  private updateModels(state: PanelState): void {
    const models = state.model !== null && !state.models.includes(state.model) ? [state.model, ...state.models] : [...state.models];
    const signature = JSON.stringify([models, state.model]);
    if (signature !== this.modelSignature) {
      this.modelSignature = signature;
      const options = models.map((model) => element("option", { text: model, attributes: { value: model } }));
      if (options.length === 0) options.push(placeholderOption(this.localizer.text("No models listed")));
      this.modelSelect.replaceChildren(...options);
      this.modelSelect.value = state.model ?? "";
    }
    this.modelsNote.textContent = state.modelsNote ?? "";
    this.modelsNote.hidden = !state.modelsNote;
  }

  private updateConversations(state: PanelState): void {
    this.conversationId = state.conversationId;
    const entries = state.conversations.map((entry) => [entry.id, entry.title] as const);
    const signature = JSON.stringify([entries, state.conversationId]);
    if (signature === this.conversationSignature) return;
    this.conversationSignature = signature;
    const options = entries.map(([id, title]) => element("option", { text: title, attributes: { value: id } }));
    // A new chat is saved with its first turn; until then it has no entry of its own.
    if (state.conversationId === null || !entries.some(([id]) => id === state.conversationId)) {
      options.unshift(placeholderOption(this.localizer.text("New chat (not saved yet)")));
    }
    this.conversationSelect.replaceChildren(...options);
    this.conversationSelect.value = state.conversationId ?? "";
    for (const control of this.conversationButtons) control.disabled = state.conversationId === null;
  }
}

function placeholderOption(text: string): HTMLOptionElement {
  const option = element("option", { text, attributes: { value: "" } });
  option.disabled = true;
  return option;
}
