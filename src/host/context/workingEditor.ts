import * as vscode from "vscode";

// The editor the person works in: the active text editor, except Relay Chat's own read-only documents ("What the
// model is told"). Focusing the preview must change nothing it describes: the current-file chip, the offered
// selection and the rules that follow the file worked on stay with the last editor the person worked in.
// VS Code reports no active editor for a moment while one editor replaces another (by design: microsoft/vscode
// #104571, #108868), opening the preview too; so "none" counts only once it lasts.

/** How long "no active text editor" must last before the editor worked in is none. */
const NONE_SETTLES_MS = 300;

/** The scheme of Relay Chat's own read-only documents. */
export const OWN_DOCUMENT_SCHEME = "relay-chat";

export function isOwnDocument(uri: vscode.Uri): boolean {
  return uri.scheme === OWN_DOCUMENT_SCHEME;
}

export class WorkingEditor implements vscode.Disposable {
  private last: vscode.TextEditor | undefined;
  private noneTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly selectionChanged = new vscode.EventEmitter<void>();
  /** The editor worked in changed (focusing one of Relay Chat's own documents is no change). */
  readonly onDidChange = this.changed.event;
  /** The selection changed in the editor worked in. */
  readonly onDidChangeSelection = this.selectionChanged.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.last = ownOrNot(vscode.window.activeTextEditor);
    this.subscriptions = [
      this.changed,
      this.selectionChanged,
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        clearTimeout(this.noneTimer);
        if (editor === undefined) this.noneTimer = setTimeout(() => this.settleNone(), NONE_SETTLES_MS);
        else if (!isOwnDocument(editor.document.uri)) this.use(editor);
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (!isOwnDocument(event.textEditor.document.uri)) this.selectionChanged.fire();
      }),
    ];
  }

  /** The active text editor; while one of Relay Chat's own documents is active (or none, for a moment), the one worked in before. */
  get current(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active !== undefined && !isOwnDocument(active.document.uri)) return active;
    const last = this.last;
    // Closed meanwhile (its tab too: Close All Editors) it is none at once, not after NONE_SETTLES_MS.
    return last === undefined || last.document.isClosed || !hasTab(last.document.uri) ? undefined : last;
  }

  private use(editor: vscode.TextEditor | undefined): void {
    if (editor === this.last) return;
    this.last = editor;
    this.changed.fire();
  }

  private settleNone(): void {
    if (vscode.window.activeTextEditor === undefined) this.use(undefined);
  }

  dispose(): void {
    clearTimeout(this.noneTimer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function ownOrNot(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  return editor !== undefined && isOwnDocument(editor.document.uri) ? undefined : editor;
}

/** Whether a tab shows the file (its editor may be hidden behind Relay Chat's own document in the same group). */
function hasTab(uri: vscode.Uri): boolean {
  const shown = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === shown) || (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === shown)),
  );
}
