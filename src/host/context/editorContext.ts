import * as vscode from "vscode";
import type { EditorActions } from "../../panel/editor/editorActions";
import type { WorkspaceFiles } from "../../panel/context/workspaceFiles";
import type { WorkingEditor } from "./workingEditor";

// The editor as context for the next message: the active editor's file as a chip, the selection offered as
// a one-click attachment once it settles, and the `#` picker's file list kept fresh as files come and go. The
// editor is the one the person works in: focusing "What the model is told" changes none of it.

export function watchEditorContext(editorActions: EditorActions, workspaceFiles: WorkspaceFiles, working: WorkingEditor): vscode.Disposable {
  let selectionTimer: NodeJS.Timeout | undefined;
  const offerSelection = () => {
    clearTimeout(selectionTimer);
    selectionTimer = setTimeout(() => editorActions.offerSelection(selectionLabel(working.current)), 250);
  };
  const activeFileLabel = () => fileLabel(working.current);
  editorActions.offerActiveFile(activeFileLabel());
  // Files made or removed on disk (a command, git, a terminal) and not through VS Code: the `#` list walks again.
  const onDisk = vscode.workspace.createFileSystemWatcher("**/*", false, true, false);
  return vscode.Disposable.from(
    { dispose: () => clearTimeout(selectionTimer) },
    onDisk,
    onDisk.onDidCreate(() => workspaceFiles.invalidate()),
    onDisk.onDidDelete(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("files.exclude")) workspaceFiles.invalidate();
      if (event.affectsConfiguration("relayChat.context.activeEditor")) editorActions.offerActiveFile(activeFileLabel());
    }),
    vscode.workspace.onDidCreateFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidDeleteFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidRenameFiles(() => workspaceFiles.invalidate()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => workspaceFiles.invalidate()),
    working.onDidChangeSelection(() => offerSelection()),
    working.onDidChange(() => {
      offerSelection();
      editorActions.offerActiveFile(activeFileLabel());
    }),
  );
}

/**
 * The active editor's file as the panel names it, or null: when relayChat.context.activeEditor is off, when
 * the editor shows no file on disk (output, untitled, diff sides and other virtual documents), or a file
 * outside the workspace folders. Those (the User settings, ~/.ssh/config, a log under /tmp) are sent only
 * when the person attaches them: a file nobody chose must not leave the machine with every message.
 */
function fileLabel(editor: vscode.TextEditor | undefined): string | null {
  if (!editor || editor.document.uri.scheme !== "file" || vscode.workspace.getWorkspaceFolder(editor.document.uri) === undefined) return null;
  if (!vscode.workspace.getConfiguration("relayChat").get<boolean>("context.activeEditor", true)) return null;
  return vscode.workspace.asRelativePath(editor.document.uri);
}

/** The active editor's selection as "path:first-last", or null when nothing is selected. */
function selectionLabel(editor: vscode.TextEditor | undefined): string | null {
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme === "output") return null;
  const { start, end } = editor.selection;
  return `${vscode.workspace.asRelativePath(editor.document.uri)}:${start.line + 1}-${end.line + 1}`;
}
