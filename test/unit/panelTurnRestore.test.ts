import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PanelState, TurnView } from "../../src/panel/protocol";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../src/tools/checkpointStore";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { askingTools, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Restore and Undo restore from the turn itself: the turn says it is restored and offers Undo restore (which
// stays, unlike a notification); after Undo restore it is back to "N files changed" with Restore. Real
// checkpoints in a temp folder, the relay emulator, the real controller.

const lastTurn = (state: PanelState): TurnView => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

describe("panel: restore and undo restore on the turn", () => {
  let harness: PanelHostHarness | null = null;
  let sandbox: string;

  beforeEach(async () => {
    sandbox = await mkdtemp(path.join(tmpdir(), "relay-chat-turn-restore-"));
    await mkdir(path.join(sandbox, "ws"));
    await writeFile(path.join(sandbox, "ws", "README.md"), "# readme\n");
  });

  afterEach(async () => {
    await harness?.close();
    harness = null;
    await rm(sandbox, { recursive: true, force: true });
  });

  it("marks the turn restored with Undo restore after Restore, saved with it, and clears the mark after Undo restore", async () => {
    const readme = path.join(sandbox, "ws", "README.md");
    const checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(path.join(sandbox, "storage"), path.join(sandbox, "ws"))]);
    harness = await startPanelHostHarness({
      tools: (askUser) => ({ ...askingTools(askUser), checkpoints: { take: () => checkpoints.take(), countChanges: async (from, to) => (await checkpoints.diff(from, to)).length } }),
      // As the editor's restore does once the person confirms (src/host/review/checkpointReview.ts), without the dialog.
      turnChanges: {
        review: async () => undefined,
        restore: async (checkpoint) => (await checkpoints.restore(checkpoint.before)).before,
        undoRestore: async (checkpoint) => (checkpoint.restoredFrom ? (await checkpoints.restore(checkpoint.restoredFrom), true) : false),
      },
    });
    const { controller, editor, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "show me code" });
    const answered = await harness.waitFor(settled, "the answer");
    const turnId = lastTurn(answered).id;
    editor.applyToFiles = () => writeFile(readme, "# applied\n");
    controller.handle({ type: "applyCode", code: "# applied\n", language: "md", file: "README.md", turnId });
    await harness.waitFor(() => lastTurn(view.mirror.state).changedFiles === 1, "1 file changed");
    assert.equal(lastTurn(view.mirror.state).restored, undefined);

    controller.handle({ type: "turnChanges", turnId, action: "restore" });
    await harness.waitFor(() => lastTurn(view.mirror.state).restored === true, "the turn says it is restored");
    assert.equal(await readFile(readme, "utf8"), "# readme\n");
    const conversationId = view.mirror.state.conversationId;
    assert.ok(conversationId);
    const saved = await harness.store.open(conversationId);
    assert.ok(saved.ok && saved.conversation.turns[0].checkpoint?.restoredFrom, "the restore is saved with the turn, so Undo restore survives a reload");

    controller.handle({ type: "turnChanges", turnId, action: "undoRestore" });
    await harness.waitFor(() => lastTurn(view.mirror.state).restored === undefined, "the restore is undone on the turn");
    assert.equal(await readFile(readme, "utf8"), "# applied\n");
    assert.equal(lastTurn(view.mirror.state).changedFiles, 1);
  });

  it("counts the turn's changed files again when a review settles: a file put back as it was no longer counts", async () => {
    const readme = path.join(sandbox, "ws", "README.md");
    const notes = path.join(sandbox, "ws", "NOTES.md");
    await writeFile(notes, "notes\n");
    const checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(path.join(sandbox, "storage"), path.join(sandbox, "ws"))]);
    harness = await startPanelHostHarness({
      tools: (askUser) => ({
        ...askingTools(askUser),
        checkpoints: {
          take: () => checkpoints.take(),
          countChanges: async (from, to) => (await checkpoints.diff(from, to)).length,
          changedPaths: async (from, to) => (await checkpoints.diff(from, to)).map((change) => `${change.folder}\0${change.path}`),
        },
      }),
    });
    const { controller, editor, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "show me code" });
    const turnId = lastTurn(await harness.waitFor(settled, "the answer")).id;
    editor.applyToFiles = async () => {
      await writeFile(readme, "# applied\n");
      await writeFile(notes, "applied\n");
    };
    controller.handle({ type: "applyCode", code: "# applied\n", language: "md", file: "README.md", turnId });
    await harness.waitFor(() => lastTurn(view.mirror.state).changedFiles === 2, "2 files changed");

    // As Undo in the editor's review leaves it: the file as before the turn, and the review says it changed.
    await writeFile(notes, "notes\n");
    controller.reviewChanged();
    await harness.waitFor(() => lastTurn(view.mirror.state).changedFiles === 1, "1 file changed after the undo");
    // A file the person changed afterwards is not the turn's change.
    await writeFile(path.join(sandbox, "ws", "OTHER.md"), "mine\n");
    controller.reviewChanged();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(lastTurn(view.mirror.state).changedFiles, 1);
    const conversationId = view.mirror.state.conversationId;
    assert.ok(conversationId);
    const saved = await harness.store.open(conversationId);
    assert.ok(saved.ok);
    assert.equal(saved.conversation.turns[0].checkpoint?.changedFiles, 1, "the new count is saved with the turn");
  });
});
