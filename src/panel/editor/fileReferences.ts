import { promises as fs } from "node:fs";
import { resolveInsideWorkspace } from "../../tools/workspacePaths";
import type { WorkspaceFiles } from "../context/workspaceFiles";

// File names and paths that an answer mentions (`src/app.ts`, README.md), as the webview asks about them: a
// path is a workspace file when it resolves inside a workspace folder, symbolic links followed, to an existing
// file; a bare name or the end of a path (chatSession.ts, chat/chatSession.ts) when exactly one listed workspace
// file ends with it. Nothing outside the workspace is ever reported or opened.

/** Longer text is no path a person wrote in an answer. */
const MAX_REFERENCE_LENGTH = 400;

export class FileReferenceResolver {
  constructor(
    private readonly folders: () => readonly string[],
    /** The `#` picker's list of files, for bare names; null where no folder is open on disk. */
    private readonly files: WorkspaceFiles | null,
  ) {}

  /** The absolute path of the workspace file `reference` names, or null. */
  async resolve(reference: string): Promise<string | null> {
    if (reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) return null;
    const direct = await this.existingFileInside(reference);
    if (direct !== null || this.files === null) return direct;
    const candidates = await this.files.endingWith(reference.replace(/\\/g, "/").replace(/^\.\//, ""));
    return candidates.length === 1 ? this.existingFileInside(candidates[0]!) : null;
  }

  /** Which of `references` name workspace files. */
  async existing(references: readonly string[]): Promise<string[]> {
    const resolved = await Promise.all(references.map(async (reference) => ((await this.resolve(reference)) === null ? null : reference)));
    return resolved.filter((reference): reference is string => reference !== null);
  }

  private async existingFileInside(requested: string): Promise<string | null> {
    const folders = this.folders();
    if (folders.length === 0) return null;
    const resolution = await resolveInsideWorkspace(folders, requested);
    if (!resolution.ok || !resolution.exists) return null;
    try {
      return (await fs.stat(resolution.absolutePath)).isFile() ? resolution.absolutePath : null;
    } catch {
      return null;
    }
  }
}
