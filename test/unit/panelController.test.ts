import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PanelState, ToWebview } from "../../src/panel/protocol";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { askingTools, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../src/tools/checkpointStore";

// The panel's controller on Node against the relay emulator: what it posts after `ready` is one
// snapshot, then patches and deltas that rebuild exactly the state it holds.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

/** Polls `condition` for at most `timeoutMs`: the controller answers some messages after a file or clipboard write. */
async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function textPosted(messages: readonly ToWebview[]): number {
  return messages.reduce((total, message) => total + JSON.stringify(message).length, 0);
}

describe("panel controller (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    // Every message made sense where it arrived: no patch before the snapshot, no delta for a settled turn.
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  it("posts nothing before ready, one snapshot with the strings after it, and patches from then on", async () => {
    harness = await startPanelHostHarness();
    const { controller, view } = harness;
    controller.handle({ type: "send", text: "before the view is there" });
    await harness.waitFor(settled, "the first answer");
    assert.deepEqual(view.posted, [], "nothing is posted to a page that has not asked");
    controller.handle({ type: "ready" });
    assert.equal((view.posted as ToWebview[])[0]?.type, "snapshot");
    const snapshot = view.ofType("snapshot")[0];
    assert.deepEqual(snapshot.strings, { Send: "Send" });
    assert.equal(snapshot.state.turns.length, 1);
    controller.handle({ type: "send", text: "second" });
    await harness.waitFor((state) => settled(state) && state.turns.length === 2, "the second answer");
    await harness.waitForMirror();
    assert.equal(view.ofType("snapshot").length, 1, "one snapshot per page load");
    assert.ok(view.ofType("patch").length > 0);
    assert.deepEqual(view.mirror.state, controller.state(), "the patches rebuild the host's state");
    assert.deepEqual(view.mirror.problems, []);
  });

  it("shows reasoning summaries as they stream, apart from the answer, and keeps them when the request ends", async () => {
    harness = await startPanelHostHarness({ settings: { model: "reasoning" } });
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "think first" });
    const state = await harness.waitFor(settled, "the answer");
    await harness.waitForMirror();
    // Posted while the request ran: the turn, still in progress, with summary text and no answer text yet.
    const liveTurns = view.ofType("patch").flatMap((patch) => patch.changes.flatMap((change) => (change.kind === "turn" && change.turn.outcome === "in_progress" ? [change.turn] : [])));
    const live = liveTurns.filter((turn) => turn.reasoningSummaries.join("").includes("Considering"));
    assert.ok(live.length > 0, `a live reasoning summary among ${liveTurns.length} in-progress turn patches`);
    for (const turn of live) assert.equal(turn.answerText.includes("Considering"), false, "never answer text");
    assert.deepEqual(lastTurn(state).reasoningSummaries, ['**Considering the request**\n\nThe user wrote "think first"; a short echo answers it.'], "once, from the saved output");
    assert.match(lastTurn(state).answerText, /After thinking it over: think first/);
    assert.deepEqual(view.mirror.state, controller.state());
  });

  it("streams a long answer as deltas, posting about as much text as the answer itself", async () => {
    harness = await startPanelHostHarness({ settings: { model: "long", maxOutputTokens: 3000 } });
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "write at length" });
    const state = await harness.waitFor(settled, "the long answer");
    await harness.waitForMirror();
    const answer = lastTurn(state).answerText;
    assert.ok(answer.length > 10_000, `a long answer (${answer.length} characters)`);
    const deltas = view.ofType("answerDelta");
    assert.ok(deltas.length > 3, `streamed in pieces (${deltas.length} delta messages)`);
    assert.equal(deltas.map((delta) => delta.text).join(""), answer.slice(answer.length - deltas.map((delta) => delta.text).join("").length), "deltas are the answer's text, in order");
    // The whole answer goes out once at the end (the settled turn), and once as deltas: never per delta.
    const afterSnapshot = view.posted.slice(1);
    assert.ok(textPosted(afterSnapshot) < 2.5 * answer.length + 20_000, `posted ${textPosted(afterSnapshot)} characters for a ${answer.length}-character answer`);
    assert.deepEqual(view.mirror.state, controller.state());
  });

  it("shows a tool approval as a patch, and answers it 'deny' on Stop: nothing runs and the turn is cancelled", async () => {
    harness = await startPanelHostHarness({ settings: { model: "tools" } });
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval");
    assert.equal(asking.approvals[0].toolName, "get_weather");
    assert.ok(view.ofType("patch").some((patch) => patch.changes.some((change) => change.kind === "approvals" && change.approvals.length === 1)));
    const postsBefore = harness.emulator.postCount();
    controller.handle({ type: "stop" });
    const state = await harness.waitFor(settled, "the stopped turn");
    assert.equal(lastTurn(state).outcome, "cancelled");
    assert.deepEqual(state.approvals, []);
    assert.equal(harness.emulator.postCount(), postsBefore, "no follow-up request after Stop");
    await harness.waitForMirror();
    assert.deepEqual(view.mirror.state, controller.state());
  });

  it("tells the extension how many calls wait for approval (the view's badge), when a model is picked and when an answer completed (the walkthrough)", async () => {
    const pending: number[] = [];
    const picked: string[] = [];
    let completed = 0;
    harness = await startPanelHostHarness({
      settings: { model: "tools" },
      events: { onPendingApprovals: (count) => pending.push(count), onModelPicked: (model) => picked.push(model), onTurnCompleted: () => (completed += 1) },
    });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "selectModel", model: "tools" });
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval");
    assert.deepEqual(pending, [1]);
    assert.equal(completed, 0, "not while the turn waits");
    controller.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
    await harness.waitFor(settled, "the answer after the tool");
    assert.deepEqual(pending, [1, 0]);
    assert.deepEqual(picked, ["tools"]);
    assert.equal(completed, 1);
  });

  it("runs an approved tool, shows it in the turn, and copies the exact request of each receipt as curl", async () => {
    harness = await startPanelHostHarness({ settings: { model: "tools" } });
    const { controller, editor } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "weather please" });
    const asking = await harness.waitFor((state) => state.approvals.length === 1, "the approval");
    controller.handle({ type: "approval", callId: asking.approvals[0].callId, answer: "approve" });
    const state = await harness.waitFor(settled, "the answer after the tool");
    const turn = lastTurn(state);
    assert.equal(turn.outcome, "completed");
    assert.equal(turn.toolCalls.length, 1);
    assert.match(turn.answerText, /Tool result: Sunny in Paris/);
    assert.equal(turn.receipts.length, 2);
    controller.handle({ type: "copyCurl", turnId: turn.id, receiptIndex: 0 });
    controller.handle({ type: "copyCurl", turnId: turn.id, receiptIndex: 1 });
    await waitUntil(() => editor.clipboard.length === 2, "both curl commands on the clipboard");
    const [first, second] = editor.clipboard.map((command) => JSON.parse(command.slice(command.indexOf("{"), command.lastIndexOf("}") + 1)) as { input: Array<{ type?: string }> });
    const sent = harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.body as { input: unknown[] });
    assert.deepEqual(first.input, sent[0].input, "receipt 1: the first request's input");
    assert.deepEqual(second.input, sent[1].input, "receipt 2: the follow-up, with the function result");
    assert.ok(!editor.clipboard.some((command) => command.includes(harness.emulator.defaultKey)), "never the key");
  });

  it("asks before an expensive send; No sends nothing, Stop answers No too", async () => {
    harness = await startPanelHostHarness({ settings: { historyWarningTokens: 1 } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "a message above the threshold" });
    await harness.waitFor((state) => state.spendWarning !== null, "the spend prompt");
    controller.handle({ type: "confirmSend", confirmed: false });
    await harness.waitFor((state) => state.spendWarning === null && !state.busy, "the declined send");
    controller.handle({ type: "send", text: "again" });
    await harness.waitFor((state) => state.spendWarning !== null, "the second prompt");
    controller.handle({ type: "stop" });
    await harness.waitFor((state) => state.spendWarning === null && !state.busy, "the prompt answered by Stop");
    assert.equal(harness.emulator.postCount(), 0, "nothing was sent");
    controller.handle({ type: "send", text: "and this time yes" });
    await harness.waitFor((state) => state.spendWarning !== null, "the third prompt");
    controller.handle({ type: "confirmSend", confirmed: true });
    const state = await harness.waitFor(settled, "the confirmed answer");
    assert.match(lastTurn(state).answerText, /and this time yes/);
    await harness.waitForMirror();
    assert.deepEqual(harness.view.mirror.state, controller.state());
  });

  it("leaves a replaced session's stream out of the new chat", async () => {
    harness = await startPanelHostHarness({ settings: { model: "long", maxOutputTokens: 4000 } });
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "long one" });
    const streaming = await harness.waitFor((state) => (lastTurn(state)?.answerText.length ?? 0) > 0, "the first text");
    const oldTurnId = lastTurn(streaming).id;
    controller.handle({ type: "newChat" });
    await harness.waitFor((state) => state.turns.length === 0 && !state.busy, "the new chat");
    const mark = view.posted.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(!view.posted.slice(mark).some((message) => message.type === "answerDelta" && message.turnId === oldTurnId), "no delta of the old turn");
    assert.deepEqual(view.mirror.state.turns, []);
  });

  it("switches conversations and branches with whole-turn patches, keeping the mirror equal", async () => {
    harness = await startPanelHostHarness();
    const { controller, view } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "first conversation" });
    const first = await harness.waitFor(settled, "the first answer");
    controller.handle({ type: "newChat" });
    controller.handle({ type: "send", text: "second conversation" });
    await harness.waitFor((state) => settled(state) && state.turns[0]?.userText === "second conversation", "the second answer");
    controller.handle({ type: "regenerate", turnId: lastTurn(controller.state()).id });
    const regenerated = await harness.waitFor((state) => settled(state) && lastTurn(state).branchCount === 2, "the regenerated answer");
    controller.handle({ type: "showBranch", turnId: lastTurn(regenerated).id, direction: -1 });
    await harness.waitFor((state) => lastTurn(state).branchIndex === 0, "the first version");
    controller.handle({ type: "switchConversation", conversationId: first.conversationId! });
    const switched = await harness.waitFor((state) => state.conversationId === first.conversationId, "the switch");
    assert.equal(switched.turns[0].userText, "first conversation");
    await harness.waitForMirror();
    assert.deepEqual(view.mirror.state, controller.state());
    assert.ok(view.ofType("patch").some((patch) => patch.changes.some((change) => change.kind === "turnOrder")));
  });

  it("renames, exports (without the key) and deletes through the conversation commands", async () => {
    harness = await startPanelHostHarness();
    const { controller, conversationUi } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: `my key is ${harness.emulator.defaultKey}, keep it secret` });
    const state = await harness.waitFor(settled, "the answer");
    const id = state.conversationId!;
    conversationUi.title = "Renamed: a/b?";
    controller.handle({ type: "renameConversation", conversationId: id });
    await harness.waitFor((current) => current.conversations.some((entry) => entry.title === "Renamed: a/b?"), "the new title");
    conversationUi.exportPath = "/exports/chat.json";
    controller.handle({ type: "exportConversation", conversationId: id });
    await harness.waitFor(() => conversationUi.written.size === 1, "the export");
    assert.deepEqual(conversationUi.suggestedNames, ["Renamed_ a_b"]);
    const exported = conversationUi.written.get("/exports/chat.json")!;
    assert.equal(JSON.parse(exported).title, "Renamed: a/b?", "a .json target exports JSON");
    assert.ok(!exported.includes(harness.emulator.defaultKey), "the key is redacted from the export");
    assert.deepEqual(conversationUi.offeredToOpen, ["/exports/chat.json"], "the notification offers to open the exported file");
    conversationUi.confirmDeletion = false;
    controller.handle({ type: "deleteConversation", conversationId: id });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(controller.state().conversations.length, 1, "kept when the user says no");
    conversationUi.confirmDeletion = true;
    controller.handle({ type: "deleteConversation", conversationId: id });
    const deleted = await harness.waitFor((current) => current.conversations.length === 0, "the deletion");
    assert.deepEqual(deleted.turns, [], "the deleted conversation left the screen");
  });

  it("attaches a file picked with #, sends it inside the message, shows it as a chip, and keeps it on edit", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "relay-chat-hash-"));
    try {
      await writeFile(path.join(folder, "notes.md"), "The secret word is heliotrope.\n");
      harness = await startPanelHostHarness({ files: new WorkspaceFiles({ folders: () => [folder], excludePatterns: () => [] }) });
      const { controller, view } = harness;
      controller.handle({ type: "ready" });
      controller.handle({ type: "findFiles", query: "note" });
      await harness.waitFor(() => view.ofType("fileMatches").length === 1, "the matches");
      assert.deepEqual(view.ofType("fileMatches")[0], { type: "fileMatches", query: "note", files: [{ path: "notes.md" }] });
      controller.handle({ type: "attachPath", path: "notes.md" });
      const attached = await harness.waitFor((state) => state.attachments.length === 1, "the chip");
      assert.equal(attached.attachments[0].label, "notes.md");
      assert.ok((attached.context?.estimatedTokens ?? 0) > 5, "the context meter counts the attachment");
      controller.handle({ type: "send", text: "What is the secret word?" });
      const state = await harness.waitFor(settled, "the answer");
      const turn = lastTurn(state);
      assert.equal(turn.userText, "What is the secret word?");
      assert.deepEqual(turn.attachments, [{ kind: "file", label: "notes.md" }]);
      assert.match(turn.answerText, /heliotrope/, "the echo model saw the file's text");
      assert.deepEqual(state.attachments, [], "attachments go with one message");
      controller.handle({ type: "editAndResend", turnId: turn.id, text: "Say the word again" });
      const edited = await harness.waitFor((current) => settled(current) && lastTurn(current).userText === "Say the word again", "the edited turn");
      assert.deepEqual(lastTurn(edited).attachments, [{ kind: "file", label: "notes.md" }]);
      assert.match(lastTurn(edited).answerText, /heliotrope/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("sends pasted images with the message, serves their thumbnails, and refuses one over the byte limit whole", async () => {
    harness = await startPanelHostHarness({ preferences: () => ({ contextWindows: {}, consoleUrl: "", imageLimits: { maxLongestSide: 2048, maxBytes: 16 } }) });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    const small = { mediaType: "image/png" as const, data: "iVBORw0KGgo=" };
    controller.handle({ type: "send", text: "What is this?", images: [small] });
    const state = await harness.waitFor(settled, "the answer");
    const [stored] = lastTurn(state).images ?? [];
    assert.match(stored ?? "", /^[0-9a-f]{64}\.png$/, "the turn names its stored image");
    // The thumbnail's data comes when the page asks for it, as a data URL; a name that is no stored image gets null.
    controller.handle({ type: "loadImage", name: stored ?? "" });
    controller.handle({ type: "loadImage", name: "../secret.png" });
    await harness.waitFor(() => harness.view.ofType("image").length === 2, "both answers");
    // A Markdown export writes the image beside it, before the document that links to it.
    harness.conversationUi.exportPath = path.join("/exports", "chat.md");
    controller.handle({ type: "exportConversation", conversationId: state.conversationId! });
    await harness.waitFor(() => harness.conversationUi.written.size === 1, "the export");
    assert.deepEqual([...harness.conversationUi.writtenBinary.keys()], [path.join("/exports", "chat-images", stored ?? "")]);
    assert.match(harness.conversationUi.written.get(path.join("/exports", "chat.md")) ?? "", new RegExp(`!\\[Image 1\\]\\(chat-images/${stored}\\)`));
    const answers = new Map(harness.view.ofType("image").map((answer) => [answer.name, answer.dataUrl]));
    assert.equal(answers.get(stored ?? ""), "data:image/png;base64,iVBORw0KGgo=");
    assert.equal(answers.get("../secret.png"), null);
    assert.deepEqual(state.imageLimits, { maxLongestSide: 2048, maxBytes: 16 }, "the limits reach the webview");
    const posts = () => harness.emulator.received.filter((request) => request.method === "POST");
    assert.match(posts()[0]?.rawBody ?? "", /"type":"input_image","image_url":"data:image\/png;base64,iVBORw0KGgo="/);
    // Copy as curl repeats the request as sent: the data URL, not the stored reference.
    controller.handle({ type: "copyCurl", turnId: lastTurn(state).id, receiptIndex: 0 });
    await harness.waitFor(() => harness.editor.clipboard.length === 1, "the curl command");
    const curlBody = harness.editor.clipboard[0] ?? "";
    assert.deepEqual(JSON.parse(curlBody.slice(curlBody.indexOf("{"), curlBody.lastIndexOf("}") + 1)), JSON.parse(posts()[0]?.rawBody ?? ""));

    controller.handle({ type: "send", text: "And this?", images: [{ mediaType: "image/png", data: "A".repeat(40) }] });
    const refused = await harness.waitFor((current) => current.notice !== null, "the refusal");
    assert.match(refused.notice ?? "", /larger than .* MB even after downscaling; the message was not sent/);
    assert.equal(posts().length, 1, "nothing of it was sent");
  });

  it("names a new conversation by its first message while the answer streams, and lets a changed setting win", async () => {
    harness = await startPanelHostHarness({ settings: { model: "long", maxOutputTokens: 2000 }, preferences: () => ({ contextWindows: { long: 1000 }, consoleUrl: "" }) });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    assert.equal(controller.state().title, "New chat");
    controller.handle({ type: "send", text: "A question that names the chat\nsecond line" });
    const streaming = await harness.waitFor((state) => state.busy && state.turns.length === 1, "the streaming turn");
    assert.equal(streaming.title, "A question that names the chat second line", "as the history list will name it");
    await harness.waitFor(settled, "the answer");
    assert.deepEqual(controller.state().context?.windowTokens, 1000);
    controller.handle({ type: "selectModel", model: "echo" });
    await harness.waitFor((state) => state.model === "echo", "the picked model");
    harness.settings.model = "tools";
    await controller.onModelSettingChanged();
    assert.equal(controller.state().model, "tools", "the changed setting wins over the earlier pick");
    controller.handle({ type: "selectModel", model: "echo" });
    await harness.waitFor((state) => state.model === "echo", "a new pick wins again");
  });

  it("offers the editor's selection and attaches it on request", async () => {
    harness = await startPanelHostHarness();
    const { controller, editor } = harness;
    controller.handle({ type: "ready" });
    controller.editorActions.offerSelection("src/a.ts:3-9");
    await harness.waitFor((state) => state.selectionOffer?.label === "src/a.ts:3-9", "the offer");
    editor.selection = { kind: "selection", label: "src/a.ts:3-9", text: "const a = 1;", language: "typescript" };
    controller.handle({ type: "attachSelection" });
    const state = await harness.waitFor((current) => current.attachments.length === 1, "the attachment");
    assert.deepEqual(state.attachments.map(({ kind, label }) => ({ kind, label })), [{ kind: "selection", label: "src/a.ts:3-9" }]);
    controller.editorActions.offerSelection(null);
    await harness.waitFor((current) => current.selectionOffer === null, "no offer without a selection");
  });

  it("sends the active editor's file with each message until it is removed, and the removal lasts until the editor changes", async () => {
    harness = await startPanelHostHarness();
    const { controller, editor } = harness;
    controller.handle({ type: "ready" });
    const posts = () => harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.rawBody ?? "");
    editor.file = { kind: "file", label: "src/a.ts", text: "export const heliotrope = 1;\n", language: "typescript" };
    controller.editorActions.offerActiveFile("src/a.ts");
    const offered = await harness.waitFor((state) => state.activeFileOffer?.label === "src/a.ts", "the offer");
    assert.ok((offered.context?.estimatedTokens ?? 0) > 0, "the meter counts the file");

    controller.handle({ type: "send", text: "What is this?" });
    const first = await harness.waitFor((state) => settled(state) && state.turns.length === 1, "the first answer");
    assert.deepEqual(lastTurn(first).attachments, [{ kind: "file", label: "src/a.ts" }]);
    assert.match(posts()[0] ?? "", /export const heliotrope = 1;/);
    assert.equal(first.activeFileOffer?.label, "src/a.ts", "still offered for the next message");

    editor.file = { ...editor.file, text: "export const edited = 2;\n" };
    controller.handle({ type: "removeActiveFile" });
    await harness.waitFor((state) => state.activeFileOffer === null, "the removal");
    controller.editorActions.offerActiveFile("src/a.ts");
    controller.handle({ type: "send", text: "And now?" });
    const second = await harness.waitFor((state) => settled(state) && state.turns.length === 2, "the second answer");
    assert.deepEqual(lastTurn(second).attachments, [], "removed, so not sent");
    assert.doesNotMatch(posts()[1] ?? "", /export const edited/);

    editor.file = { kind: "file", label: "src/b.ts", text: "export const b = 3;\n", language: "typescript" };
    controller.editorActions.offerActiveFile("src/b.ts");
    await harness.waitFor((state) => state.activeFileOffer?.label === "src/b.ts", "another editor, offered again");
    // The editor moved on before the offer caught up: the offered file is not replaced by another one.
    editor.file = { kind: "file", label: "src/c.ts", text: "export const c = 4;\n", language: "typescript" };
    controller.handle({ type: "send", text: "Third?" });
    const third = await harness.waitFor((state) => settled(state) && state.turns.length === 3, "the third answer");
    assert.deepEqual(lastTurn(third).attachments, []);
    controller.editorActions.offerActiveFile(null);
    await harness.waitFor((state) => state.activeFileOffer === null, "no file, no offer");
  });

  it("keeps the History action for a page that is still loading, and delivers it after the snapshot", async () => {
    harness = await startPanelHostHarness();
    const { controller, view } = harness;
    controller.viewLoading();
    controller.showHistory();
    assert.equal(view.ofType("showHistory").length, 0, "nobody is listening yet");
    controller.handle({ type: "ready" });
    await harness.waitFor(() => view.ofType("showHistory").length === 1, "the history, after ready");
    assert.deepEqual(view.posted.map((message) => message.type).slice(0, 2), ["snapshot", "showHistory"]);
    controller.showHistory();
    assert.equal(view.ofType("showHistory").length, 2, "a ready page gets it at once");
  });

  it("counts Apply to file on an answer's code block among that turn's changes, in the turn's patch", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "relay-chat-apply-"));
    const checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(path.join(workspace, ".storage"), path.join(workspace, "ws"))]);
    await mkdir(path.join(workspace, "ws"));
    await writeFile(path.join(workspace, "ws", "README.md"), "# readme\n");
    try {
      harness = await startPanelHostHarness({
        tools: (askUser) => ({
          ...askingTools(askUser),
          checkpoints: { take: () => checkpoints.take(), countChanges: async (from, to) => (await checkpoints.diff(from, to)).length },
        }),
      });
      const { controller, editor, view } = harness;
      controller.handle({ type: "ready" });
      controller.handle({ type: "send", text: "show me code" });
      const answered = await harness.waitFor(settled, "the answer");
      assert.equal(lastTurn(answered).changedFiles, undefined);
      editor.applyToFiles = () => writeFile(path.join(workspace, "ws", "README.md"), "# applied\n");
      controller.handle({ type: "applyCode", code: "# applied\n", language: "md", file: "README.md", turnId: lastTurn(answered).id });
      await harness.waitFor(() => lastTurn(view.mirror.state).changedFiles === 1, "the turn's patch with 1 file changed");
      assert.deepEqual(editor.applied, [{ code: "# applied\n", fileHint: "README.md" }]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
