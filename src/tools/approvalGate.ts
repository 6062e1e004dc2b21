// Connects the pure approval policy to whatever asks the user (the webview, a terminal prompt, a test).
import * as path from "node:path";
import type { ApprovalDisplay, ArgumentDisplay, HiddenCharacter, PathDisplay } from "./approvalDisplay";
import { describeArguments, findHiddenCharacters } from "./approvalDisplay";
import type { ApprovalAnswer, ApprovalPolicyState, ApprovedBy, ReadOnlyDefault } from "./approvalPolicy";
import { decideApproval, offersSessionAllowance } from "./approvalPolicy";
import type { CommandConcern } from "./autoApproveRules";
import { RUN_COMMAND_TOOL, canAlwaysAllow, decideByRules, noRules } from "./autoApproveRules";
import type { ReadyCall } from "./preparedCall";
import type { ToolRisk } from "./toolContract";
import { resolveInsideWorkspace } from "./workspacePaths";
import type { EditDiff } from "./editPreview";
import { editDiff } from "./editPreview";

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
  /** "Always allow this command" (command) or "Always allow <tool>" (tool) may be offered; null: not for this call. */
  readonly alwaysAllow: "command" | "tool" | null;
  /** The first read-only card asks once whether read-only tools may run without asking from now on. */
  readonly offerReadOnlyDefault: boolean;
  /** The deny rule of relayChat.tools.autoApprove this command matched (so it asks); null when none did. */
  readonly deniedByRule: string | null;
  /** Why the allow rules that name this command did not approve it (an option that runs code, a path outside...). */
  readonly commandConcerns?: CommandConcern[];
  /** A change to a file, as a diff (propose_edit); null for other calls or when it cannot be worked out. */
  readonly diff?: EditDiff | null;
}

/** The rule "Always allow" would add: for run_command the exact command line, else the tool set to "always". */
export interface ProposedRule {
  readonly toolName: string;
  readonly command: string | null;
}

export async function describeApprovalRequest(
  call: ReadyCall,
  state: Pick<ApprovalPolicyState, "trusted" | "readOnlyDefault" | "rules">,
  workspaceFolders: readonly string[] = [],
): Promise<ApprovalRequest> {
  const display = await displayOf(call, workspaceFolders);
  const diff = await diffOf(call);
  const byRules = decideByRules(ruleSubject(call), state.rules ?? noRules);
  const deniedByRule = byRules.kind === "ask" ? byRules.deniedBy : null;
  const commandConcerns = byRules.kind === "ask" ? [...(byRules.concerns ?? [])] : [];
  return {
    callId: call.call_id,
    toolName: call.tool.name,
    toolDescription: call.tool.description,
    risk: call.tool.risk,
    argumentsJson: JSON.stringify(call.args, null, 2),
    details: display.arguments,
    hiddenCharacters: display.hiddenCharacters,
    canAllowForSession: offersSessionAllowance(call.tool, state) && display.hiddenCharacters.length === 0,
    offerReadOnlyDefault: state.trusted && state.readOnlyDefault === null && call.tool.risk === "read" && display.hiddenCharacters.length === 0,
    deniedByRule,
    ...(commandConcerns.length === 0 ? {} : { commandConcerns }),
    // Only a call with a change to show carries a diff.
    ...(diff === null ? {} : { diff }),
    // An allow rule would not help a command a deny rule matches: deny wins.
    alwaysAllow: state.trusted && deniedByRule === null && display.hiddenCharacters.length === 0 && canAlwaysAllow(ruleSubject(call)) ? (call.tool.name === RUN_COMMAND_TOOL ? "command" : "tool") : null,
  };
}

/** The tool's own preview of its change; a preview that fails leaves the card with the arguments alone. */
async function diffOf(call: ReadyCall): Promise<EditDiff | null> {
  if (call.tool.previewChange === undefined) return null;
  try {
    const change = await call.tool.previewChange(call.args);
    return change === null ? null : editDiff(change);
  } catch {
    return null;
  }
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

export interface ApprovalGateHooks {
  /**
   * Shows the rule "Always allow" would write to the User settings and writes it once the person agrees; false
   * when they do not (the card is then shown again). Without it, "always_allow" counts as a single approval.
   */
  readonly confirmRule?: (rule: ProposedRule, call: ReadyCall) => Promise<boolean>;
  /** Told about every call that runs without a card, and why (for the tool card and the log). */
  readonly approvedWithoutCard?: (call: ReadyCall, approvedBy: ApprovedBy) => void;
  /** Remembers the answer to the first-use question about read-only tools (whatever the answer to the card). */
  readonly rememberReadOnlyDefault?: (choice: Exclude<ReadOnlyDefault, null>) => void;
}

function ruleSubject(call: ReadyCall): { toolName: string; risk: string; command?: unknown } {
  return { toolName: call.tool.name, risk: call.tool.risk, command: call.args.command };
}

/**
 * Returns the `approve` function `runToolCall` expects: auto-approves what the rules (relayChat.tools.autoApprove)
 * or a session allowance allow, asks otherwise, and records "allow for this session" only where the policy
 * permits it. An "allow_session" answer for a tool that cannot be allowed counts as a single approval. A call
 * with hidden characters in its arguments is always asked about, whatever the rules and allowances say: what it
 * does may not be what the text seems to say; so is every call in an untrusted workspace.
 * `state` (rules included) is read at every decision, so a tool turned off, a rule removed or trust withdrawn
 * while a card is open is not remembered as allowed when the answer comes.
 */
export function createApprovalGate(
  state: () => ApprovalPolicyState,
  askUser: AskUser,
  workspaceFolders: () => readonly string[] = () => [],
  hooks: ApprovalGateHooks = {},
): (call: ReadyCall) => Promise<ApprovalAnswer> {
  return async (call) => {
    // Nothing outside the panel changes: there is nothing to approve.
    if (call.tool.panelOnly === true) return "approve";
    const hidden = findHiddenCharacters(call.args);
    const before = state();
    if (hidden.length === 0 && before.trusted && !before.disabledToolNames.has(call.tool.name)) {
      const byRule = decideByRules(ruleSubject(call), before.rules ?? noRules, before.readOnlyDefault === "always");
      if (byRule.kind === "allow") {
        hooks.approvedWithoutCard?.(call, { kind: "rule", rule: byRule.rule });
        return "approve";
      }
      if (decideApproval(call, before) === "auto-approve") {
        hooks.approvedWithoutCard?.(call, { kind: "session" });
        return "approve";
      }
    }
    for (;;) {
      const request = await describeApprovalRequest(call, state(), workspaceFolders());
      const answer = await askUser(request);
      if (request.offerReadOnlyDefault) hooks.rememberReadOnlyDefault?.(answer === "read_only_always" ? "always" : "ask");
      if (answer === "read_only_always") return "approve";
      if (answer === "always_allow") {
        if (request.alwaysAllow === null || hooks.confirmRule === undefined) return "approve";
        const command = request.alwaysAllow === "command" && typeof call.args.command === "string" ? call.args.command : null;
        if (await hooks.confirmRule({ toolName: call.tool.name, command }, call)) return "approve";
        continue;
      }
      if (answer !== "allow_session") return answer;
      const now = state();
      const stillAllowable = offersSessionAllowance(call.tool, now) && !now.disabledToolNames.has(call.tool.name);
      if (request.canAllowForSession && stillAllowable && now.sessionAllowances.allow(call.tool)) return "allow_session";
      return "approve";
    }
  };
}
