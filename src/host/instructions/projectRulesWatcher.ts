import * as path from "node:path";
import * as vscode from "vscode";
import { RULES_FILE_GLOBS } from "../../instructions/projectRules";
import type { RulesFolder } from "../../instructions/ruleFile";
import { RULE_FILE_READ_LIMIT_BYTES, SKIPPED_FOLDERS } from "../../instructions/rulesOnDisk";
import { readInstructionFile } from "./instructionFileReader";
import { RereadOnChange } from "./rereadOnChange";

// The workspace's project rules files, read through VS Code and kept current: read once when first asked
// for, again (debounced) when a rules file is created, changed or deleted. In an untrusted workspace the
// rules are repository text nobody vouched for: none are read until the person allows them, which they are
// told once per workspace. Rules are only ever text for the model (src/instructions/).

const MAX_RULES_FILES = 200;
const ALLOWED_UNTRUSTED_KEY = "relayChat.projectRules.allowedInUntrustedWorkspace";
const TOLD_UNTRUSTED_KEY = "relayChat.projectRules.toldUntrusted";

export class ProjectRulesWatcher implements vscode.Disposable {
  private folders: RulesFolder[] = [];
  private readonly reader = new RereadOnChange(
    () => this.readAll(),
    (folders) => {
      this.folders = folders;
      this.changed.fire();
    },
    (error) => this.log(`The project rules files could not be read: ${error.message}`),
  );
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** The files were read again (the Rules chip and the context meter follow). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly workspaceState: vscode.Memento, private readonly log: (message: string) => void) {
    const watcher = vscode.workspace.createFileSystemWatcher("**/{AGENTS.md,CLAUDE.md,.cursorrules,.clinerules,.clinerules/**,*.instructions.md,copilot-instructions.md}");
    const changed = () => this.reader.changed();
    this.disposables.push(this.reader, this.changed, watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(changed), vscode.workspace.onDidGrantWorkspaceTrust(changed));
    // Read at once, so the first message after the window opens finds them read.
    this.current();
  }

  /** Whether rules may be read here: a trusted workspace, or an untrusted one the person allowed them in. */
  get allowed(): boolean {
    return vscode.workspace.isTrusted || this.workspaceState.get<boolean>(ALLOWED_UNTRUSTED_KEY, false);
  }

  /** Rules files may have changed since they were last read (a read is due or under way). */
  get needsReading(): boolean {
    return this.allowed && this.reader.pending;
  }

  /** The rules files as last read (empty when not allowed); starts a read when they may have changed. */
  current(): RulesFolder[] {
    if (!this.allowed) {
      this.tellUntrustedOnce();
      return [];
    }
    this.reader.readIfStale();
    return this.folders;
  }

  /** Reads them now if they may have changed (the send path waits for it, so a fresh edit goes out). */
  async fresh(): Promise<RulesFolder[]> {
    if (!this.allowed) return this.current();
    await this.reader.fresh();
    return this.folders;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  private async readAll(): Promise<RulesFolder[]> {
    const folders: RulesFolder[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const pattern = new vscode.RelativePattern(folder, `{${RULES_FILE_GLOBS.join(",")}}`);
      const uris = await vscode.workspace.findFiles(pattern, `**/{${SKIPPED_FOLDERS.join(",")}}/**`, MAX_RULES_FILES);
      const files = new Map<string, string>();
      for (const uri of uris) {
        const relative = path.posix.relative(folder.uri.path, uri.path);
        const read = await readInstructionFile(folder.uri, relative, RULE_FILE_READ_LIMIT_BYTES);
        if (read.ok) files.set(relative, read.text);
        else this.log(`The rules file ${relative} is not sent: ${read.reason}`);
      }
      folders.push({ name: folder.name, files });
    }
    return folders;
  }

  private tellUntrustedOnce(): void {
    if (this.workspaceState.get<boolean>(TOLD_UNTRUSTED_KEY, false)) return;
    void this.workspaceState.update(TOLD_UNTRUSTED_KEY, true);
    const allow = vscode.l10n.t("Send Them");
    void vscode.window
      .showInformationMessage(vscode.l10n.t("This workspace is not trusted, so its project rules files (AGENTS.md and the like) are not sent to the model. They are only ever text for the model: they never change settings, approvals or tools."), allow)
      .then(async (choice) => {
        if (choice !== allow) return;
        await this.workspaceState.update(ALLOWED_UNTRUSTED_KEY, true);
        this.reader.changed();
        this.changed.fire();
      });
  }
}
