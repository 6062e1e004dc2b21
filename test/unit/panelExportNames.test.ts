import assert from "node:assert/strict";
import path from "node:path";
import { safeFileName } from "../../src/panel/conversations/conversationCommands";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// An export is named by what the person typed, as the history list names the conversation: a first message that
// carried a chip proposed "_commit _attachment kind_file_ label_Staged changes of demo-.md" and the heading
// "# /commit <attachment kind="file" …>". Through the controller on Node, against the relay emulator.

describe("panel: exports named by the message's own text", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("proposes the typed text as the file name and heading, and sets the attachment apart in the document", async () => {
    harness = await startPanelHostHarness();
    const { controller, conversationUi } = harness;
    controller.handle({ type: "ready" });
    harness.editor.picked = { kind: "file", label: "Staged changes of demo", text: "diff --git a/hello.ts b/hello.ts\n+export const x = 1;\n", language: "diff" };
    controller.handle({ type: "attachFile" });
    await harness.waitFor((state) => state.attachments.length === 1, "the chip");
    controller.handle({ type: "send", text: "/commit" });
    const state = await harness.waitFor((current) => !current.busy && current.turns.length === 1 && current.turns[0]!.outcome !== "in_progress", "the answer");
    const listed = await harness.waitFor((current) => current.conversations.length === 1, "the history entry");
    assert.equal(listed.conversations[0]!.title, "/commit", "the history list's name");

    conversationUi.exportPath = path.join("/exports", "chat.md");
    controller.handle({ type: "exportConversation", conversationId: state.conversationId! });
    await harness.waitFor(() => conversationUi.written.size === 1, "the Markdown export");
    assert.deepEqual(conversationUi.suggestedNames, ["commit"]);
    const markdown = conversationUi.written.get(path.join("/exports", "chat.md")) ?? "";
    assert.equal(markdown.split("\n")[0], "# /commit");
    const you = markdown.slice(markdown.indexOf("## You"), markdown.indexOf("## Assistant"));
    assert.equal(
      you,
      [
        "## You",
        "",
        "/commit",
        "",
        "*Attached, as sent to the model:*",
        "",
        "````",
        '<attachment kind="file" label="Staged changes of demo">',
        "```diff",
        "diff --git a/hello.ts b/hello.ts",
        "+export const x = 1;",
        "```",
        "</attachment>",
        "````",
        "",
        "",
      ].join("\n"),
    );

    conversationUi.exportPath = path.join("/exports", "chat.json");
    controller.handle({ type: "exportConversation", conversationId: state.conversationId! });
    await harness.waitFor(() => conversationUi.written.size === 2, "the JSON export");
    assert.equal((JSON.parse(conversationUi.written.get(path.join("/exports", "chat.json")) ?? "{}") as { title: string }).title, "/commit");
  });

  it("makes a file name of letters, digits, spaces, dots and dashes, without leading or trailing dots and underscores", () => {
    assert.equal(safeFileName("/commit"), "commit");
    assert.equal(safeFileName("Renamed: a/b?"), "Renamed_ a_b");
    assert.equal(safeFileName("...//"), "conversation");
    assert.equal(safeFileName("修复 登录.bug"), "修复 登录.bug");
  });
});
