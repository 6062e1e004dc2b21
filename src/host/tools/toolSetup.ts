import * as vscode from "vscode";
import type { ChatTools } from "../../chat/toolRound";
import type { ApprovalAnswer, ApprovedBy, ReadOnlyDefault, SessionAllowances, ToolAvailability } from "../../tools/approvalPolicy";
import type { ApprovalRequest, ProposedRule } from "../../tools/approvalGate";
import { createApprovalGate } from "../../tools/approvalGate";
import type { AutoApproveRules } from "../../tools/autoApproveRules";
import { parseAutoApproveRules, withRuleAdded } from "../../tools/autoApproveRules";
import type { Tool } from "../../tools/toolContract";
import { redactToolOutput } from "../../tools/toolOutputRedaction";
import { ToolRegistry } from "../../tools/toolRegistry";
import type { RelayChatSettings } from "../settings";

export interface ToolSetupSources {
  /** Every key that must never reach the model through a tool result (the one in use, RELAY_CHAT_API_KEY). */
  secrets(): readonly string[];
  /** File-system paths of the open workspace folders, to show paths in approvals as the tools resolve them. */
  workspaceFolders(): readonly string[];
  /** A line for the Relay Chat output log (calls approved by a rule, problems in the rules). */
  log?(message: string): void;
  /** The person's one answer about read-only tools (kept in globalState); without it the question is never asked. */
  readOnlyDefault?: ReadOnlyDefaultStore;
}

export interface ReadOnlyDefaultStore {
  get(): ReadOnlyDefault;
  set(choice: Exclude<ReadOnlyDefault, null>): void;
}

const READ_ONLY_DEFAULT_KEY = "relayChat.readOnlyToolsWithoutAsking";

/** The first-use choice about read-only tools, machine-wide (never from a workspace). */
export function globalReadOnlyDefault(globalState: vscode.Memento): ReadOnlyDefaultStore {
  return {
    get: () => {
      const value = globalState.get<unknown>(READ_ONLY_DEFAULT_KEY);
      return value === "always" || value === "ask" ? value : null;
    },
    set: (choice) => void globalState.update(READ_ONLY_DEFAULT_KEY, choice),
  };
}

/** The setting's key under relayChat; application scope, and read from the User settings only. */
export const AUTO_APPROVE_SETTING = "tools.autoApprove";

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
  /** Why calls ran without a card, by call id, until their record is written. */
  private readonly approvedWithoutCard = new Map<string, ApprovedBy>();
  private loggedProblems = "";

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
      approve: createApprovalGate(() => ({ ...availability(), sessionAllowances: this.allowances, rules: this.rules(), readOnlyDefault: this.sources.readOnlyDefault?.get() }), askUser, () => this.sources.workspaceFolders(), {
        confirmRule: (rule) => confirmAndWriteRule(rule),
        rememberReadOnlyDefault: (choice) => this.sources.readOnlyDefault?.set(choice),
        approvedWithoutCard: (call, approvedBy) => {
          this.approvedWithoutCard.set(call.call_id, approvedBy);
          this.sources.log?.(`Tool call ${call.call_id} (${call.tool.name}) ran without asking: ${approvedBy.kind === "rule" ? `rule ${approvedBy.rule}` : "allowed for this session"}.`);
        },
      }),
      approvedBy: (callId) => {
        const approvedBy = this.approvedWithoutCard.get(callId);
        this.approvedWithoutCard.delete(callId);
        return approvedBy;
      },
      maxResultChars: this.settings().maxToolResultChars,
      redact: (text) => redactToolOutput(text, this.sources.secrets()),
    };
  }

  /** The rules as the User settings hold them now; a workspace value is never read (it could approve its own commands). */
  private rules(): AutoApproveRules {
    const rules = parseAutoApproveRules(userAutoApproveValue());
    const problems = rules.problems.join(" ");
    if (problems !== "" && problems !== this.loggedProblems) this.sources.log?.(`relayChat.tools.autoApprove: ${problems}`);
    this.loggedProblems = problems;
    return rules;
  }
}

function userAutoApproveValue(): unknown {
  return vscode.workspace.getConfiguration("relayChat").inspect<unknown>(AUTO_APPROVE_SETTING)?.globalValue;
}

/** Shows the exact rule and where it goes, then writes it to the User settings; false when the person cancels. */
async function confirmAndWriteRule(rule: ProposedRule): Promise<boolean> {
  const current = userAutoApproveValue();
  const next = withRuleAdded(current, rule.toolName, rule.command);
  const added = rule.command === null ? `"${rule.toolName}": "always"` : JSON.stringify((next.run_command as { allow: unknown[] }).allow.at(-1));
  const write = vscode.l10n.t("Write rule and run");
  const detail =
    rule.command === null
      ? vscode.l10n.t("This adds {0} to relayChat.tools.autoApprove in your User settings: {1} will run without asking in every workspace you trust. You can remove the rule there at any time.", added, rule.toolName)
      : vscode.l10n.t("This adds {0} to the run_command allow list of relayChat.tools.autoApprove in your User settings: exactly this command line will run without asking in every workspace you trust. You can remove the rule there at any time.", added);
  const chosen = await vscode.window.showInformationMessage(vscode.l10n.t("Always allow without asking?"), { modal: true, detail }, write);
  if (chosen !== write) return false;
  await vscode.workspace.getConfiguration("relayChat").update(AUTO_APPROVE_SETTING, next, vscode.ConfigurationTarget.Global);
  return true;
}

/** Why the model gets fewer tools here, for the panel; null when nothing is held back by trust. */
export function trustRestrictionNotice(): string | null {
  if (vscode.workspace.isTrusted) return null;
  return vscode.l10n.t(
    "This workspace is not trusted, so the model gets read-only tools only and every tool call asks first; running commands and proposing edits are off. Trust the workspace to use them.",
  );
}
