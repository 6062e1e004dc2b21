// Who decides whether a call may run without asking. Pure: the state is passed in, nothing is remembered here
// except what SessionAllowances holds for the lifetime of one editor session.
import type { AutoApproveRules } from "./autoApproveRules";
import type { ChatMode } from "./planMode";
import type { Tool } from "./toolContract";

/**
 * always_allow: "Always allow this command" / "Always allow read_file", a rule written to the User settings.
 * read_only_always: on the first read-only card, "let read-only tools run without asking from now on" (and run this one).
 */
export type ApprovalAnswer = "approve" | "deny" | "allow_session" | "always_allow" | "read_only_always";

/** The person's answer to the one first-use question about read-only tools; null: not asked yet. */
export type ReadOnlyDefault = "always" | "ask" | null;

/** Why a call ran without a card: a rule of relayChat.tools.autoApprove (as the person reads it) or a session allowance. */
export type ApprovedBy = { readonly kind: "rule"; readonly rule: string } | { readonly kind: "session" };
export type ApprovalDecision = "ask" | "auto-approve";

/**
 * Which tools the user let run without asking, by name, for this session only (never persisted). The user sees
 * and revokes them with "Session Approvals..."; turning a tool off in the settings revokes it too.
 */
export class SessionAllowances {
  private readonly allowedToolNames = new Set<string>();

  /**
   * Only read tools (and external tools the user opted in) can be allowed for the session; any other tool
   * is refused here and, independently, ignored by `decideApproval`, so neither check alone has to be right.
   */
  allow(tool: SessionAllowanceSubject & Pick<Tool, "name">): boolean {
    if (!canBeAllowedForSession(tool)) return false;
    this.allowedToolNames.add(tool.name);
    return true;
  }

  has(toolName: string): boolean {
    return this.allowedToolNames.has(toolName);
  }

  revoke(toolName: string): void {
    this.allowedToolNames.delete(toolName);
  }

  clear(): void {
    this.allowedToolNames.clear();
  }

  names(): string[] {
    return [...this.allowedToolNames].sort();
  }
}

/** What decides whether a tool is offered at all (see ToolRegistry). */
export interface ToolAvailability {
  /** Workspace trust as the editor reports it; untrusted means read tools only, and always asking. */
  readonly trusted: boolean;
  /** Tool names turned off in the settings. */
  readonly disabledToolNames: ReadonlySet<string>;
  /** The conversation's mode for the request; Plan offers read-only tools only (planMode.ts). Absent: Act. */
  readonly mode?: ChatMode;
}

export interface ApprovalPolicyState extends ToolAvailability {
  readonly sessionAllowances: SessionAllowances;
  /** relayChat.tools.autoApprove from the User settings, read at each decision; none when absent. */
  readonly rules?: AutoApproveRules;
  /** Whether read-only tools run without asking, as the person chose on first use (globalState); absent: never asked for. */
  readonly readOnlyDefault?: ReadOnlyDefault;
}

type SessionAllowanceSubject = Pick<Tool, "risk" | "sessionAllowanceOptIn">;

/**
 * Read tools may be allowed for the session. An external tool may be too, but only when the user opted in
 * for that tool: Relay Chat cannot tell whether it reads or changes anything.
 */
function canBeAllowedForSession(tool: SessionAllowanceSubject): boolean {
  return tool.risk === "read" || (tool.risk === "external" && tool.sessionAllowanceOptIn === true);
}

/** Whether the prompt may offer "allow for this session" for this tool in this workspace. */
export function offersSessionAllowance(tool: SessionAllowanceSubject, state: Pick<ApprovalPolicyState, "trusted">): boolean {
  return state.trusted && canBeAllowedForSession(tool);
}

export function decideApproval(
  call: { readonly tool: SessionAllowanceSubject & Pick<Tool, "name"> },
  state: ApprovalPolicyState,
): ApprovalDecision {
  if (!state.trusted) return "ask";
  if (state.disabledToolNames.has(call.tool.name)) return "ask";
  if (!canBeAllowedForSession(call.tool)) return "ask";
  return state.sessionAllowances.has(call.tool.name) ? "auto-approve" : "ask";
}
