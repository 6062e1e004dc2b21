// What the plain-Node file tools need from their host; the extension fills it from the editor and settings.
import { promises as fs } from "node:fs";
import * as path from "node:path";

export interface FileToolContext {
  /** Called on every run because folders can be added or removed while a chat is open. */
  workspaceFolders(): readonly string[];
  /** Glob patterns to leave out of find_files and search_text, e.g. the files.exclude setting. */
  excludePatterns?(): readonly string[];
}

export interface WorkspaceRoot {
  readonly realPath: string;
  /** Prefix for reported paths: "" with one folder, "folderName/" with several, matching how paths are resolved. */
  readonly displayPrefix: string;
}

export async function workspaceRoots(workspaceFolders: readonly string[]): Promise<WorkspaceRoot[]> {
  const roots: WorkspaceRoot[] = [];
  for (const folder of workspaceFolders) {
    try {
      roots.push({
        realPath: await fs.realpath(folder),
        displayPrefix: workspaceFolders.length > 1 ? `${path.basename(path.resolve(folder))}/` : "",
      });
    } catch {
      // A folder that no longer exists has nothing to find.
    }
  }
  return roots;
}
