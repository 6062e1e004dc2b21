import * as path from "node:path";
import * as vscode from "vscode";
import type { TurnCheckpoints } from "../../chat/toolRound";
import { gitVersion } from "../../tools/checkpointGit";
import { watchCheckpointHelper } from "../../tools/checkpointHelper";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../tools/checkpointStore";

// Where checkpoints can be taken and the shadow repositories they live in. They are off in an untrusted
// workspace, when a folder is not on disk (a virtual file system) and when git is missing; the user is told
// why once, the first time a turn would have taken one. Failures never stop a tool: the turn goes on without.

export interface CheckpointLog {
  info(message: string): void;
  error(message: string): void;
}

export class WorkspaceCheckpointing {
  private readonly folders = new Map<string, FolderCheckpoints>();
  private gitAvailable: Promise<boolean> | null = null;
  private noticeShown = false;

  constructor(
    /** The extension's storage folder; the shadow repositories go in its `checkpoints` folder. */
    private readonly storageFolder: string,
    private readonly log: CheckpointLog,
  ) {
    watchCheckpointHelper((event) =>
      log.info("ready" in event ? "checkpoints: the helper thread is ready (dist/checkpointWorker.js)" : `checkpoints: the helper thread stopped (${event.failed}); checkpoints are taken on one thread`),
    );
  }

  /** What a chat turn uses to take checkpoints. */
  readonly turnCheckpoints: TurnCheckpoints = {
    take: async () => {
      const checkpoints = await this.available();
      return checkpoints ? checkpoints.take() : null;
    },
    countChanges: async (from, to) => (await this.current().diff(from, to)).length,
    changedPaths: async (from, to) => (await this.current().diff(from, to)).map((change) => `${change.folder}\0${change.path}`),
  };

  /** The workspace's checkpoints for the folders open now (review and restore work whatever the trust). */
  current(): WorkspaceCheckpoints {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file");
    return new WorkspaceCheckpoints(folders.map((folder) => this.folderCheckpoints(folder)));
  }

  private folderCheckpoints(folder: vscode.WorkspaceFolder): FolderCheckpoints {
    const existing = this.folders.get(folder.uri.fsPath);
    if (existing) return existing;
    const created = new FolderCheckpoints(path.join(this.storageFolder, "checkpoints"), folder.uri.fsPath, {
      excludes: () => excludedGlobs(folder),
      unsavedFiles: () => unsavedTexts(folder),
      onRecovered: (files) => this.log.info(`checkpoints: removed ${files.join(", ")} left by a git that was stopped mid-run (${folder.uri.fsPath})`),
    });
    this.folders.set(folder.uri.fsPath, created);
    return created;
  }

  private async available(): Promise<WorkspaceCheckpoints | null> {
    const reason = await this.unavailableReason();
    if (reason === null) return this.current();
    if (!this.noticeShown) {
      this.noticeShown = true;
      this.log.info(`checkpoints are off: ${reason}`);
      void vscode.window.showInformationMessage(reason);
    }
    return null;
  }

  private async unavailableReason(): Promise<string | null> {
    if (!vscode.workspace.isTrusted) return vscode.l10n.t("Checkpoints are off in an untrusted workspace: a turn's file changes cannot be restored in one step.");
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) return vscode.l10n.t("Checkpoints are off: no folder is open, so there are no workspace files to restore.");
    if (folders.some((folder) => folder.uri.scheme !== "file")) {
      return vscode.l10n.t("Checkpoints are off: a workspace folder is on a virtual file system, which git cannot read. A turn's file changes cannot be restored in one step.");
    }
    this.gitAvailable ??= gitVersion().then((version) => {
      this.log.info(version ? `checkpoints use ${version}` : "checkpoints: git was not found on the PATH");
      return version !== null;
    });
    if (!(await this.gitAvailable)) {
      return vscode.l10n.t("Checkpoints are off because git was not found. Install git (it is used only for Relay Chat's own copies, never your repository) to restore a turn's file changes in one step.");
    }
    return null;
  }
}

/** Open files of the folder with unsaved changes (propose_edit leaves its edits unsaved), by relative path. */
function unsavedTexts(folder: vscode.WorkspaceFolder): Map<string, string> {
  const texts = new Map<string, string>();
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== "file") continue;
    const relative = path.relative(folder.uri.fsPath, document.uri.fsPath);
    if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) texts.set(relative.split(path.sep).join("/"), document.getText());
  }
  return texts;
}

/** The folder's files.exclude globs that are on (a glob with a `when` condition is left to the editor's views). */
function excludedGlobs(folder: vscode.WorkspaceFolder): string[] {
  const exclude = vscode.workspace.getConfiguration("files", folder.uri).get<Record<string, unknown>>("exclude", {});
  return Object.entries(exclude).filter(([, on]) => on === true).map(([glob]) => glob);
}
