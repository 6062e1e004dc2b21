import type { ToHost } from "../../src/panel/protocol";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What the webview keeps across being hidden and shown again (VS Code's per-webview state). */
export interface SavedViewState {
  draft: string;
}

/** The only way out of the webview: typed messages to the host, plus the saved draft. */
export class HostChannel {
  // acquireVsCodeApi may be called once per page; a second call throws.
  private readonly api: VsCodeApi = acquireVsCodeApi();

  post(message: ToHost): void {
    this.api.postMessage(message);
  }

  logError(message: string): void {
    this.post({ type: "log", level: "error", message });
  }

  savedState(): SavedViewState {
    const saved = this.api.getState();
    const draft = typeof saved === "object" && saved !== null ? (saved as Record<string, unknown>)["draft"] : undefined;
    return { draft: typeof draft === "string" ? draft : "" };
  }

  saveState(state: SavedViewState): void {
    this.api.setState(state);
  }
}
