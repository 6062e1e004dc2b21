import { performance } from "node:perf_hooks";

// How long activation and the first render of the chat view took, for the Output log and the activation
// benchmark (read through the API `activate` returns).

export interface ActivationTimings {
  /** How long `activate` itself took. */
  activateMs: number;
  /** When VS Code asked for the chat view's content. */
  viewResolvedMs: number | null;
  /** When the webview reported its first snapshot on screen (received by the host). */
  firstRenderMs: number | null;
  /** The webview's own time from loading its page to that first render. */
  webviewLoadToRenderMs: number | null;
  /** When each step of `activate` was done. */
  phases: Record<string, number>;
}

export class ActivationClock {
  private readonly started = performance.now();
  private readonly recorded: ActivationTimings = { activateMs: 0, viewResolvedMs: null, firstRenderMs: null, webviewLoadToRenderMs: null, phases: {} };

  /** A step of `activate` is done. */
  phase(name: string): void {
    this.recorded.phases[name] = this.sinceActivation();
  }

  activated(): void {
    this.recorded.activateMs = this.sinceActivation();
  }

  viewResolved(): void {
    this.recorded.viewResolvedMs ??= this.sinceActivation();
  }

  /** The first render was reported; false for any later one (only the first is recorded). */
  rendered(sinceLoadMs: number): boolean {
    if (this.recorded.firstRenderMs !== null) return false;
    this.recorded.firstRenderMs = this.sinceActivation();
    this.recorded.webviewLoadToRenderMs = Math.round(sinceLoadMs);
    return true;
  }

  timings(): ActivationTimings {
    return { ...this.recorded, phases: { ...this.recorded.phases } };
  }

  private sinceActivation(): number {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }
}
