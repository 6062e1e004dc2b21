import * as vscode from "vscode";
import type { PanelView } from "./panelServices";
import type { ToHost, ToWebview } from "./protocol";
import { isToHost } from "./protocolGuards";
import { webviewHtml } from "./webviewHtml";

export const CHAT_VIEW_ID = "relayChat.chatView";

/**
 * The webview side panel: loads the page, checks every message that comes back and hands it to the
 * controller, and posts what the controller sends. Holds no chat state.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, PanelView, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handle: (message: ToHost) => void,
    private readonly logError: (message: string) => void,
    private readonly onResolved?: () => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.onResolved?.();
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [mediaRoot] };
    view.webview.html = webviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "dist", "webview.js")).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "panel.css")).toString(),
      codiconsUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "dist", "codicon.css")).toString(),
      codeBlockStyleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, "codeBlocks.css")).toString(),
      language: vscode.env.language,
    });
    this.disposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => {
        if (!isToHost(message)) {
          this.logError(`Ignored an unknown message from the chat view: ${JSON.stringify(message).slice(0, 200)}`);
          return;
        }
        this.handle(message);
      }),
      view.onDidDispose(() => {
        this.view = undefined;
      }),
    );
  }

  get visible(): boolean {
    return this.view?.visible === true;
  }

  reveal(): void {
    void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /**
   * Shows the view with the caret in its message box, so what is typed next lands there. Focusing the view
   * alone focuses the page, not the box: typing was lost. A view not loaded yet focuses its box on its first
   * render (data-initial-focus); the message below is for one already loaded.
   */
  async focusMessageBox(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.post({ type: "focusInput" });
  }

  /** The view's badge counts the tool calls waiting for approval, so a hidden view still shows that a turn waits. */
  showPendingApprovals(count: number): void {
    if (!this.view) return;
    const tooltip = count === 1 ? vscode.l10n.t("1 tool call waiting for your approval") : vscode.l10n.t("{0} tool calls waiting for your approval", count);
    this.view.badge = count > 0 ? { value: count, tooltip } : undefined;
  }

  post(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
