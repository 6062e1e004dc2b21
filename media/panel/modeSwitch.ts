import type { ChatModeView, ToHost } from "../../src/panel/protocol";
import { button, element } from "./dom";
import type { Localizer } from "./localizer";

/**
 * The Plan / Act switch beside Send: two buttons in a group, the pressed one the mode of the next message.
 * Plan gives the model read-only tools and asks it for a plan; Act gives it every tool. The host keeps the
 * mode with the conversation; the switch shows the choice at once and follows the host's state.
 */
export class ModeSwitch {
  readonly root: HTMLElement;
  private readonly options: Record<ChatModeView, HTMLButtonElement>;
  private mode: ChatModeView = "act";

  constructor(localizer: Localizer, private readonly post: (message: ToHost) => void) {
    this.options = {
      plan: button(localizer.text("Plan"), () => this.choose("plan"), {
        className: "mode-option",
        attributes: { "data-mode": "plan", "aria-pressed": "false", title: localizer.text("Plan: the model reads with read-only tools and proposes a plan; it changes no files and runs no commands") },
      }),
      act: button(localizer.text("Act"), () => this.choose("act"), {
        className: "mode-option",
        attributes: { "data-mode": "act", "aria-pressed": "true", title: localizer.text("Act: the model may propose edits and run commands, each after your approval") },
      }),
    };
    this.root = element("div", { className: "mode-switch", attributes: { role: "group", "aria-label": localizer.text("Mode") } }, [this.options.plan, this.options.act]);
    this.show("act");
  }

  update(mode: ChatModeView): void {
    if (mode !== this.mode) this.show(mode);
  }

  private choose(mode: ChatModeView): void {
    if (mode === this.mode) return;
    this.show(mode);
    this.post({ type: "setMode", mode });
  }

  private show(mode: ChatModeView): void {
    this.mode = mode;
    this.root.dataset["mode"] = mode;
    for (const [name, option] of Object.entries(this.options) as Array<[ChatModeView, HTMLButtonElement]>) {
      option.setAttribute("aria-pressed", String(name === mode));
      option.classList.toggle("selected", name === mode);
    }
  }
}
