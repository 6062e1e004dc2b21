import assert from "node:assert/strict";
import type { ContextRequest, WorkspaceContextSource } from "../../src/panel/panelServices";
import type { AttachmentTarget, AttachmentTextView } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// An opened chip shows exactly what it adds to the request, before sending and on the sent message: the
// controller answers `openAttachment` with the block, and the relay emulator's received body (its raw bytes)
// must hold those very bytes, in the message the person sent. The editor's context (Problems, the terminal,
// the changes) is a stand-in that answers as the editor would, with text that needs escaping and a fence.

const contextText: Record<string, string> = {
  problems: 'Problems in the workspace (1):\nsrc/a.ts:3:7 error TS2322: Type "string" is not assignable to type `number`.',
  terminal: '$ printf \'const x: number = "a";\\n\' > bad.ts && echo wrote && ls\n(terminal "bash", exit code 0)\nwrote\nbad.ts\n```not a fence end',
  changes: "Unstaged changes (git diff):\n--- a/b.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-old\n+new & <tag> \u00e9\u4e2d",
};

describe("panel: an opened chip shows the bytes the request carries", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  beforeEach(async () => {
    const workspaceContext: WorkspaceContextSource = {
      attachment: async (request: ContextRequest) => {
        const label = request.source === "terminal" ? 'Terminal "bash" & co' : request.source === "changes" ? "Changes" : "Problems";
        return { ok: true, attachment: { kind: request.source === "problemsInFile" ? "problems" : (request.source as "problems" | "terminal" | "changes"), label, text: contextText[request.source] ?? "", language: request.source === "changes" ? "diff" : "" } };
      },
      symbols: async () => [],
    };
    harness = await startPanelHostHarness({ workspaceContext });
    await harness.controller.ready();
  });

  afterEach(async () => {
    await harness.close();
  });

  async function open(target: AttachmentTarget): Promise<AttachmentTextView | null> {
    const before = harness.view.ofType("attachmentText").length;
    harness.controller.handle({ type: "openAttachment", target });
    const deadline = Date.now() + 5000;
    while (harness.view.ofType("attachmentText").length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = harness.view.ofType("attachmentText").at(-1);
    assert.ok(answer !== undefined, "answered");
    assert.deepEqual(answer.target, target, "the answer names the chip it is for");
    return answer.attachment;
  }

  /** The user message of the last request, from the raw bytes the relay received. */
  function sentMessage(): { raw: string; content: string } {
    const request = harness.emulator.received.filter((received) => received.method === "POST").at(-1);
    assert.ok(request, "a request was sent");
    const raw = String(request.rawBody);
    const input = (JSON.parse(raw) as { input: Array<{ role?: string; content: unknown }> }).input;
    const content = input.filter((item) => item.role === "user").at(-1)?.content;
    assert.equal(typeof content, "string");
    return { raw, content: content as string };
  }

  it("shows each context chip's block and tokens before sending, the same bytes go to the relay, and the sent chips show them again", async () => {
    const { controller } = harness;
    for (const source of ["problems", "terminal", "changes"] as const) controller.handle({ type: "attachContext", source });
    const state = await harness.waitFor((current) => current.attachments.length === 3, "three chips");
    harness.editor.file = { kind: "file", label: "src/app.ts", text: "export const answer = 42;\n", language: "ts" };
    controller.editorActions.offerActiveFile("src/app.ts");

    const pending: AttachmentTextView[] = [];
    for (const chip of state.attachments) {
      const view = await open({ place: "pending", id: chip.id });
      assert.ok(view !== null, `${chip.label} opens`);
      assert.equal(view.kind, chip.kind);
      assert.equal(view.label, chip.label);
      assert.ok(view.text.startsWith(`<attachment kind="${chip.kind}" label="`), view.text);
      assert.ok(view.text.includes(contextText[chip.kind] ?? "?"), "the whole text the editor gathered");
      assert.equal(view.tokens, Math.ceil(view.text.length / 4));
      pending.push(view);
    }
    assert.ok(pending[1]!.text.includes('label="Terminal &quot;bash&quot; &amp; co"'), "the label as the block carries it");
    assert.ok(pending[1]!.text.includes("````\n"), "a fence longer than the text's own backticks");
    const activeFile = await open({ place: "activeFile" });
    assert.ok(activeFile !== null);
    assert.equal(activeFile.text, '<attachment kind="file" label="src/app.ts">\n```ts\nexport const answer = 42;\n```\n</attachment>');

    controller.handle({ type: "send", text: "why does it fail?" });
    const sent = await harness.waitFor((current) => !current.busy && current.turns.length === 1 && current.turns[0]!.outcome !== "in_progress", "the answer");
    const { raw, content } = sentMessage();
    const blocks = [...pending, activeFile];
    assert.equal(content, ["why does it fail?", ...blocks.map((view) => view.text)].join("\n\n"), "the message is the question and exactly the blocks shown");
    for (const view of blocks) assert.ok(raw.includes(JSON.stringify(view.text).slice(1, -1)), `the raw body holds ${view.label} byte for byte`);

    const turnId = sent.turns[0]!.id;
    assert.deepEqual(
      sent.turns[0]!.attachments.map(({ label }) => label),
      blocks.map(({ label }) => label),
    );
    for (const [index, view] of blocks.entries()) {
      const opened = await open({ place: "sent", turnId, index });
      assert.deepEqual(opened, { kind: view.kind, label: view.label, text: view.text, tokens: view.tokens }, `sent chip ${index}`);
    }
    assert.equal(await open({ place: "sent", turnId, index: blocks.length }), null, "no such chip");
    assert.equal(await open({ place: "sent", turnId: "turn_gone", index: 0 }), null, "no such turn");
    assert.equal(await open({ place: "pending", id: state.attachments[0]!.id }), null, "a chip that went with the message is not waiting any more");
  });

  it("shows a long file as it is cut for the message, and a removed chip as gone", async () => {
    const { controller } = harness;
    harness.editor.picked = { kind: "file", label: "big.txt", text: "x".repeat(100_050), language: "txt" };
    controller.handle({ type: "attachFile" });
    const state = await harness.waitFor((current) => current.attachments.length === 1, "the chip");
    const id = state.attachments[0]!.id;
    const view = await open({ place: "pending", id });
    assert.ok(view !== null);
    assert.ok(view.text.endsWith("x\n[... cut at 100000 characters]\n```\n</attachment>"), view.text.slice(-80));
    controller.handle({ type: "send", text: "" });
    await harness.waitFor((current) => !current.busy && current.turns.length === 1 && current.turns[0]!.outcome !== "in_progress", "the answer");
    assert.equal(sentMessage().content, view.text, "a message of the attachment alone is its block");

    harness.editor.picked = { kind: "file", label: "small.txt", text: "small", language: "" };
    controller.handle({ type: "attachFile" });
    const again = await harness.waitFor((current) => current.attachments.length === 1, "another chip");
    controller.handle({ type: "removeAttachment", id: again.attachments[0]!.id });
    await harness.waitFor((current) => current.attachments.length === 0, "removed");
    assert.equal(await open({ place: "pending", id: again.attachments[0]!.id }), null);
    assert.equal(await open({ place: "activeFile" }), null, "no active file offered");
  });
});
