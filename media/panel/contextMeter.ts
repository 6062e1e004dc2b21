import type { ContextMeterView } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

/**
 * The context meter in the message box's toolbar: the next request's estimated input (the host's estimate of
 * the history, attachments and instructions, plus what the box holds now) against the model's context window.
 */
export class ContextMeter {
  readonly root = element("span", { className: "context-meter", attributes: { role: "meter", "aria-valuemin": "0" } });

  constructor(private readonly localizer: Localizer) {}

  /** `extraTokens`: the draft, the images waiting and the draft's command prompt, estimated in the page. */
  update(context: ContextMeterView | null, extraTokens: number): void {
    const meter = this.root;
    const tokens = (context?.estimatedTokens ?? 0) + extraTokens;
    // Nothing to measure yet (an empty new chat without a known window): no meter.
    meter.hidden = context === null || (tokens === 0 && context.windowTokens === null);
    if (context === null) return;
    const window = context.windowTokens;
    const share = window === null ? null : Math.min(1, tokens / window);
    meter.textContent = window === null ? `≈${this.localizer.compact(tokens)}` : `${Math.round((share ?? 0) * 100)}%`;
    meter.classList.toggle("high", share !== null && share > 0.8);
    meter.style.setProperty("--share", `${Math.round((share ?? 0) * 100)}%`);
    const description =
      window === null
        ? this.localizer.format("Next request: about {0} input tokens (an estimate). Set relayChat.contextWindows to compare it with the model's context window.", this.localizer.number(tokens))
        : this.localizer.format("Next request: about {0} of {1} tokens of the model's context window (an estimate).", this.localizer.number(tokens), this.localizer.number(window));
    meter.title = description;
    meter.setAttribute("aria-label", this.localizer.text("Context"));
    meter.setAttribute("aria-valuetext", description);
    meter.setAttribute("aria-valuenow", String(tokens));
    if (window !== null) meter.setAttribute("aria-valuemax", String(window));
    else meter.removeAttribute("aria-valuemax");
  }
}
