import * as vscode from "vscode";
import type { ChatControllerOptions } from "../../panel/chatControllerOptions";
import { InstructionsPreview } from "./instructionsPreview";
import { PanelInstructions } from "./panelInstructions";
import type { TargetInstructions } from "./panelInstructions";
import { ProjectRulesWatcher } from "./projectRulesWatcher";
import { PromptFilesWatcher } from "./promptFilesWatcher";
import { WorkingEditor } from "../context/workingEditor";

// What the model is told, as the extension builds it: the project rules and prompt files kept current, the
// editor's part of the assembly, the editor the person works in, and the read-only preview. One place, so the
// composition root only hands the controller what it returns.

export interface InstructionsSetup extends vscode.Disposable {
  /** What the chat controller is given for the next request's instructions and their preview. */
  panel: Required<Pick<ChatControllerOptions, "instructions" | "instructionsReady" | "instructionsPreview">>;
  /** The `/` menu's prompt files: the workspace's (off where the rules are) and the person's own. */
  promptFiles: PromptFilesWatcher;
  /** The editor the person works in (Relay Chat's own preview is never it). */
  workingEditor: WorkingEditor;
  /** The rules files were read again. */
  onDidChange: vscode.Event<void>;
}

/** `secrets`: every stored relay key, taken out of the rules and prompt files' text before it is sent. */
export function setUpInstructions(context: vscode.ExtensionContext, log: (message: string) => void, target: () => TargetInstructions, secrets: () => readonly string[]): InstructionsSetup {
  const projectRules = new ProjectRulesWatcher(context.workspaceState, log);
  const workingEditor = new WorkingEditor();
  const preview = new InstructionsPreview();
  const instructions = new PanelInstructions(projectRules, workingEditor, target, secrets);
  const promptFiles = new PromptFilesWatcher(context.globalStorageUri, () => projectRules.allowed, log);
  return {
    panel: { instructions: (choices) => instructions.assemble(choices), instructionsReady: () => instructions.ready(), instructionsPreview: preview },
    promptFiles,
    workingEditor,
    onDidChange: projectRules.onDidChange,
    dispose: () => {
      for (const disposable of [projectRules, workingEditor, preview, promptFiles]) disposable.dispose();
    },
  };
}
