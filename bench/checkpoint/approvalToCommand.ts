// From approving a run_command to the command starting, in a 10,000-file workspace, against the checkpoint
// alone (a checkpoint after 20 files changed, the same as the turn takes) in the same run. The panel's
// controller runs on plain Node, as in the panel tests: the relay emulator on loopback (its `run-command`
// model asks for the command), the real run_command tool, approval gate, checkpoints of a real temp folder
// and the real git; only VS Code's window is left out (the approval arrives as the webview's message).
// Each sample: 20 files change, a message asks for `date +%s%N > marker`, the turn takes its checkpoint and
// shows the approval, the approval is sent, and the command writes the moment it started.
// Not a timed test; goal: approval to command start <= 1.5x the checkpoint alone.
// Usage: npm run bench:approval -- [--json]
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import * as os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { CheckpointId } from "../../src/tools/checkpointStore";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../src/tools/checkpointStore";
import type { AskUser } from "../../src/tools/approvalGate";
import { createApprovalGate } from "../../src/tools/approvalGate";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import type { PanelState } from "../../src/panel/protocol";
import { startPanelHostHarness } from "../../test/fixtures/panel/panelHostHarness";
import { CHANGED_FILES, FILES, changeFiles, createWorkspace } from "./workspace";

const RUNS = 7;
const GOAL_RATIO = 1.5;

/** Wall-clock milliseconds with sub-millisecond precision, comparable with `date +%s%N` in the command. */
const now = () => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const root = await realTemporaryFolder();
  const workspace = path.join(root, "workspace");
  const marker = path.join(root, "command-started");
  await createWorkspace(workspace);
  const checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(path.join(root, "storage"), workspace)]);
  const checkpointTimings: number[] = [];
  const takeTimed = async (): Promise<CheckpointId> => {
    const started = now();
    const taken = await checkpoints.take();
    checkpointTimings.push(now() - started);
    return taken;
  };
  const harness = await startPanelHostHarness({
    tools: (askUser: AskUser) => {
      const availability = () => ({ trusted: true, disabledToolNames: new Set<string>() });
      const sessionAllowances = new SessionAllowances();
      return {
        registry: new ToolRegistry([createRunCommandTool({ workspaceFolders: () => [workspace] })]),
        availability,
        approve: createApprovalGate(() => ({ ...availability(), sessionAllowances }), askUser, () => [workspace]),
        maxResultChars: 10_000,
        checkpoints: { take: takeTimed, countChanges: async (from, to) => (await checkpoints.diff(from, to)).length },
      };
    },
  });
  const { controller } = harness;
  const settledTurns = (count: number) => (state: PanelState) => !state.busy && state.turns.length === count && state.turns[count - 1].outcome !== "in_progress";
  const approvalTimings: number[] = [];
  const turnCheckpointTimings: number[] = [];
  try {
    controller.handle({ type: "ready" });
    await controller.setModel("run-command");
    // The shadow repository's first checkpoint, outside the samples (a session's first turn pays it once).
    await checkpoints.take();
    for (let run = 0; run < RUNS + 1; run += 1) {
      await changeFiles(workspace, run + 1);
      checkpointTimings.length = 0;
      controller.handle({ type: "send", text: `run: date +%s%N > ${marker}` });
      const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval", 60_000);
      const approvedAt = now();
      controller.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
      await harness.waitFor(settledTurns(run + 1), "the turn's end", 60_000);
      const startedAt = Number(BigInt((await readFile(marker, "utf8")).trim()) / 1000n) / 1000;
      // The first sample warms up (JIT, the relay connection); the rest are measured.
      if (run === 0) continue;
      approvalTimings.push(startedAt - approvedAt);
      turnCheckpointTimings.push(checkpointTimings[0]);
    }
    // The checkpoint alone, in the same run and state: 20 files changed, nothing else running.
    const aloneTimings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await changeFiles(workspace, run + 20);
      const started = now();
      await checkpoints.take();
      aloneTimings.push(now() - started);
    }
    const approvalMs = median(approvalTimings);
    const aloneMs = median(aloneTimings);
    const result = {
      approvalToCommandStartMs10k: round1(approvalMs),
      checkpointAloneMs10k: round1(aloneMs),
      approvalToCheckpointRatio: Math.round((approvalMs / aloneMs) * 100) / 100,
      goalRatio: GOAL_RATIO,
      withinGoal: approvalMs <= GOAL_RATIO * aloneMs,
      // Where the turn's checkpoint sits: before the approval is shown (so not between approval and start).
      turnCheckpointBeforeApprovalMs10k: round1(median(turnCheckpointTimings)),
      approvalToCommandStartMsWorst: round1(Math.max(...approvalTimings)),
      files: FILES,
      changedFiles: CHANGED_FILES,
      runs: RUNS,
      loadAverage: Math.round(os.loadavg()[0] * 10) / 10,
      cpus: os.cpus().length,
    };
    if (!json) {
      process.stdout.write(
        `Approval to run_command start in a ${FILES}-file workspace (medians of ${RUNS}): ${result.approvalToCommandStartMs10k} ms; ` +
          `checkpoint alone after ${CHANGED_FILES} changes ${result.checkpointAloneMs10k} ms; ratio ${result.approvalToCheckpointRatio} (goal <= ${GOAL_RATIO}); ` +
          `the turn's checkpoint (${result.turnCheckpointBeforeApprovalMs10k} ms) is taken before the approval is shown\n`,
      );
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await harness.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function realTemporaryFolder(): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), "relay-chat-bench-approval-")));
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
