import * as vscode from "vscode";
import type { InstructionsPreviewHost } from "../../panel/chatControllerOptions";
import { instructionsDocument } from "../../panel/context/instructionsDocument";
import type { NextRequestView } from "../../panel/context/nextRequest";
import { OWN_DOCUMENT_SCHEME } from "../context/workingEditor";

// "What the model is told" as a read-only document of its own: provided on Relay Chat's scheme, so it is never
// an unsaved Untitled file that asks to be saved, and it always opens in its own tab (one tab, found again on the
// next opening). While it is open it follows each panel state (the text is made from the state's next request),
// and WorkingEditor keeps the editor tracking from taking it for a file the person works in.

/** How long opening waits for an already loaded preview to take its new text. */
const TEXT_UPDATE_WAIT_MS = 2_000;

export const PREVIEW_URI = vscode.Uri.from({ scheme: OWN_DOCUMENT_SCHEME, path: "/What the model is told.md" });

export class InstructionsPreview implements InstructionsPreviewHost, vscode.TextDocumentContentProvider, vscode.Disposable {
  private text = "";
  private readonly changedText = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changedText.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(OWN_DOCUMENT_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return uri.toString() === PREVIEW_URI.toString() ? this.text : "";
  }

  async show(next: NextRequestView): Promise<void> {
    this.setText(instructionsDocument(next));
    const document = await vscode.workspace.openTextDocument(PREVIEW_URI);
    // A document VS Code still holds from an earlier opening takes the new text a moment later: shown once it has.
    await textReached(document, this.text);
    // Opened as a preview tab unless that would replace another preview (a check-up report, a file glanced at).
    await vscode.window.showTextDocument(document, { preview: !anotherPreviewTab() });
  }

  changed(next: () => NextRequestView): void {
    if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === PREVIEW_URI.toString())) this.setText(instructionsDocument(next()));
  }

  dispose(): void {
    this.registration.dispose();
    this.changedText.dispose();
  }

  private setText(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.changedText.fire(PREVIEW_URI);
  }
}

/** Resolves once `document` holds `text` (VS Code asks the provider again after a change), or after a short wait. */
async function textReached(document: vscode.TextDocument, text: string): Promise<void> {
  if (document.getText() === text) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, TEXT_UPDATE_WAIT_MS);
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && document.getText() === text) done();
    });
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}

/** The active group shows a preview tab (italic title) of something else, which a preview opened there would replace. */
function anotherPreviewTab(): boolean {
  return vscode.window.tabGroups.activeTabGroup.tabs.some((tab) => tab.isPreview && !(tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === PREVIEW_URI.toString()));
}
