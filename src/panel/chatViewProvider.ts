import * as vscode from "vscode";
import type { PanelState, ToHost, ToWebview } from "./protocol";
import { isToHost } from "./protocol";
import { webviewHtml } from "./webviewHtml";

export const CHAT_VIEW_ID = "relayChat.chatView";

/** Streamed text is posted at most once per frame; a frame at 60 Hz. */
const FRAME_MS = 16;

export interface ChatViewHandler {
  handle(message: ToHost): void;
  /** The full state, rendered from scratch by the webview when it (re)loads. */
  state(): PanelState;
}

/**
 * The webview side panel: loads the page, checks every message that comes back, and posts state and
 * batched answer deltas. Holds no chat state: the handler owns it, so a reloaded webview is rebuilt
 * from one snapshot.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private pendingDeltas = new Map<string, string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private statePending = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handler: ChatViewHandler,
    private readonly logError: (message: string) => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [mediaRoot] };
    view.webview.html = webviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "dist", "webview.js")).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "panel.css")).toString(),
      codeBlockStyleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "codeBlocks.css")).toString(),
    });
    this.disposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => {
        if (!isToHost(message)) {
          this.logError(`Ignored an unknown message from the chat view: ${JSON.stringify(message).slice(0, 200)}`);
          return;
        }
        if (message.type === "ready") this.postStateNow();
        this.handler.handle(message);
      }),
      view.onDidDispose(() => {
        this.view = undefined;
      }),
    );
  }

  get visible(): boolean {
    return this.view?.visible === true;
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /** Schedules a full state post; several changes in one tick become one message. */
  postState(): void {
    if (this.statePending) return;
    this.statePending = true;
    queueMicrotask(() => this.postStateNow());
  }

  appendAnswer(turnId: string, text: string): void {
    if (!text) return;
    this.pendingDeltas.set(turnId, (this.pendingDeltas.get(turnId) ?? "") + text);
    this.flushTimer ??= setTimeout(() => this.flushDeltas(), FRAME_MS);
  }

  post(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private flushDeltas(): void {
    this.flushTimer = undefined;
    const deltas = this.pendingDeltas;
    this.pendingDeltas = new Map();
    for (const [turnId, text] of deltas) this.post({ type: "answerDelta", turnId, text });
  }

  private postStateNow(): void {
    this.statePending = false;
    // Deltas not yet posted are part of the state's text now; posting them after would double them.
    this.pendingDeltas.clear();
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    this.post({ type: "state", state: this.handler.state() });
  }
}
