import * as path from "node:path";
import * as vscode from "vscode";
import type { CommitMessageWriter, StagedChanges } from "../../panel/turns/commitMessage";

// /commit's way into Git, through VS Code's Git extension (the API its git.d.ts describes, version 1): the
// staged diff of a repository and its Source Control message box. Nothing here commits. Which repository:
// the one selected in Source Control, else the active editor's, else the first with staged changes.

/** The part of the Git extension's API used here (extensions/git/src/api/git.d.ts). */
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly ui?: { readonly selected: boolean };
  diff(cached?: boolean): Promise<string>;
}

interface GitApi {
  readonly state?: "uninitialized" | "initialized";
  readonly onDidChangeState?: vscode.Event<"uninitialized" | "initialized">;
  readonly repositories: GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

const GIT_READY_TIMEOUT_MS = 5_000;

export class GitCommitBox implements CommitMessageWriter {
  private chosen: GitRepository | null = null;

  async staged(): Promise<StagedChanges> {
    const api = await gitApi();
    if (api === null) return { ok: false, problem: vscode.l10n.t("/commit needs VS Code's Git extension, which is not available here (it may be turned off: git.enabled).") };
    const repositories = candidates(api);
    if (repositories.length === 0) return { ok: false, problem: vscode.l10n.t("/commit found no Git repository in this workspace.") };
    for (const repository of repositories) {
      const diff = await repository.diff(true);
      if (diff.trim() === "") continue;
      this.chosen = repository;
      return { ok: true, diff, repository: nameOf(repository) };
    }
    return { ok: false, problem: vscode.l10n.t("Nothing is staged, so /commit has nothing to describe. Stage the changes to commit in Source Control first.") };
  }

  async write(repository: string, message: string): Promise<void> {
    const target = this.chosen !== null && nameOf(this.chosen) === repository ? this.chosen : null;
    if (target === null) throw new Error(vscode.l10n.t("The repository {0} is no longer open in Source Control.", repository));
    target.inputBox.value = message;
    await vscode.commands.executeCommand("workbench.view.scm");
  }
}

async function gitApi(): Promise<GitApi | null> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi; enabled?: boolean }>("vscode.git");
  if (!extension) return null;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (exports.enabled === false) return null;
  const api = exports.getAPI(1);
  if (api.state === "uninitialized" && api.onDidChangeState) {
    // The extension finds its repositories after activating: wait a moment for them.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, GIT_READY_TIMEOUT_MS);
      const listener = api.onDidChangeState?.((state) => state === "initialized" && done());
      function done() {
        clearTimeout(timer);
        listener?.dispose();
        resolve();
      }
    });
  }
  return api;
}

function candidates(api: GitApi): GitRepository[] {
  const editorUri = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = editorUri ? api.getRepository(editorUri) : null;
  const ordered = [...api.repositories.filter((repository) => repository.ui?.selected === true), ...(fromEditor ? [fromEditor] : []), ...api.repositories];
  return ordered.filter((repository, index) => ordered.indexOf(repository) === index);
}

function nameOf(repository: GitRepository): string {
  return path.basename(repository.rootUri.fsPath);
}
