import type { FunctionCallOutputItem, FunctionCallProposal } from "../relay/types";
import type { ApprovalAnswer, ApprovedBy, ToolAvailability } from "../tools/approvalPolicy";
import type { PreparedCall, ReadyCall } from "../tools/preparedCall";
import { prepareCall } from "../tools/preparedCall";
import { runToolCall } from "../tools/runToolCall";
import type { CheckpointId } from "../tools/checkpointStore";
import type { ToolCaller } from "../tools/toolContract";
import { ToolRegistry } from "../tools/toolRegistry";
import type { ToolCallRecord } from "./conversation";
import type { SendEstimate } from "./spendGuard";

// One round of function calling: every call a response proposed gets exactly one function_call_output,
// whatever happens. Validation (JSON, known tool, schema) comes first, so a rejected call never reaches
// the user or runs; valid calls are shown to `approve`, one at a time, and run only when approved.

export interface ChatTools {
  registry: ToolRegistry;
  /** Read for every request and again before each call runs, so changed settings apply to an open conversation. */
  availability: () => ToolAvailability;
  /** Decides about one validated call; the panel asks the user here (see tools/approvalGate). */
  approve: (call: ReadyCall) => Promise<ApprovalAnswer>;
  /** Why a call ran without asking (a rule, a session allowance), once it finished; undefined when the person approved it. */
  approvedBy?: (callId: string) => ApprovedBy | undefined;
  /** Longer tool output is cut with a visible marker before it is sent. */
  maxResultChars: number;
  /** Removes the relay key from every tool result before it is sent, saved or shown. */
  redact?: (text: string) => string;
  /** Checkpoints of the workspace's files around rounds that may change them; absent when there are none. */
  checkpoints?: TurnCheckpoints;
}

/** What a turn needs of checkpoints (the editor builds them, src/tools/checkpointStore keeps them). */
export interface TurnCheckpoints {
  /** A checkpoint of the workspace's files now; null when checkpoints are off (the user was told why). */
  take(): Promise<CheckpointId | null>;
  /** How many files differ between two checkpoints. */
  countChanges(from: CheckpointId, to: CheckpointId): Promise<number>;
  /** Which files differ between two checkpoints (folder and path as one key); absent where not kept apart. */
  changedPaths?(from: CheckpointId, to: CheckpointId): Promise<string[]>;
}

export type ToolCallEvent =
  /**
   * Validated (or rejected) and about to be approved and run, or answered with the problem.
   * `followUpEstimate`: the estimated input of the follow-up request these results go back in (tool
   * results not yet counted), for the approval card; set by ChatSession.
   */
  | { phase: "proposed"; call: PreparedCall; followUpEstimate?: SendEstimate }
  | { phase: "finished"; record: ToolCallRecord };

export async function answerFunctionCalls(
  proposals: readonly FunctionCallProposal[],
  tools: ChatTools,
  signal: AbortSignal,
  onToolCall: (event: ToolCallEvent) => void,
  caller?: ToolCaller,
): Promise<ToolCallRecord[]> {
  const records: ToolCallRecord[] = [];
  const answered = new Set<string>();
  for (const proposal of proposals) {
    // The service expects one output per call_id; a repeated id is answered once.
    if (answered.has(proposal.call_id)) continue;
    answered.add(proposal.call_id);
    const prepared = prepareCall(proposal, tools.registry, tools.availability());
    onToolCall({ phase: "proposed", call: prepared });
    const { output, outcome } = await runToolCall(prepared, tools.approve, {
      signal,
      maxResultChars: tools.maxResultChars,
      redact: tools.redact,
      stillOffered: (tool) => tools.registry.offer(tool, tools.availability()),
      ...(caller ? { caller } : {}),
    });
    const approvedBy = tools.approvedBy?.(proposal.call_id);
    const record: ToolCallRecord = { callId: proposal.call_id, name: proposal.name, arguments: proposal.arguments, status: prepared.status, output, outcome, ...(approvedBy ? { approvedBy } : {}) };
    records.push(record);
    onToolCall({ phase: "finished", record });
  }
  return records;
}

let noToolsAvailable: ChatTools | null = null;

/** For a session without tools: every proposed call is still answered, with "there is no tool named ...". */
export function noTools(): ChatTools {
  noToolsAvailable ??= { registry: new ToolRegistry([]), availability: () => ({ trusted: false, disabledToolNames: new Set() }), approve: async () => "deny", maxResultChars: 4000 };
  return noToolsAvailable;
}
