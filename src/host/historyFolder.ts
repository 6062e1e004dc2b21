import { existsSync } from "node:fs";
import path from "node:path";

// Where a window keeps its history. VS Code gives each extension host its own workspace storage folder:
// a second window on the same folder (a second code-server tab, for one) finds the first one's folder
// locked and gets `<id>-1` instead of `<id>` (extHostStoragePaths.ts in VS Code). History is meant to be
// shared by those windows, so it goes to the first window's folder when that exists.

const LOCKED_COPY = /^(.+)-\d+$/;

/**
 * The storage folder history is shared in: `storageFolder` itself, or for `.../workspaceStorage/<id>-N/<extension>`
 * the same extension folder under `<id>` when it exists.
 */
export function sharedHistoryFolder(storageFolder: string, exists: (folder: string) => boolean = existsSync): string {
  const extensionFolder = path.basename(storageFolder);
  const workspaceFolder = path.dirname(storageFolder);
  const primary = LOCKED_COPY.exec(path.basename(workspaceFolder))?.[1];
  if (primary === undefined) return storageFolder;
  const shared = path.join(path.dirname(workspaceFolder), primary, extensionFolder);
  return exists(shared) ? shared : storageFolder;
}
