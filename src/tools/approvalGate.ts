// Connects the pure approval policy to whatever asks the user (the webview, a terminal prompt, a test).
import type { ApprovalAnswer, ApprovalPolicyState } from "./approvalPolicy";
import { decideApproval, offersSessionAllowance } from "./approvalPolicy";
import type { ReadyCall } from "./preparedCall";
import type { ToolRisk } from "./toolContract";

/** Everything the user needs to see to decide: the tool, its risk, and the exact arguments it will get. */
export interface ApprovalRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly toolDescription: string;
  readonly risk: ToolRisk;
  /** Pretty-printed JSON of the validated arguments: what is shown is what runs. */
  readonly argumentsJson: string;
  readonly canAllowForSession: boolean;
}

export function describeApprovalRequest(call: ReadyCall, state: Pick<ApprovalPolicyState, "trusted">): ApprovalRequest {
  return {
    callId: call.call_id,
    toolName: call.tool.name,
    toolDescription: call.tool.description,
    risk: call.tool.risk,
    argumentsJson: JSON.stringify(call.args, null, 2),
    canAllowForSession: offersSessionAllowance(call.tool, state),
  };
}

export type AskUser = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/**
 * Returns the `approve` function `runToolCall` expects: auto-approves what the policy allows, asks otherwise,
 * and records "allow for this session" only where the policy permits it. An "allow_session" answer for a tool
 * that cannot be allowed counts as a single approval.
 */
export function createApprovalGate(state: ApprovalPolicyState, askUser: AskUser): (call: ReadyCall) => Promise<ApprovalAnswer> {
  return async (call) => {
    if (decideApproval(call, state) === "auto-approve") return "approve";
    const request = describeApprovalRequest(call, state);
    const answer = await askUser(request);
    if (answer !== "allow_session") return answer;
    if (request.canAllowForSession && state.sessionAllowances.allow(call.tool)) return "allow_session";
    return "approve";
  };
}
