import * as vscode from "vscode";
import { readFileInsideFolder } from "../../instructions/fileInsideFolder";
import type { FileInsideFolderRead } from "../../instructions/fileInsideFolder";

// A rules or prompt file that VS Code's file search found, read by the one rule the CLI uses too
// (src/instructions/fileInsideFolder.ts): the search follows links, the reading does not leave the folder. A
// folder on a file system that is not the disk (a virtual workspace) has no real paths to compare and no partial
// reads: there a link or anything but a file is refused, and so is a file far larger than what is kept.

/** A virtual file system's file is read whole; one larger than this many times the kept bytes is not read. */
const WHOLE_READ_FACTOR = 16;

export async function readInstructionFile(folder: vscode.Uri, relative: string, limitBytes: number): Promise<FileInsideFolderRead> {
  if (folder.scheme === "file") return readFileInsideFolder(folder.fsPath, relative, limitBytes);
  const uri = vscode.Uri.joinPath(folder, relative);
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink || !(stat.type & vscode.FileType.File)) return { ok: false, reason: `"${relative}" is a link or not a regular file.` };
    if (stat.size > limitBytes * WHOLE_READ_FACTOR) return { ok: false, reason: `"${relative}" is too large (${stat.size} bytes) to read on this file system.` };
    const bytes = await vscode.workspace.fs.readFile(uri);
    const cut = bytes.length > limitBytes;
    return { ok: true, text: new TextDecoder().decode(bytes.subarray(0, limitBytes), { stream: cut }), cut };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
