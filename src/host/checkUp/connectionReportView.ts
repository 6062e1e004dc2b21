import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { ConnectionReport } from "../../relay/connectionCheck";
import { connectionReportHtml } from "../../relay/connectionReport";
import type { ReportContext } from "../../relay/connectionReport";
import { redactSecrets } from "../../relay/redact";
import type { ChatCompletionsFinding } from "./chatCompletionsFinding";
import { USE_CHAT_COMPLETIONS_COMMAND } from "./chatCompletionsFinding";

// The check-up's report in an editor tab of its own (read-only; the Markdown copy stays in the extension's storage).
// Not VS Code's Markdown preview: its webview runs no command links (markdown-language-features sets no
// enableCommandUris; in code-server even a vscode:// link goes nowhere), so it could only say "confirm" without a
// button. This view has no script at all; the one command its links may run is the Chat Completions confirmation.

const VIEW_TYPE = "relayChat.connectionReport";

export interface ShownReport {
  report: ConnectionReport;
  context: ReportContext;
  /** The relay's name (the finding's key; the context names it with its address). */
  relay: string;
  model: string;
  /** The key and other secrets, removed from what is shown. */
  secrets: readonly string[];
}

export class ConnectionReportView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | null = null;
  private shown: ShownReport | null = null;
  private readonly listening: vscode.Disposable;

  constructor(private readonly finding: ChatCompletionsFinding) {
    // Confirmed anywhere (here, the panel, the notification): the report says so.
    this.listening = finding.onDidChange(() => this.render());
  }

  show(shown: ShownReport): void {
    this.shown = shown;
    if (this.panel === null) {
      this.panel = vscode.window.createWebviewPanel(VIEW_TYPE, vscode.l10n.t("Relay Check: {0}", shown.relay), vscode.ViewColumn.Active, {
        enableScripts: false,
        enableCommandUris: [USE_CHAT_COMPLETIONS_COMMAND],
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = null));
    }
    this.panel.title = vscode.l10n.t("Relay Check: {0}", shown.relay);
    this.render();
    this.panel.reveal(vscode.ViewColumn.Active);
  }

  dispose(): void {
    this.listening.dispose();
    this.panel?.dispose();
  }

  private render(): void {
    const shown = this.shown;
    if (this.panel === null || shown === null) return;
    const choice = { relay: shown.relay, model: shown.model };
    const waiting = this.finding.pending;
    const confirmation = this.finding.confirmed(choice)
      ? { href: null, relay: shown.relay }
      : waiting !== null && waiting.relay === shown.relay && waiting.model === shown.model
        ? { href: `command:${USE_CHAT_COMPLETIONS_COMMAND}?${encodeURIComponent(JSON.stringify([choice]))}`, relay: shown.relay }
        : null;
    const body = redactSecrets(connectionReportHtml(shown.report, shown.context, vscode.l10n.t, confirmation), shown.secrets);
    this.panel.webview.html = page(body);
  }
}

/** No script, styles only by nonce, nothing loaded from anywhere: the report is text, a table and at most one link. */
function page(body: string, nonce = randomBytes(18).toString("base64")): string {
  const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "img-src 'none'", "script-src 'none'", "form-action 'none'", "base-uri 'none'"].join("; ");
  return `<!DOCTYPE html>
<html lang="${/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(vscode.env.language) ? vscode.env.language : "en"}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 20px 20px; line-height: 1.5; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, rgba(128, 128, 128, 0.35)); }
td:nth-child(2) { white-space: nowrap; }
tr.failed td:nth-child(2) { color: var(--vscode-errorForeground); }
tr.warning td:nth-child(2) { color: var(--vscode-editorWarning-foreground); }
blockquote { margin: 0 0 12px; padding: 4px 12px; border-left: 4px solid var(--vscode-textBlockQuote-border); background: var(--vscode-textBlockQuote-background); }
a.button { display: inline-block; padding: 4px 12px; border-radius: 2px; text-decoration: none; color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
a.button:hover { background: var(--vscode-button-hoverBackground); }
a.button:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
</style>
<title>Relay Check</title>
</head>
<body>
${body}
</body>
</html>`;
}
