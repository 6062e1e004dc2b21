// Every tool Relay Chat ships, wired to the editor: the plain-Node file and command tools plus the three
// that need VS Code. The extension passes in where the workspace is and what the settings say.
import * as vscode from "vscode";
import type { FileToolContext } from "../fileToolContext";
import { createChangesTool } from "../changesTool";
import { createFindFilesTool } from "../findFilesTool";
import { createListDirectoryTool } from "../listDirectoryTool";
import { createReadFileTool } from "../readFileTool";
import { createRunCommandTool } from "../runCommandTool";
import { RunningCommands } from "../runningCommands";
import { createSearchTextTool } from "../searchTextTool";
import { createUpdateTasksTool } from "../updateTasksTool";
import { createTerminalOutputTool } from "../terminalOutputTool";
import type { TerminalSnapshot } from "../terminalOutputTool";
import type { Tool } from "../toolContract";
import { createDiagnosticsTool } from "./diagnosticsTool";
import { createEditorContextTool } from "./editorContextTool";
import type { EditReviewer } from "./proposeEditTool";
import { createProposeEditTool } from "./proposeEditTool";

export interface BuiltinToolsOptions {
  /** File-system paths of the open workspace folders; asked on every call because folders come and go. */
  workspaceFolders(): readonly string[];
  /** Glob patterns skipped by find_files and search_text, e.g. the enabled keys of files.exclude. */
  excludePatterns(): readonly string[];
  commandTimeoutMs(): number;
  maxOutputChars(): number;
  /** Secret-looking environment variables the user lets run_command pass, by name. */
  allowedEnvironmentNames?(): readonly string[];
  /** Values no command may see (the relay key in use, RELAY_CHAT_API_KEY): a variable holding one is never passed. */
  secrets?(): readonly (string | null | undefined)[];
  /** Where propose_edit's changes are kept or undone (src/host/review/editReview.ts). */
  readonly review: EditReviewer;
  /** The active terminal's last commands (src/host/context/terminalHistory.ts); absent: get_terminal_output is not offered. */
  terminalSnapshot?(): TerminalSnapshot;
}

/** Disposing kills the commands still running. */
export interface BuiltinTools extends vscode.Disposable {
  readonly tools: Tool[];
}

export function createBuiltinTools(options: BuiltinToolsOptions): BuiltinTools {
  const context: FileToolContext = { workspaceFolders: () => options.workspaceFolders(), excludePatterns: () => options.excludePatterns() };
  const running = new RunningCommands();
  const tools = [
    createReadFileTool(context),
    createListDirectoryTool(context),
    createFindFilesTool(context),
    createSearchTextTool(context),
    createDiagnosticsTool({ workspaceFolders: context.workspaceFolders }),
    createEditorContextTool({ workspaceFolders: context.workspaceFolders }),
    createChangesTool(context.workspaceFolders, () => vscode.workspace.isTrusted),
    ...(options.terminalSnapshot === undefined ? [] : [createTerminalOutputTool(() => options.terminalSnapshot!())]),
    createProposeEditTool({ workspaceFolders: context.workspaceFolders, review: options.review }),
    createRunCommandTool(
      context,
      {
        timeoutMs: () => options.commandTimeoutMs(),
        maxOutputChars: () => options.maxOutputChars(),
        allowedEnvironmentNames: () => options.allowedEnvironmentNames?.() ?? [],
        secrets: () => options.secrets?.() ?? [],
      },
      running,
    ),
    createUpdateTasksTool(),
  ];
  return {
    tools,
    dispose: () => {
      running.dispose();
    },
  };
}
