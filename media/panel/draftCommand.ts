import type { ToHost } from "../../src/panel/protocol";

/** How long typing pauses before the host hears of the draft's slash command. */
const DRAFT_COMMAND_DELAY_MS = 120;

/**
 * Tells the host the message box's text while it starts with `/` (and once when it no longer does), a moment after
 * typing pauses: the command's prompt and tools then go into the next request's instructions, so the context
 * meter, the Rules chip and every way to "What the model is told" count them (src/panel/context/nextRequest.ts).
 */
export class DraftCommandTeller {
  /** The draft's command as the host last heard it ("" for none). */
  private told = "";
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly post: (message: ToHost) => void) {}

  tell(draft: string): void {
    const text = draft.trimStart().startsWith("/") ? draft : "";
    clearTimeout(this.timer);
    if (text === this.told) return;
    this.timer = setTimeout(() => {
      this.told = text;
      this.post({ type: "draftCommand", text });
    }, DRAFT_COMMAND_DELAY_MS);
  }
}
