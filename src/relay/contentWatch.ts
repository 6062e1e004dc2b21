import type { RelayEvent } from "./types";

// The limit on time without content. The idle limit (bytes) cannot catch a relay that keeps the connection
// alive while nothing comes: SSE comments (OpenRouter's `: OPENROUTER PROCESSING`, a proxy's `: keep-alive`), empty
// deltas and repeated status events are bytes, so a stalled answer stayed open for ever. They still prove the
// connection lives (the idle limit keeps reading them); this second, longer limit counts only content: text,
// reasoning (a thinking model's deltas are its progress), tool calls and the items that carry them. Both wires.

/** Long enough for a thinking model that reasons without streaming its reasoning, before it writes a word. */
export const DEFAULT_CONTENT_TIMEOUT_MS = 600_000;

/** Events that announce or grow an answer's items; anything else (status, unknown, keep-alive) is not content. */
const ITEM_EVENTS = new Set(["response.output_item.added", "response.output_item.done", "response.content_part.added", "response.reasoning_summary_part.added"]);

export function carriesContent(event: RelayEvent): boolean {
  return (typeof event.delta === "string" && event.delta !== "") || ITEM_EVENTS.has(event.type);
}

/**
 * Calls `onExpired` once when `limitMs` pass without `sawContent`. One timer, re-armed only when it fires early:
 * content costs an assignment, not a timer per chunk (an answer is thousands of chunks).
 */
export class ContentWatch {
  private lastContent = performance.now();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limitMs: number,
    private readonly onExpired: () => void,
  ) {
    this.arm(limitMs);
  }

  /** Reads a batch of events: any content resets the clock. */
  saw(events: readonly RelayEvent[]): void {
    if (events.some(carriesContent)) this.lastContent = performance.now();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const waited = performance.now() - this.lastContent;
      if (waited >= this.limitMs) {
        this.timer = null;
        this.onExpired();
      } else {
        this.arm(this.limitMs - waited);
      }
    }, delayMs);
  }
}
