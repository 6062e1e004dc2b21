import * as vscode from "vscode";

// The "Get Started with Relay Chat" walkthrough (package.json `walkthroughs`). Its steps complete from
// what really happened: the base URL setting changes (VS Code sees that itself), and the context keys set
// here: a relay address is known (setting or RELAY_CHAT_BASE_URL), a key is stored, the check-up passed, a
// model was picked, an answer completed.

export const WALKTHROUGH_ID = "relay-chat.relay-chat#gettingStarted";

/** Remembered in globalState: the walkthrough opens by itself once, after the first start. */
const OPENED_KEY = "relayChat.walkthroughOpened";

export class Walkthrough {
  constructor(private readonly globalState: vscode.Memento) {}

  open(): Thenable<unknown> {
    return vscode.commands.executeCommand("workbench.action.openWalkthrough", WALKTHROUGH_ID, false);
  }

  /**
   * Opens the walkthrough after the first start, unless VS Code is told not to open walkthroughs on install
   * (a machine-scoped setting: in a remote window, the remote machine's value).
   */
  openOnFirstStart(): void {
    if (this.globalState.get<boolean>(OPENED_KEY) === true) return;
    if (!vscode.workspace.getConfiguration("workbench.welcomePage.walkthroughs").get<boolean>("openOnInstall", true)) return;
    void this.globalState.update(OPENED_KEY, true);
    void this.open();
  }

  /** The relay's address (from the settings or RELAY_CHAT_BASE_URL) and whether a key is there for it. */
  relayKnown(hasBaseUrl: boolean, hasKey: boolean): void {
    void vscode.commands.executeCommand("setContext", "relayChat.hasBaseUrl", hasBaseUrl);
    void vscode.commands.executeCommand("setContext", "relayChat.hasApiKey", hasKey);
  }

  checkPassed(): void {
    void vscode.commands.executeCommand("setContext", "relayChat.connectionChecked", true);
  }

  modelPicked(): void {
    void vscode.commands.executeCommand("setContext", "relayChat.modelPicked", true);
  }

  answered(): void {
    void vscode.commands.executeCommand("setContext", "relayChat.answered", true);
  }
}
