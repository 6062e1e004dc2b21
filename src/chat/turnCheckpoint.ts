import type { FunctionCallProposal } from "../relay/types";
import type { Turn } from "./conversation";
import type { ChatTools } from "./toolRound";

// When a turn takes checkpoints: before its first tool round that has a call able to change files (anything
// but a read-only tool) or before Apply to file on its answer, and once more when the turn (or the apply)
// ends, so the panel can say how many files it changed and put them back. A checkpoint that fails is reported
// and the turn goes on without one: tools never wait on a broken checkpoint.

export async function checkpointBeforeRound(turn: Turn, proposals: readonly FunctionCallProposal[], tools: ChatTools | undefined, onProblem: (message: string) => void): Promise<void> {
  if (!tools?.checkpoints || turn.checkpoint) return;
  const mayChangeFiles = proposals.some((proposal) => {
    const tool = tools.registry.get(proposal.name);
    return tool !== undefined && tool.risk !== "read";
  });
  if (mayChangeFiles) await checkpointBeforeChange(turn, tools, onProblem);
}

/** The checkpoint before the turn's first change to files, unless it has one. */
export async function checkpointBeforeChange(turn: Turn, tools: ChatTools | undefined, onProblem: (message: string) => void): Promise<void> {
  const checkpoints = tools?.checkpoints;
  if (!checkpoints || turn.checkpoint) return;
  try {
    const before = await checkpoints.take();
    if (before) turn.checkpoint = { before, after: null, changedFiles: 0 };
  } catch (error) {
    // Recorded on the turn before its tools run, so the panel says there will be no Restore (not only the log).
    turn.checkpointProblem = (error as Error).message;
    onProblem((error as Error).message);
  }
}

export async function checkpointAtTurnEnd(turn: Turn, tools: ChatTools | undefined, onProblem: (message: string) => void): Promise<void> {
  const checkpoints = tools?.checkpoints;
  const record = turn.checkpoint;
  if (!checkpoints || !record) return;
  try {
    const after = await checkpoints.take();
    if (!after) return;
    record.after = after;
    record.changedFiles = await checkpoints.countChanges(record.before, after);
  } catch (error) {
    onProblem((error as Error).message);
  }
}

/**
 * Counts again which of the files a finished turn changed still differ from before the turn (the person undid
 * some of its edits in the review, or put a file back by hand): the turn's "N files changed" says what is
 * current. Files changed since by the person or another turn are not the turn's and are not counted.
 * True when the count changed.
 */
export async function recountTurnChanges(turn: Turn, tools: ChatTools | undefined): Promise<boolean> {
  const checkpoints = tools?.checkpoints;
  const record = turn.checkpoint;
  if (!checkpoints?.changedPaths || !record?.after || record.restoredFrom) return false;
  const now = await checkpoints.take();
  if (!now) return false;
  const stillChanged = new Set(await checkpoints.changedPaths(record.before, now));
  const count = (await checkpoints.changedPaths(record.before, record.after)).filter((file) => stillChanged.has(file)).length;
  if (count === record.changedFiles) return false;
  record.changedFiles = count;
  return true;
}
