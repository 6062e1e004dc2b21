import type { RelayModelsView, ToHost } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";
import { ModelFinder } from "./modelFinder";
import type { ModelEntry } from "./modelFinder";

const OTHER_MODEL = "\u0000other";
const MODEL_SETTINGS = "\u0000settings";
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
 * and the chosen one reads "gpt-4o-mini · Cheap relay": the model first, so a narrow panel cuts the
 * relay's name, not the model's; the whole name is the tooltip. Picking a model of another relay sends
 * the next request there. A remembered model the relay no longer lists is marked. The last option asks
 * for a model id the relay did not list, and "Model settings…" opens the chosen model's settings. With many
 * models a finder beside it filters them as one types.
 * Options are rebuilt only when the list changes, so a patch never closes a select the user has open.
 */
export class ModelPicker {
  readonly root: HTMLElement;
  /** The finder's list, placed by the composer above the message box. */
  readonly finderPopup: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly finder: ModelFinder;
  private signature = "";
  private currentValue = "";

  constructor(
    private readonly localizer: Localizer,
    private readonly post: (message: ToHost) => void,
  ) {
    this.select = element("select", { className: "model-picker", attributes: { "aria-label": localizer.text("Model") } });
    this.finder = new ModelFinder(localizer, (entry) => this.post(entry.relay === null ? { type: "selectModel", model: entry.model } : { type: "selectModel", relay: entry.relay, model: entry.model }));
    this.finderPopup = this.finder.root;
    this.root = element("span", { className: "model-choice" }, [this.select, this.finder.button]);
    this.select.addEventListener("change", () => {
      const chosen = this.select.value;
      if (chosen === OTHER_MODEL || chosen === MODEL_SETTINGS) {
        this.select.value = this.currentValue;
        this.post({ type: "fix", action: chosen === OTHER_MODEL ? "selectModel" : "modelSettings" });
        return;
      }
      if (!chosen) return;
      const separator = chosen.indexOf(SEPARATOR);
      if (separator < 0) this.post({ type: "selectModel", model: chosen });
      else this.post({ type: "selectModel", relay: chosen.slice(0, separator), model: chosen.slice(separator + 1) });
    });
    // An empty list may just not be loaded yet (or the relay was down): ask again when the user opens it.
    this.select.addEventListener("focus", () => {
      if (![...this.select.options].some((option) => option.value !== "" && !option.value.startsWith("\u0000"))) this.post({ type: "refreshModels" });
    });
  }

  update(state: ModelPickerState): void {
    const { model, note, relay } = state;
    const grouped = state.relayModels.length > 1;
    // The whole name on hover, however narrow the panel cuts it.
    this.select.title = [
      model === null ? this.localizer.text("Model") : this.localizer.format("Model: {0}", model),
      grouped && relay !== null ? this.localizer.format("Relay: {0}", relay) : null,
      note,
    ]
      .filter((line) => line !== null)
      .join("\n");
    const signature = JSON.stringify([model, relay, grouped ? state.relayModels : state.models, grouped ? null : state.relayModels[0]?.unlisted ?? null, grouped ? null : state.relayModels[0]?.chatModels ?? null]);
    if (signature === this.signature) return;
    this.signature = signature;
    const children: HTMLElement[] = grouped ? this.groups(state) : this.options(state);
    children.push(element("option", { text: this.localizer.text("Other model…"), attributes: { value: OTHER_MODEL } }));
    // The chosen model's reasoning effort, temperature, output cap, tools and instructions (a host quick pick).
    if (model !== null) children.push(element("option", { text: this.localizer.text("Model settings…"), attributes: { value: MODEL_SETTINGS } }));
    this.select.replaceChildren(...children);
    this.currentValue = grouped && relay !== null && model !== null ? `${relay}${SEPARATOR}${model}` : (model ?? "");
    this.select.value = this.currentValue;
    this.finder.setEntries(this.entries(state, grouped));
  }

  /** Every model the select lists, for the finder. */
  private entries(state: ModelPickerState, grouped: boolean): ModelEntry[] {
    if (!grouped) return [...new Set([...(state.model === null ? [] : [state.model]), ...state.models])].map((model) => ({ model, relay: null }));
    return state.relayModels.flatMap((entry) => [...new Set([...(entry.unlisted === null ? [] : [entry.unlisted]), ...entry.models])].map((model) => ({ model, relay: entry.relay })));
  }

  /** One relay: the model ids as they are. */
  private options(state: ModelPickerState): HTMLElement[] {
    const { model, models } = state;
    const unlisted = state.relayModels[0]?.unlisted ?? null;
    const listed = model !== null && !models.includes(model) ? [model, ...models] : [...models];
    const chatModels = state.relayModels[0]?.chatModels;
    const options = listed.map((id) => this.option(id, withWire(id, id, chatModels), id === unlisted));
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
        return this.option(`${entry.relay}${SEPARATOR}${id}`, withWire(chosen ? `${id} · ${entry.relay}` : id, id, entry.chatModels), id === entry.unlisted);
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

/** A model whose requests go over Chat Completions says so in its option ("deepseek-chat · Chat Completions"). */
function withWire(text: string, model: string, chatModels: readonly string[] | undefined): string {
  return chatModels?.includes(model) ? `${text} · Chat Completions` : text;
}
