import type { ToHost } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

const OTHER_MODEL = "\u0000other";

/**
 * The model picker in the composer's toolbar: a native select (keyboard and screen readers know it),
 * styled to sit quietly beside the other tools. The last option asks for a model id the relay did not list.
 * Options are rebuilt only when the list changes, so a patch never closes a select the user has open.
 */
export class ModelPicker {
  readonly root: HTMLSelectElement;
  private signature = "";
  private current: string | null = null;

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {
    this.root = element("select", { className: "model-picker", attributes: { "aria-label": localizer.text("Model") } });
    this.root.addEventListener("change", () => {
      const chosen = this.root.value;
      if (chosen === OTHER_MODEL) {
        this.root.value = this.current ?? "";
        this.post({ type: "fix", action: "selectModel" });
      } else if (chosen) {
        this.post({ type: "selectModel", model: chosen });
      }
    });
    // An empty list may just not be loaded yet (or the relay was down): ask again when the user opens it.
    this.root.addEventListener("focus", () => {
      if (this.root.options.length <= 2) this.post({ type: "refreshModels" });
    });
  }

  update(model: string | null, models: readonly string[], note: string | null): void {
    this.current = model;
    this.root.title = note === null ? this.localizer.text("Model") : `${this.localizer.text("Model")}: ${note}`;
    const listed = model !== null && !models.includes(model) ? [model, ...models] : [...models];
    const signature = JSON.stringify([listed, model]);
    if (signature === this.signature) return;
    this.signature = signature;
    const options = listed.map((id) => element("option", { text: id, attributes: { value: id } }));
    if (options.length === 0) {
      const none = element("option", { text: this.localizer.text("No models listed"), attributes: { value: "" } });
      none.disabled = true;
      options.push(none);
    }
    options.push(element("option", { text: this.localizer.text("Other model…"), attributes: { value: OTHER_MODEL } }));
    this.root.replaceChildren(...options);
    this.root.value = model ?? "";
  }
}
