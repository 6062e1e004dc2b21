import type { ToHost } from "../../src/panel/protocol";
import type { DraftState } from "./messageEdit";
import type { ScrollPlace } from "./scrollPlace";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * What the webview keeps in VS Code's per-webview state: across the view being hidden and shown again and
 * across a window reload (VS Code stores a view's state with the window's).
 */
export interface SavedViewState extends DraftState {
  /** Where the person was in the conversation on screen; absent: at its end. */
  place?: ScrollPlace;
}

/** The only way out of the webview: typed messages to the host, plus the saved state. */
export class HostChannel {
  // acquireVsCodeApi may be called once per page; a second call throws.
  private readonly api: VsCodeApi = acquireVsCodeApi();

  post(message: ToHost): void {
    this.api.postMessage(message);
  }

  logError(message: string): void {
    this.post({ type: "log", level: "error", message });
  }

  /** The saved state, each part checked: a state from an older version, or none, gives what is valid of it. */
  savedState(): SavedViewState {
    const saved = asRecord(this.api.getState());
    const draft = typeof saved?.draft === "string" ? saved.draft : "";
    const edit = asRecord(saved?.edit);
    const place = asRecord(saved?.place);
    return {
      draft,
      ...(typeof edit?.turnId === "string" && typeof edit.text === "string" ? { edit: { turnId: edit.turnId, text: edit.text } } : {}),
      ...(typeof place?.conversationId === "string" && typeof place.turnId === "string" && typeof place.offset === "number" && Number.isFinite(place.offset)
        ? { place: { conversationId: place.conversationId, turnId: place.turnId, offset: place.offset } }
        : {}),
    };
  }

  saveState(state: SavedViewState): void {
    this.api.setState(state);
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
