import * as vscode from "vscode";

// The "Get Started with Relay Chat" walkthrough (package.json `walkthroughs`). Its steps complete from
// what really happened: the base URL setting changes (VS Code sees that itself), and the context keys set
// here: a relay address is known (setting or RELAY_CHAT_BASE_URL), a key is stored, the check-up passed, a
// model was picked, an answer completed.
//
// VS Code creates its walkthrough service lazily, often only when a walkthrough is opened. A step whose
// context key is already true at that moment is noted as "seen" but never ticked, and the same event never
// ticks it later. So every step's condition also needs `relayChat.walkthroughReady`: it is false while the
// walkthrough opens (the service registers the steps as not done) and true right after (the change ticks
// every step whose key is true).
//
// VS Code builds the page on the first step not done, which (the ready key being false) is always the first
// one: so the page is opened on the first step this extension knows is not done, the last one when all are.

export const WALKTHROUGH_ID = "relay-chat.relay-chat#gettingStarted";

/** Remembered in globalState: the walkthrough opens by itself once, after the first start. */
const OPENED_KEY = "relayChat.walkthroughOpened";

const READY_KEY = "relayChat.walkthroughReady";

/** Steps done once stay done (VS Code remembers ticked steps across sessions): remembered in globalState. */
const DONE_STEPS_KEY = "relayChat.walkthroughDoneSteps";

/** The step ids in package.json's order. */
const STEPS = ["addRelay", "setKey", "checkConnection", "pickModel", "askFirstQuestion"] as const;
type StepId = (typeof STEPS)[number];

function setContext(key: string, value: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand("setContext", key, value);
}

export class Walkthrough {
  private readonly done = new Set<StepId>();

  constructor(private readonly globalState: vscode.Memento) {
    // Where the service already runs (it was created before this extension started), steps tick as keys change.
    void setContext(READY_KEY, true);
    for (const id of globalState.get<string[]>(DONE_STEPS_KEY, [])) {
      if ((STEPS as readonly string[]).includes(id)) this.done.add(id as StepId);
    }
  }

  /** The step the page opens on: the first not done, the last when all are. */
  stepToShow(): StepId {
    return STEPS.find((id) => !this.done.has(id)) ?? STEPS[STEPS.length - 1];
  }

  private stepDone(id: StepId): void {
    if (this.done.has(id)) return;
    this.done.add(id);
    void this.globalState.update(DONE_STEPS_KEY, [...this.done]);
  }

  async open(): Promise<void> {
    await setContext(READY_KEY, false);
    try {
      await vscode.commands.executeCommand("workbench.action.openWalkthrough", { category: WALKTHROUGH_ID, step: this.stepToShow() }, false);
    } finally {
      await setContext(READY_KEY, true);
    }
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
    void setContext("relayChat.hasBaseUrl", hasBaseUrl);
    void setContext("relayChat.hasApiKey", hasKey);
    if (hasBaseUrl) this.stepDone("addRelay");
    if (hasKey) this.stepDone("setKey");
  }

  checkPassed(): void {
    void setContext("relayChat.connectionChecked", true);
    this.stepDone("checkConnection");
  }

  modelPicked(): void {
    void setContext("relayChat.modelPicked", true);
    this.stepDone("pickModel");
  }

  answered(): void {
    void setContext("relayChat.answered", true);
    this.stepDone("askFirstQuestion");
  }
}
