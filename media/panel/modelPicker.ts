import type { RelayModelsView, ToHost } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

const OTHER_MODEL = "\u0000other";
/** An option's value with several relays: the relay's name and the model id, which neither contains. */
const SEPARATOR = "\u0000";

export interface ModelPickerState {
  readonly model: string | null;
  /** The active relay's models. */
  readonly models: readonly string[];
  readonly note: string | null;
  readonly relay: string | null;
  readonly relayModels: readonly RelayModelsView[];
}

/**
 * The model picker in the composer's toolbar: a native select (keyboard and screen readers know it),
 * styled to sit quietly beside the other tools. With several relays the models are grouped by relay
 * and the chosen one reads "Cheap relay › gpt-4o-mini"; picking a model of another relay sends the next
 * request there. A remembered model the relay no longer lists is marked. The last option asks for a
 * model id the relay did not list. Options are rebuilt only when the list changes, so a patch never
 * closes a select the user has open.
 */
export class ModelPicker {
  readonly root: HTMLSelectElement;
  private signature = "";
  private currentValue = "";

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {
    this.root = element("select", { className: "model-picker", attributes: { "aria-label": localizer.text("Model") } });
    this.root.addEventListener("change", () => {
      const chosen = this.root.value;
      if (chosen === OTHER_MODEL) {
        this.root.value = this.currentValue;
        this.post({ type: "fix", action: "selectModel" });
        return;
      }
      if (!chosen) return;
      const separator = chosen.indexOf(SEPARATOR);
      if (separator < 0) this.post({ type: "selectModel", model: chosen });
      else this.post({ type: "selectModel", relay: chosen.slice(0, separator), model: chosen.slice(separator + 1) });
    });
    // An empty list may just not be loaded yet (or the relay was down): ask again when the user opens it.
    this.root.addEventListener("focus", () => {
      if (this.root.options.length <= 2) this.post({ type: "refreshModels" });
    });
  }

  update(state: ModelPickerState): void {
    const { model, note, relay } = state;
    const grouped = state.relayModels.length > 1;
    const modelTitle = note === null ? this.localizer.text("Model") : `${this.localizer.text("Model")}: ${note}`;
    this.root.title = grouped && relay !== null ? `${modelTitle}\n${this.localizer.format("Relay: {0}", relay)}` : modelTitle;
    const signature = JSON.stringify([model, relay, grouped ? state.relayModels : state.models, grouped ? null : state.relayModels[0]?.unlisted ?? null]);
    if (signature === this.signature) return;
    this.signature = signature;
    const children: HTMLElement[] = grouped ? this.groups(state) : this.options(state);
    children.push(element("option", { text: this.localizer.text("Other model…"), attributes: { value: OTHER_MODEL } }));
    this.root.replaceChildren(...children);
    this.currentValue = grouped && relay !== null && model !== null ? `${relay}${SEPARATOR}${model}` : (model ?? "");
    this.root.value = this.currentValue;
  }

  /** One relay: the model ids as they are. */
  private options(state: ModelPickerState): HTMLElement[] {
    const { model, models } = state;
    const unlisted = state.relayModels[0]?.unlisted ?? null;
    const listed = model !== null && !models.includes(model) ? [model, ...models] : [...models];
    const options = listed.map((id) => this.option(id, id, id === unlisted));
    if (options.length === 0) options.push(this.noModels());
    return options;
  }

  /** Several relays: a group per relay; the chosen model names its relay. */
  private groups(state: ModelPickerState): HTMLElement[] {
    return state.relayModels.map((entry) => {
      const active = entry.relay === state.relay;
      const models = active && state.model !== null && !entry.models.includes(state.model) ? [state.model, ...entry.models] : [...entry.models];
      if (entry.unlisted !== null && !models.includes(entry.unlisted)) models.unshift(entry.unlisted);
      const options = models.map((id) => {
        const chosen = active && id === state.model;
        return this.option(`${entry.relay}${SEPARATOR}${id}`, chosen ? `${entry.relay} › ${id}` : id, id === entry.unlisted);
      });
      if (options.length === 0) options.push(this.noModels());
      return element("optgroup", { attributes: { label: entry.relay } }, options);
    });
  }

  private option(value: string, text: string, unlisted: boolean): HTMLOptionElement {
    return element("option", { text: unlisted ? this.localizer.format("{0} (not listed by the relay)", text) : text, attributes: { value } });
  }

  private noModels(): HTMLOptionElement {
    const none = element("option", { text: this.localizer.text("No models listed"), attributes: { value: "" } });
    none.disabled = true;
    return none;
  }
}
