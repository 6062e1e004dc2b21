import { emptySnapshot } from "../../relay/accumulate";

// How long the running request of a turn has waited for content (text, reasoning, a tool call), for the turn's
// "Working…" line: a relay that keeps the connection alive while nothing comes looks the same as one that works,
// until the limit on time without content gives up (relayChat.contentTimeoutSeconds, src/relay/contentWatch.ts).
// The host measures it, so keep-alives the webview never sees and a clock on another machine (a remote window)
// do not matter; the page gets one small message a second, only while a wait is long enough to say.

/** A shorter wait is the ordinary pace of an answer; it is not shown. */
export const CONTENT_WAIT_SHOWN_AFTER_MS = 5_000;
const TICK_MS = 1_000;

export interface ContentWaitTimers {
  now(): number;
  every(ms: number, work: () => void): { cancel(): void };
}

const realTimers: ContentWaitTimers = {
  now: () => performance.now(),
  every: (ms, work) => {
    const timer = setInterval(work, ms);
    return { cancel: () => clearInterval(timer) };
  },
};

export class ContentWaitClock {
  private running: { turnId: string; since: number; output: unknown; shown: boolean; tick: { cancel(): void } } | null = null;

  /** `post(turnId, seconds)`: the wait so far in whole seconds, or null when it ended (content came, the request ended). */
  constructor(
    private readonly post: (turnId: string, seconds: number | null) => void,
    private readonly timers: ContentWaitTimers = realTimers,
  ) {}

  /** A request of the turn was sent: the wait starts. */
  requestStarted(turnId: string): void {
    this.stop();
    // A request's snapshot starts with the empty output: only a new list of items is content.
    this.running = { turnId, since: this.timers.now(), output: emptySnapshot.output, shown: false, tick: this.timers.every(TICK_MS, () => this.tick()) };
  }

  /** A batch of the answer arrived; `output` (the snapshot's items) is a new list exactly when content came. */
  received(turnId: string, output: unknown): void {
    const running = this.running;
    if (running === null || running.turnId !== turnId || running.output === output) return;
    running.output = output;
    running.since = this.timers.now();
    if (running.shown) {
      running.shown = false;
      this.post(turnId, null);
    }
  }

  /** The request ended (or the session went off screen): nothing is waited for. */
  stop(): void {
    const running = this.running;
    if (running === null) return;
    running.tick.cancel();
    this.running = null;
    if (running.shown) this.post(running.turnId, null);
  }

  private tick(): void {
    const running = this.running;
    if (running === null) return;
    const waited = this.timers.now() - running.since;
    if (waited < CONTENT_WAIT_SHOWN_AFTER_MS) return;
    running.shown = true;
    this.post(running.turnId, Math.floor(waited / 1000));
  }
}
