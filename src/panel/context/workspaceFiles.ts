import * as l10n from "@vscode/l10n";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import fuzzysort from "fuzzysort";
import { workspaceRoots } from "../../tools/fileToolContext";
import { isBinaryContent } from "../../tools/textFileContent";
import { walkWorkspaceFiles } from "../../tools/workspaceWalk";
import { MAX_FOLDER_ENTRIES, formatFolderListing } from "../../tools/workspaceContextText";
import type { NewAttachment } from "./messageAttachments";
import type { FileMatchView } from "../protocol";

// The workspace's files for the `#` picker: walked the way the tools walk them (no node_modules or .git,
// .gitignore and files.exclude respected, symbolic links not followed), kept for a short while, and
// searched fuzzily by file name and path. Only a file from this list can be attached, so a path typed
// into a message cannot reach outside the workspace.

interface IndexedFile {
  /** What the picker shows and matches: relative, "/"-separated, with the folder name when several are open. */
  path: string;
  name: string;
  absolutePath: string;
}

export interface WorkspaceFilesOptions {
  folders(): readonly string[];
  /** Glob patterns of files.exclude (the enabled ones). */
  excludePatterns(): readonly string[];
  /** More files than this are not listed (a huge workspace still answers quickly). */
  maxFiles?: number;
  /** How long a walk is reused; file events invalidate it sooner. */
  maxAgeMs?: number;
  now?: () => number;
}

export type FileAttachmentResult = { ok: true; attachment: NewAttachment } | { ok: false; problem: string };

export class WorkspaceFiles {
  private index: { files: IndexedFile[]; builtAt: number } | null = null;
  private building: Promise<IndexedFile[]> | null = null;
  /** Counts finished walks, so a miss can tell whether its listing was already fresh (a clock cannot: one tick holds many calls). */
  private walksDone = 0;

  constructor(private readonly options: WorkspaceFilesOptions) {}

  /** Files were created, deleted or renamed: the next search walks again. */
  invalidate(): void {
    this.index = null;
  }

  /** Best matches first; an empty query lists files with the shortest paths first. */
  async search(query: string, limit = 30): Promise<FileMatchView[]> {
    const files = await this.files();
    const trimmed = query.trim();
    if (trimmed === "") return [...files].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path)).slice(0, limit).map(({ path: shown }) => ({ path: shown }));
    return fuzzysort.go(trimmed, files, { keys: ["name", "path"], limit, threshold: 0.2 }).map((result) => ({ path: result.obj.path }));
  }

  /** Every folder that holds listed files, sorted. */
  async allFolders(): Promise<string[]> {
    const folders = new Set<string>();
    for (const file of await this.files()) {
      for (let slash = file.path.indexOf("/"); slash !== -1; slash = file.path.indexOf("/", slash + 1)) folders.add(file.path.slice(0, slash));
    }
    return [...folders].sort();
  }

  /** Folders that hold listed files, best matches first (only with a query: an empty `#` lists files). */
  async folders(query: string, limit = 5): Promise<FileMatchView[]> {
    const trimmed = query.trim();
    if (trimmed === "") return [];
    const entries = (await this.allFolders()).map((folder) => ({ path: folder, name: path.posix.basename(folder) }));
    return fuzzysort.go(trimmed, entries, { keys: ["name", "path"], limit, threshold: 0.3 }).map((result) => ({ path: result.obj.path, kind: "folder" as const }));
  }

  /** A folder's file list (recursive, as listed: ignored files left out) as an attachment; "." is the workspace. */
  async folderAttachment(shownPath: string): Promise<FileAttachmentResult> {
    const folder = shownPath.replace(/\/+$/, "");
    const prefix = folder === "." || folder === "" ? "" : `${folder}/`;
    const under = (files: readonly IndexedFile[]) => files.filter((file) => file.path.startsWith(prefix)).map((file) => file.path);
    // A folder made since the last walk (by a command, not through VS Code): walk again before saying it is not there.
    const files = (await this.foundWalkingAgainOnMiss((listed) => {
      const inFolder = under(listed);
      return inFolder.length === 0 ? undefined : inFolder;
    })) ?? [];
    if (files.length === 0) return { ok: false, problem: l10n.t('"{0}" is not a folder of this workspace with files in it (or all are ignored).', shownPath) };
    const listing = formatFolderListing(folder || ".", files);
    return { ok: true, attachment: { kind: "folder", label: `${folder || "."}/`, text: listing.text, language: "", ...(listing.cut ? { note: l10n.t("The first {0} of {1} files are listed.", MAX_FOLDER_ENTRIES, files.length) } : {}) } };
  }

  /** The listed paths that are `pathEnd` or end with "/" + `pathEnd` (a file named in an answer by its name alone). */
  async endingWith(pathEnd: string): Promise<string[]> {
    if (pathEnd === "") return [];
    return (await this.files()).filter((file) => file.path === pathEnd || file.path.endsWith(`/${pathEnd}`)).map((file) => file.path);
  }

  /** The file as an attachment; only files the index lists can be read. */
  async attachment(shownPath: string): Promise<FileAttachmentResult> {
    const find = (files: readonly IndexedFile[]) => files.find((candidate) => candidate.path === shownPath);
    const file = await this.foundWalkingAgainOnMiss(find);
    if (file === undefined) return { ok: false, problem: l10n.t('"{0}" is not a file of this workspace (or it is ignored).', shownPath) };
    let content: Buffer;
    try {
      content = await fs.readFile(file.absolutePath);
    } catch (error) {
      return { ok: false, problem: l10n.t('"{0}" could not be read ({1}).', shownPath, (error as Error).message) };
    }
    if (isBinaryContent(content)) return { ok: false, problem: l10n.t('"{0}" is a binary file; only text can be attached.', shownPath) };
    return { ok: true, attachment: { kind: "file", label: file.path, text: content.toString("utf8"), language: path.extname(file.name).slice(1) } };
  }

  /**
   * What `pick` finds in the listed files; on a miss, what it finds after walking again (a file made by a command,
   * not through VS Code), unless this call's own listing was already a fresh walk.
   */
  private async foundWalkingAgainOnMiss<T>(pick: (files: readonly IndexedFile[]) => T | undefined): Promise<T | undefined> {
    const walksBefore = this.walksDone;
    const found = pick(await this.files());
    if (found !== undefined || this.walksDone !== walksBefore) return found;
    this.index = null;
    return pick(await this.files());
  }

  private async files(): Promise<IndexedFile[]> {
    const now = (this.options.now ?? Date.now)();
    if (this.index !== null && now - this.index.builtAt < (this.options.maxAgeMs ?? 30_000)) return this.index.files;
    this.building ??= this.walk().finally(() => {
      this.building = null;
      this.walksDone += 1;
    });
    const files = await this.building;
    this.index = { files, builtAt: now };
    return files;
  }

  private async walk(): Promise<IndexedFile[]> {
    const maxFiles = this.options.maxFiles ?? 20_000;
    const files: IndexedFile[] = [];
    for (const root of await workspaceRoots(this.options.folders())) {
      for await (const file of walkWorkspaceFiles(root.realPath, { excludePatterns: this.options.excludePatterns() })) {
        if (files.length >= maxFiles) return files;
        const shown = root.displayPrefix + file.relativePath;
        files.push({ path: shown, name: path.posix.basename(shown), absolutePath: file.absolutePath });
      }
    }
    return files;
  }
}
