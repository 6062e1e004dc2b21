import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { PROMPT_FILE_READ_LIMIT_BYTES, PROMPT_FILE_SUFFIX, WORKSPACE_PROMPTS_FOLDER, isPromptFileName, parsePromptFile } from "../../instructions/promptFiles";
import type { PromptFile, PromptFileOrigin } from "../../instructions/promptFiles";
import { slashCommands } from "../../instructions/slashCommands";
import type { SlashCommand } from "../../instructions/slashCommands";
import type { SlashCommandSource } from "../../panel/turns/slashCommandRunner";
import { readInstructionFile } from "./instructionFileReader";
import { RereadOnChange } from "./rereadOnChange";

// The prompt files the `/` menu offers, read through VS Code and kept current: the workspace's
// `.github/prompts/*.prompt.md` and the person's own, from relayChat.promptFiles.userFolder (User settings
// only: a workspace must not point the person's commands elsewhere) or else the extension's global storage
// folder `prompts`. Workspace prompt files are repository text like the rules files: in an untrusted
// workspace they are off unless the person allowed the rules there (projectRulesWatcher.ts). The person's
// own are theirs, so they are read in any workspace.

const MAX_PROMPT_FILES = 200;
const USER_FOLDER_SETTING = "promptFiles.userFolder";

export class PromptFilesWatcher implements SlashCommandSource, vscode.Disposable {
  private files: PromptFile[] = [];
  private list: SlashCommand[] = slashCommands([]);
  private readonly reader = new RereadOnChange(
    () => this.readAll(),
    (files) => {
      this.files = files;
      this.list = slashCommands(files);
      for (const listener of this.listeners) listener();
    },
    (error) => this.log(`The prompt files could not be read: ${error.message}`),
  );
  /** Whether the workspace's files were allowed at the last read (the person may allow them since). */
  private readAllowed = false;
  private userWatcher: vscode.Disposable | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly globalStorage: vscode.Uri,
    /** Whether the workspace's files may be read (trusted, or the rules allowed there). */
    private readonly workspaceAllowed: () => boolean,
    private readonly log: (message: string) => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${WORKSPACE_PROMPTS_FOLDER}/*${PROMPT_FILE_SUFFIX}`);
    const stale = () => this.reader.changed();
    this.disposables.push(this.reader, watcher, watcher.onDidCreate(stale), watcher.onDidChange(stale), watcher.onDidDelete(stale));
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(stale), vscode.workspace.onDidGrantWorkspaceTrust(stale));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(`relayChat.${USER_FOLDER_SETTING}`)) return;
        this.watchUserFolder();
        this.reader.changed();
      }),
    );
    this.watchUserFolder();
  }

  /** The person's prompt folder: the setting (User settings only; `~` is the home folder), else global storage. */
  userFolder(): string {
    const setting = vscode.workspace.getConfiguration("relayChat").inspect<unknown>(USER_FOLDER_SETTING)?.globalValue;
    const configured = typeof setting === "string" ? setting.trim() : "";
    if (configured === "") return path.join(this.globalStorage.fsPath, "prompts");
    return configured === "~" || configured.startsWith("~/") ? path.join(os.homedir(), configured.slice(1)) : configured;
  }

  commands(): readonly SlashCommand[] {
    if (this.workspaceAllowed() !== this.readAllowed) this.reader.markStale();
    this.reader.readIfStale();
    return this.list;
  }

  async fresh(): Promise<readonly SlashCommand[]> {
    if (this.workspaceAllowed() !== this.readAllowed) this.reader.markStale();
    await this.reader.fresh();
    return this.list;
  }

  lookAgain(): void {
    this.reader.changed();
  }

  listen(changed: () => void): void {
    this.listeners.push(changed);
  }

  dispose(): void {
    this.userWatcher?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** Whether the last read found this prompt file (for the tests' waiting). */
  has(name: string): boolean {
    return this.files.some((file) => file.name === name);
  }

  private watchUserFolder(): void {
    this.userWatcher?.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.userFolder()), `*${PROMPT_FILE_SUFFIX}`));
    const stale = () => this.reader.changed();
    this.userWatcher = vscode.Disposable.from(watcher, watcher.onDidCreate(stale), watcher.onDidChange(stale), watcher.onDidDelete(stale));
  }

  private async readAll(): Promise<PromptFile[]> {
    const files: PromptFile[] = [];
    const folders = vscode.workspace.workspaceFolders ?? [];
    this.readAllowed = this.workspaceAllowed();
    if (this.readAllowed) {
      for (const folder of folders) {
        const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `${WORKSPACE_PROMPTS_FOLDER}/*${PROMPT_FILE_SUFFIX}`), null, MAX_PROMPT_FILES);
        for (const uri of uris.sort((a, b) => a.path.localeCompare(b.path))) {
          const relative = path.posix.relative(folder.uri.path, uri.path);
          await this.readOne(folder.uri, relative, "workspace", folders.length > 1 ? `${folder.name}/${relative}` : relative, files);
        }
      }
    }
    const userFolder = vscode.Uri.file(this.userFolder());
    const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(userFolder)).catch(() => [] as [string, vscode.FileType][]);
    for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b)).slice(0, MAX_PROMPT_FILES)) {
      // A link is looked at too: the reading decides whether it stays inside the folder.
      if ((type & vscode.FileType.File || type & vscode.FileType.SymbolicLink) && isPromptFileName(name)) await this.readOne(userFolder, name, "user", `user prompts/${name}`, files);
    }
    return files;
  }

  /** A prompt file, read only when it stays inside its folder (the workspace's, or the person's prompts folder). */
  private async readOne(folder: vscode.Uri, relative: string, origin: PromptFileOrigin, source: string, into: PromptFile[]): Promise<void> {
    const read = await readInstructionFile(folder, relative, PROMPT_FILE_READ_LIMIT_BYTES);
    if (!read.ok) return this.log(`The prompt file ${source} is not offered: ${read.reason}`);
    const file = parsePromptFile(path.posix.basename(relative), read.text, origin, source);
    if (file === null) this.log(`The prompt file ${source} has no usable command name (letters, digits, ".", "_" or "-"); it is not offered.`);
    else into.push(file);
  }
}
