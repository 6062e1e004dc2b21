import type * as vscode from "vscode";
import type { ChatTools, TurnCheckpoints } from "../../chat/toolRound";
import type { ExternalTools } from "../../lm/externalTools";
import type { ReadOnlyDefaultStore } from "./toolSetup";
import { ToolSetup } from "./toolSetup";
import type { SessionAllowances } from "../../tools/approvalPolicy";
import { createBuiltinTools } from "../../tools/builtin/builtinTools";
import type { BuiltinToolsOptions } from "../../tools/builtin/builtinTools";
import type { RelayChatSettings } from "../settings";

// The tools a chat session offers the model: the built-in ones (their argument validators compiled, the diff
// documents registered) are built for the first chat session, not during activation, which stays within its
// budget; other extensions' and MCP servers' tools the person chose join them behind the same approval card.

export interface ChatToolsSources extends Omit<BuiltinToolsOptions, "commandTimeoutMs" | "maxOutputChars" | "allowedEnvironmentNames"> {
  settings: () => RelayChatSettings;
  secrets: () => readonly string[];
  log: (message: string) => void;
  readOnlyDefault: ReadOnlyDefaultStore;
  sessionAllowances: SessionAllowances;
  externalTools: ExternalTools;
  /** Checkpoints are taken around rounds whose tools may change files, so a turn can be restored in one step. */
  checkpoints: TurnCheckpoints;
  /** Where the built-in tools' disposables go (running commands are killed with the extension). */
  subscriptions: vscode.Disposable[];
}

export function lazyChatTools(sources: ChatToolsSources): (askUser: Parameters<ToolSetup["chatTools"]>[0]) => ChatTools {
  let toolSetup: ToolSetup | null = null;
  return (askUser) => {
    if (toolSetup === null) {
      const builtinTools = createBuiltinTools({
        workspaceFolders: sources.workspaceFolders,
        excludePatterns: sources.excludePatterns,
        commandTimeoutMs: () => sources.settings().commandTimeoutMs,
        maxOutputChars: () => sources.settings().maxToolResultChars,
        allowedEnvironmentNames: () => sources.settings().commandEnvironmentAllow,
        secrets: sources.secrets,
        review: sources.review,
        ...(sources.terminalSnapshot === undefined ? {} : { terminalSnapshot: sources.terminalSnapshot }),
      });
      sources.subscriptions.push(builtinTools);
      toolSetup = new ToolSetup(builtinTools.tools, sources.settings, { secrets: sources.secrets, workspaceFolders: sources.workspaceFolders, log: sources.log, readOnlyDefault: sources.readOnlyDefault }, sources.sessionAllowances);
    }
    return { ...sources.externalTools.extend(toolSetup.chatTools(askUser)), checkpoints: sources.checkpoints };
  };
}
