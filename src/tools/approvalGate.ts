// Connects the pure approval policy to whatever asks the user (the webview, a terminal prompt, a test).
import * as path from "node:path";
import type { ApprovalDisplay, ArgumentDisplay, HiddenCharacter, PathDisplay } from "./approvalDisplay";
import { describeArguments, findHiddenCharacters } from "./approvalDisplay";
import type { ApprovalAnswer, ApprovalPolicyState } from "./approvalPolicy";
import { decideApproval, offersSessionAllowance } from "./approvalPolicy";
import type { ReadyCall } from "./preparedCall";
import type { ToolRisk } from "./toolContract";
import { resolveInsideWorkspace } from "./workspacePaths";

/** Everything the user needs to see to decide: the tool, its risk, and the exact arguments it will get. */
export interface ApprovalRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly toolDescription: string;
  readonly risk: ToolRisk;
  /** Pretty-printed JSON of the validated arguments, as the model sent them. */
  readonly argumentsJson: string;
  /** The arguments as they will be used: command lines as plain text, paths relative to the workspace. */
  readonly details: ArgumentDisplay[];
  /** Characters in the arguments that a person cannot see as they are; such a call is never allowed for the session. */
  readonly hiddenCharacters: HiddenCharacter[];
  readonly canAllowForSession: boolean;
}

export async function describeApprovalRequest(
  call: ReadyCall,
  state: Pick<ApprovalPolicyState, "trusted">,
  workspaceFolders: readonly string[] = [],
): Promise<ApprovalRequest> {
  const display = await displayOf(call, workspaceFolders);
  return {
    callId: call.call_id,
    toolName: call.tool.name,
    toolDescription: call.tool.description,
    risk: call.tool.risk,
    argumentsJson: JSON.stringify(call.args, null, 2),
    details: display.arguments,
    hiddenCharacters: display.hiddenCharacters,
    canAllowForSession: offersSessionAllowance(call.tool, state) && display.hiddenCharacters.length === 0,
  };
}

/** Resolves every path and folder argument the way the tools will (symbolic links followed), then describes all. */
async function displayOf(call: ReadyCall, workspaceFolders: readonly string[]): Promise<ApprovalDisplay> {
  const roles = call.tool.argumentRoles ?? {};
  const paths = new Map<string, PathDisplay>();
  for (const [name, role] of Object.entries(roles)) {
    const value = call.args[name];
    if ((role === "path" || role === "folder") && typeof value === "string") paths.set(name, await workspacePathDisplay(workspaceFolders, value));
  }
  return describeArguments(call.args, roles, paths);
}

async function workspacePathDisplay(workspaceFolders: readonly string[], requested: string): Promise<PathDisplay> {
  if (workspaceFolders.length === 0) return { shown: requested, inside: false };
  const resolved = await resolveInsideWorkspace(workspaceFolders, requested);
  if (!resolved.ok) return { shown: requested, inside: false };
  const prefix = workspaceFolders.length > 1 ? path.basename(path.resolve(resolved.folder)) : "";
  const joined = [prefix, resolved.relativePath].filter((part) => part !== "").join("/");
  return { shown: joined === "" ? "." : joined, inside: true };
}

export type AskUser = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/**
 * Returns the `approve` function `runToolCall` expects: auto-approves what the policy allows, asks otherwise,
 * and records "allow for this session" only where the policy permits it. An "allow_session" answer for a tool
 * that cannot be allowed counts as a single approval. A call with hidden characters in its arguments is always
 * asked about, even for a tool allowed for the session: what it does may not be what the text seems to say.
 * `state` is read at every decision, so a tool turned off (or trust withdrawn) while a card is open is not
 * remembered as allowed when the answer comes.
 */
export function createApprovalGate(
  state: () => ApprovalPolicyState,
  askUser: AskUser,
  workspaceFolders: () => readonly string[] = () => [],
): (call: ReadyCall) => Promise<ApprovalAnswer> {
  return async (call) => {
    const hidden = findHiddenCharacters(call.args);
    if (hidden.length === 0 && decideApproval(call, state()) === "auto-approve") return "approve";
    const request = await describeApprovalRequest(call, state(), workspaceFolders());
    const answer = await askUser(request);
    if (answer !== "allow_session") return answer;
    const now = state();
    const stillAllowable = offersSessionAllowance(call.tool, now) && !now.disabledToolNames.has(call.tool.name);
    if (request.canAllowForSession && stillAllowable && now.sessionAllowances.allow(call.tool)) return "allow_session";
    return "approve";
  };
}
