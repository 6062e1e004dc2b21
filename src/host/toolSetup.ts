import * as vscode from "vscode";
import type { ChatTools } from "../chat/toolRound";
import type { ApprovalAnswer } from "../tools/approvalPolicy";
import { SessionAllowances } from "../tools/approvalPolicy";
import type { ApprovalRequest } from "../tools/approvalGate";
import { createApprovalGate } from "../tools/approvalGate";
import type { Tool } from "../tools/toolContract";
import { ToolRegistry } from "../tools/toolRegistry";
import type { RelayChatSettings } from "./settings";

/**
 * Builds the tools a chat session offers: the registry, what workspace trust and the settings allow,
 * and the approval gate that asks through the panel. "Allow for this session" lasts as long as the
 * window: the allowances are shared by every conversation until the extension is deactivated.
 */
export class ToolSetup {
  private readonly allowances = new SessionAllowances();
  private readonly registry: ToolRegistry;

  constructor(
    tools: Tool[],
    private readonly settings: () => RelayChatSettings,
  ) {
    this.registry = new ToolRegistry(tools);
  }

  chatTools(askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ChatTools {
    const settings = this.settings();
    const availability = { trusted: vscode.workspace.isTrusted, disabledToolNames: new Set(settings.disabledTools) };
    return {
      registry: this.registry,
      availability,
      approve: createApprovalGate({ ...availability, sessionAllowances: this.allowances }, askUser),
      maxResultChars: settings.maxToolResultChars,
    };
  }
}
