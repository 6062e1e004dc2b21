// Read-only in-memory documents for the two sides of an edit review in VS Code's diff editor; nothing is
// written to disk until the user accepts.
import * as vscode from "vscode";

export const proposalScheme = "relay-chat-proposal";

export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private nextId = 1;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(proposalScheme, this);
  }

  /**
   * A fresh URI per proposal, so VS Code never shows a cached model of an earlier one. The path ends in the file's
   * name so the diff editor picks the right language; the id in the query keeps instances in one host apart.
   */
  add(text: string, relativePath: string, label: string): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: proposalScheme,
      path: `/${label}/${relativePath}`,
      query: `id=${process.pid}-${Date.now()}-${this.nextId++}`,
    });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  remove(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  /** Undefined for URIs this instance did not make, so another provider of the scheme can answer them. */
  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    return this.texts.get(uri.toString());
  }

  dispose(): void {
    this.texts.clear();
    this.registration.dispose();
  }
}
