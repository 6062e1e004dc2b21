import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { TurnResult } from "../../src/chat/chatSession";
import type { Turn } from "../../src/chat/conversation";
import type { ChatTools, TurnCheckpoints } from "../../src/chat/toolRound";
import { turnViewOf } from "../../src/panel/turns/turnView";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../src/tools/checkpointStore";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import type { ChatHarness, ToolLog } from "../fixtures/chat/chatHarness";
import { startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// A turn takes checkpoints around tool rounds that may change files, and records them: against the relay
// emulator, with the real run_command in a temp workspace and real shadow repositories.

const posixOnly = process.platform === "win32" ? describe.skip : describe;

function finished(result: TurnResult): Turn {
  assert.equal(result.status, "finished");
  return (result as Extract<TurnResult, { status: "finished" }>).turn;
}

posixOnly("chat: checkpoints of a turn", () => {
  let harness: ChatHarness;
  let sandbox: string;
  let workspace: string;
  let checkpoints: WorkspaceCheckpoints;
  let taken: number;
  let turnCheckpoints: TurnCheckpoints;

  beforeEach(async () => {
    harness = await startChatHarness();
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-turn-checkpoints-")));
    workspace = path.join(sandbox, "ws");
    await fs.mkdir(workspace);
    await fs.writeFile(path.join(workspace, "README.md"), "# readme\n");
    checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(path.join(sandbox, "storage"), workspace)]);
    taken = 0;
    turnCheckpoints = {
      take: () => {
        taken += 1;
        return checkpoints.take();
      },
      countChanges: async (from, to) => (await checkpoints.diff(from, to)).length,
    };
  });

  afterEach(async () => {
    await harness.close();
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  function commandTools(): ChatTools {
    return {
      registry: new ToolRegistry([createRunCommandTool({ workspaceFolders: () => [workspace] })]),
      availability: () => ({ trusted: true, disabledToolNames: new Set() }),
      approve: async () => "approve",
      maxResultChars: 10_000,
      checkpoints: turnCheckpoints,
    };
  }

  it("records a checkpoint before a command ran and after, with the number of files it changed, and the turn can be restored", async () => {
    const session = harness.newSession({ settings: { model: "run-message" }, tools: commandTools() });
    const turn = finished(await session.send("echo one > one.txt && echo two > two.txt"));
    assert.equal(turn.outcome.kind, "completed");
    assert.ok(turn.checkpoint?.after, "both checkpoints are recorded");
    assert.equal(turn.checkpoint.changedFiles, 2);

    assert.equal(turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null }).changedFiles, 2, "the panel shows 2 files changed");

    const saved = await harness.store.open(session.conversation.id);
    assert.ok(saved.ok);
    assert.deepEqual(saved.conversation.turns[0].checkpoint, turn.checkpoint, "the checkpoint ids are saved with the turn");

    await checkpoints.restore(turn.checkpoint.before);
    assert.deepEqual(await fs.readdir(workspace), ["README.md"]);
  });

  it("records a failed checkpoint on the turn before its tools run, so the panel says Restore will not be possible", async () => {
    let shownAtApproval: string | undefined;
    let session!: ReturnType<ChatHarness["newSession"]>;
    const tools: ChatTools = {
      ...commandTools(),
      checkpoints: { take: () => Promise.reject(new Error("index.lock: File exists")), countChanges: async () => 0 },
      approve: async () => {
        const running = session.conversation.turns[0];
        shownAtApproval = turnViewOf(session.conversation, running, { streamingTurnId: running.id, liveText: null }).checkpointProblem;
        return "approve";
      },
    };
    session = harness.newSession({ settings: { model: "run-message" }, tools });
    const turn = finished(await session.send("echo one > one.txt"));
    assert.equal(shownAtApproval, "index.lock: File exists", "the turn says it has no checkpoint while its tool waits for approval");
    assert.equal(turn.checkpoint, undefined);
    assert.equal(turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null }).checkpointProblem, "index.lock: File exists");
    const saved = await harness.store.open(session.conversation.id);
    assert.ok(saved.ok);
    assert.equal(saved.conversation.turns[0].checkpointProblem, "index.lock: File exists", "saved with the turn");
  });

  it("takes no checkpoint for a round of read-only tools", async () => {
    const log: ToolLog = { runs: [], approvals: [] };
    const session = harness.newSession({ settings: { model: "tools" }, tools: { ...weatherTools("approve", log), checkpoints: turnCheckpoints } });
    const turn = finished(await session.send("weather?"));
    assert.equal(log.runs.length, 1);
    assert.equal(turn.checkpoint, undefined);
    assert.equal(turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null }).changedFiles, undefined);
    assert.equal(taken, 0);
  });

  it("takes Apply to file on a turn's answer into the turn's checkpoints, so Restore puts the file back", async () => {
    const session = harness.newSession({ settings: { model: "echo" }, tools: commandTools() });
    const turn = finished(await session.send("show me some code"));
    assert.equal(session.conversation.turns[0]?.checkpoint, undefined, "an answer without tool calls takes none");
    const readme = path.join(workspace, "README.md");
    await session.changes.changeFilesForTurn(turn.id, () => fs.writeFile(readme, "# applied\n"));
    assert.ok(turn.checkpoint?.after);
    assert.equal(turn.checkpoint.changedFiles, 1);
    assert.equal(turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null }).changedFiles, 1, "the panel shows 1 file changed");
    const saved = await harness.store.open(session.conversation.id);
    assert.ok(saved.ok);
    assert.deepEqual(saved.conversation.turns[0].checkpoint, turn.checkpoint, "saved with the turn");

    // A second apply keeps the first checkpoint: Restore goes back to before both.
    const first = turn.checkpoint.before;
    await session.changes.changeFilesForTurn(turn.id, () => fs.writeFile(path.join(workspace, "added.ts"), "x\n"));
    assert.equal(turn.checkpoint.before, first);
    assert.equal(turn.checkpoint.changedFiles, 2);
    await checkpoints.restore(turn.checkpoint.before);
    assert.equal(await fs.readFile(readme, "utf8"), "# readme\n");
    assert.deepEqual(await fs.readdir(workspace), ["README.md"]);
  });
});
