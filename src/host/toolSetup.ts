import * as vscode from "vscode";
import type { ChatTools } from "../chat/toolRound";
import type { ApprovalAnswer, SessionAllowances, ToolAvailability } from "../tools/approvalPolicy";
import type { ApprovalRequest } from "../tools/approvalGate";
import { createApprovalGate } from "../tools/approvalGate";
import type { Tool } from "../tools/toolContract";
import { redactToolOutput } from "../tools/toolOutputRedaction";
import { ToolRegistry } from "../tools/toolRegistry";
import type { RelayChatSettings } from "./settings";

export interface ToolSetupSources {
  /** Every key that must never reach the model through a tool result (the one in use, RELAY_CHAT_API_KEY). */
  secrets(): readonly string[];
  /** File-system paths of the open workspace folders, to show paths in approvals as the tools resolve them. */
  workspaceFolders(): readonly string[];
}

/**
 * Builds the tools a chat session offers: the registry, what workspace trust and the settings allow,
 * the approval gate that asks through the panel, and the redaction every result passes through.
 * What trust and the settings allow is read again for every request and before every call runs, so a
 * change applies to open conversations at once.
 * "Allow for this session" lasts as long as the window: the allowances are shared by every conversation
 * until the extension is deactivated, or until the user revokes them (Session Approvals) or turns the tool off.
 */
export class ToolSetup {
  private readonly registry: ToolRegistry;

  constructor(
    tools: Tool[],
    private readonly settings: () => RelayChatSettings,
    private readonly sources: ToolSetupSources,
    private readonly allowances: SessionAllowances,
  ) {
    this.registry = new ToolRegistry(tools);
  }

  chatTools(askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ChatTools {
    const availability = (): ToolAvailability => ({ trusted: vscode.workspace.isTrusted, disabledToolNames: new Set(this.settings().disabledTools) });
    return {
      registry: this.registry,
      availability,
      approve: createApprovalGate(() => ({ ...availability(), sessionAllowances: this.allowances }), askUser, () => this.sources.workspaceFolders()),
      maxResultChars: this.settings().maxToolResultChars,
      redact: (text) => redactToolOutput(text, this.sources.secrets()),
    };
  }
}

/** Why the model gets fewer tools here, for the panel; null when nothing is held back by trust. */
export function trustRestrictionNotice(): string | null {
  if (vscode.workspace.isTrusted) return null;
  return vscode.l10n.t(
    "This workspace is not trusted, so the model gets read-only tools only and every tool call asks first; running commands and proposing edits are off. Trust the workspace to use them.",
  );
}
