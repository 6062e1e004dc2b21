// Who decides whether a call may run without asking. Pure: the state is passed in, nothing is remembered here
// except what SessionAllowances holds for the lifetime of one editor session.
import type { Tool, ToolRisk } from "./toolContract";

export type ApprovalAnswer = "approve" | "deny" | "allow_session";
export type ApprovalDecision = "ask" | "auto-approve";

/** Which tools the user let run without asking, by name, for this session only (never persisted). */
export class SessionAllowances {
  private readonly allowedToolNames = new Set<string>();

  /**
   * Only read tools can be allowed for the session; a write or execute tool is refused here and,
   * independently, ignored by `decideApproval`, so neither check alone has to be right.
   */
  allow(tool: Pick<Tool, "name" | "risk">): boolean {
    if (!canBeAllowedForSession(tool.risk)) return false;
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
}

export interface ApprovalPolicyState extends ToolAvailability {
  readonly sessionAllowances: SessionAllowances;
}

export function canBeAllowedForSession(risk: ToolRisk): boolean {
  return risk === "read";
}

/** Whether the prompt may offer "allow for this session" for this tool in this workspace. */
export function offersSessionAllowance(tool: Pick<Tool, "risk">, state: Pick<ApprovalPolicyState, "trusted">): boolean {
  return state.trusted && canBeAllowedForSession(tool.risk);
}

export function decideApproval(
  call: { readonly tool: Pick<Tool, "name" | "risk"> },
  state: ApprovalPolicyState,
): ApprovalDecision {
  if (!state.trusted) return "ask";
  if (state.disabledToolNames.has(call.tool.name)) return "ask";
  if (!canBeAllowedForSession(call.tool.risk)) return "ask";
  return state.sessionAllowances.has(call.tool.name) ? "auto-approve" : "ask";
}
