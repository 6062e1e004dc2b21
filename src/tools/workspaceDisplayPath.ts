// How a path the editor hands us (a document, a diagnostic) is shown to the model: the same
// workspace-relative form the file tools print and accept, so the model can pass it straight back.
import * as path from "node:path";
import { isInside } from "./workspacePaths";

/**
 * "src/a.ts" with one folder, "folderName/src/a.ts" with several (as resolveInsideWorkspace reads them), or
 * undefined when the path is in no workspace folder. Lexical on purpose: editor paths are not real paths, and
 * they sit under the folders as VS Code was given them.
 */
export function workspaceDisplayPath(workspaceFolders: readonly string[], absolutePath: string): string | undefined {
  const containing = workspaceFolders
    .map((folder) => path.resolve(folder))
    .filter((folder) => isInside(folder, path.resolve(absolutePath)))
    .sort((a, b) => b.length - a.length)[0];
  if (containing === undefined) return undefined;
  const relative = path.relative(containing, path.resolve(absolutePath)).split(path.sep).join("/");
  const prefix = workspaceFolders.length > 1 ? `${path.basename(containing)}/` : "";
  return relative === "" ? (prefix === "" ? "." : prefix.slice(0, -1)) : prefix + relative;
}
