import type { PanelState, ToHost } from "../../src/panel/protocol";
import { button, element } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";
import { renderCompactionOffer } from "./turnSummary";

// The notes above the message box that each offer one action: the files with proposed edits to review, Chat
// Completions for a model the check-up found, summarizing earlier turns. Each is built again only when what it
// shows changed, so a streamed answer's patches leave them (and a focused button in them) alone.
export class OfferSlots {
  private readonly review = element("div", { className: "review-slot" });
  private readonly protocol = element("div", { className: "protocol-slot" });
  private readonly compaction = element("div", { className: "compaction-slot" });
  private compactionShown = "";
  private protocolShown = "null";
  private reviewShown = "0";

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {}

  /** The slots, in the order they stand above the box. */
  get slots(): HTMLElement[] {
    return [this.review, this.protocol, this.compaction];
  }

  render(state: PanelState): void {
    this.renderCompactionOffer(state);
    this.renderChatCompletionsOffer(state);
    this.renderFilesToReview(state);
  }

  private renderCompactionOffer(state: PanelState): void {
    const signature = JSON.stringify(state.compactionOffer);
    if (signature === this.compactionShown) return;
    this.compactionShown = signature;
    this.compaction.replaceChildren(...(state.compactionOffer === null ? [] : [renderCompactionOffer(state.compactionOffer, this.localizer, this.post)]));
  }

  /** The check-up's finding, confirmed here as in its report and notification (nothing is saved until then). */
  private renderChatCompletionsOffer(state: PanelState): void {
    const offer = state.chatCompletionsOffer ?? null;
    const signature = JSON.stringify(offer);
    if (signature === this.protocolShown) return;
    this.protocolShown = signature;
    this.protocol.replaceChildren(
      ...(offer === null
        ? []
        : [
            element("section", { className: "compaction-offer chat-completions-offer", attributes: { role: "status" } }, [
              icon("plug"),
              element("p", { text: this.localizer.format("The check-up found that {0} on {1} answers over Chat Completions, not the Responses interface.", offer.model, offer.relay) }),
              iconButton("close", this.localizer.text("Dismiss"), () => this.protocol.replaceChildren()),
              button(this.localizer.text("Use Chat Completions for this model"), () => this.post({ type: "fix", action: "confirmChatCompletions" }), { className: "primary" }),
            ]),
          ]),
    );
  }

  /** Edits waiting in the editor are easy to lose sight of from the chat: one line says so, with the way to them. */
  private renderFilesToReview(state: PanelState): void {
    const count = state.filesToReview ?? 0;
    if (String(count) === this.reviewShown) return;
    this.reviewShown = String(count);
    if (count === 0) {
      this.review.replaceChildren();
      return;
    }
    this.review.replaceChildren(
      element("section", { className: "files-to-review", attributes: { role: "status" } }, [
        icon("diff"),
        element("p", { text: this.localizer.plural(count, "{0} file with proposed edits to keep or undo in the editor.", "{0} files with proposed edits to keep or undo in the editor.") }),
        button(this.localizer.text("Show files"), () => this.post({ type: "fix", action: "reviewFiles" })),
      ]),
    );
  }
}
