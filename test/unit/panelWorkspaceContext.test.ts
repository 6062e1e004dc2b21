import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ContextRequest, WorkspaceContextSource } from "../../src/panel/panelServices";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// `#` context through the panel's controller on Node, against the relay emulator: the menu's folders, files and
// symbols; a picked context becomes a chip that the meter counts, goes to the relay as a labelled block and
// shows on the sent message. The editor's part (Problems, the terminal, symbols) is a stand-in that answers
// as the editor would; the folder's file list is the real WorkspaceFiles on a temporary folder.

describe("panel: # context through the controller", function () {
  this.timeout(30_000);
  let scratch: string;
  let harness: PanelHostHarness;
  let asked: ContextRequest[];
  let symbolsAnswer: () => Promise<{ path: string; kind: "symbol"; name: string; detail: string }[]>;

  beforeEach(async () => {
    scratch = await realpath(await mkdtemp(path.join(tmpdir(), "relay-chat-context-")));
    await mkdir(path.join(scratch, "src", "greeting"), { recursive: true });
    await writeFile(path.join(scratch, "src", "greeting", "hello.ts"), "export class Greeter {}\n");
    await writeFile(path.join(scratch, "src", "main.ts"), "export {};\n");
    asked = [];
    symbolsAnswer = async () => [{ path: "src/greeting/hello.ts:1", kind: "symbol", name: "Greeter", detail: "class" }];
    const workspaceContext: WorkspaceContextSource = {
      attachment: async (request) => {
        asked.push(request);
        if (request.source === "changes") return { ok: false, problem: "The changes could not be read: not a git repository." };
        return { ok: true, attachment: { kind: "terminal", label: "Terminal sh", text: "The terminal \"sh\" has no shell integration.", language: "", note: "no shell integration" } };
      },
      symbols: () => symbolsAnswer(),
    };
    const folders = () => [scratch];
    harness = await startPanelHostHarness({ files: new WorkspaceFiles({ folders, excludePatterns: () => [] }), workspaceContext });
    await harness.controller.ready();
  });

  afterEach(async () => {
    await harness.close();
    await rm(scratch, { recursive: true, force: true });
  });

  async function matches(query: string): Promise<unknown> {
    const before = harness.view.ofType("fileMatches").length;
    harness.controller.handle({ type: "findFiles", query });
    const deadline = Date.now() + 5000;
    while (harness.view.ofType("fileMatches").length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return harness.view.ofType("fileMatches").at(-1);
  }

  it("answers # with folders, files and workspace symbols, and does not keep the files waiting on a slow symbol provider", async () => {
    assert.deepEqual(await matches("greet"), {
      type: "fileMatches",
      query: "greet",
      // Names that start with the query (the folder, the class) before a file found by its folder's name.
      files: [{ path: "src/greeting", kind: "folder" }, { path: "src/greeting/hello.ts:1", kind: "symbol", name: "Greeter", detail: "class" }, { path: "src/greeting/hello.ts" }],
    });
    symbolsAnswer = () => new Promise(() => undefined);
    const started = Date.now();
    const slow = (await matches("main")) as { files: unknown[] };
    assert.ok(Date.now() - started < 3000, "the files came without the symbols");
    assert.deepEqual(slow.files, [{ path: "src/main.ts" }]);
    assert.equal((await matches("m") as { files: unknown[] }).files.length > 0, true, "one letter asks for no symbols");
  });

  it("sends a picked folder and the terminal as labelled blocks, counted by the meter and shown on the sent message", async () => {
    const empty = harness.controller.state().context?.estimatedTokens ?? 0;
    harness.controller.handle({ type: "attachContext", source: "folder", path: "src" });
    await harness.waitFor((current) => current.attachments.length === 1, "the folder chip");
    harness.controller.handle({ type: "attachContext", source: "terminal" });
    const state = await harness.waitFor((current) => current.attachments.length === 2, "two chips");
    assert.deepEqual(state.attachments.map(({ kind, label, note }) => ({ kind, label, note })), [
      { kind: "folder", label: "src/", note: undefined },
      { kind: "terminal", label: "Terminal sh", note: "no shell integration" },
    ]);
    assert.ok((state.context?.estimatedTokens ?? 0) > empty, "the meter counts the chips");
    assert.deepEqual(asked, [{ source: "terminal" }]);

    harness.controller.handle({ type: "send", text: "what is here?" });
    const sent = await harness.waitFor((current) => !current.busy && current.turns.length === 1 && current.turns[0]!.outcome !== "in_progress", "the answer");
    assert.deepEqual(sent.turns[0]!.attachments, [{ kind: "folder", label: "src/" }, { kind: "terminal", label: "Terminal sh" }]);
    assert.equal(sent.turns[0]!.userText, "what is here?");
    assert.deepEqual(sent.attachments, [], "the chips went with the message");
    assert.equal(sent.title, "what is here?");
    const listed = await harness.waitFor((current) => current.conversations.length === 1, "the history entry");
    assert.equal(listed.conversations[0]!.title, "what is here?", "the history names it by the text, not the attached blocks");
    const body = JSON.stringify(harness.emulator.received.filter((request) => request.method === "POST").at(-1)?.body);
    assert.ok(body.includes('<attachment kind=\\"folder\\" label=\\"src/\\">'), body);
    assert.ok(body.includes("Files in src (2, ignored files left out):\\ngreeting/hello.ts\\nmain.ts"), body);
    assert.ok(body.includes('has no shell integration.'), "the model is told why there is no output");
  });

  it("says why a context could not be attached, and attaches nothing", async () => {
    harness.controller.handle({ type: "attachContext", source: "changes" });
    const state = await harness.waitFor((current) => current.notice !== null, "the notice");
    assert.equal(state.notice, "The changes could not be read: not a git repository.");
    assert.deepEqual(state.attachments, []);
    harness.controller.handle({ type: "attachContext", source: "folder", path: "../outside" });
    const refused = await harness.waitFor((current) => current.notice?.includes("../outside") === true, "the folder refusal");
    assert.deepEqual(refused.attachments, []);
  });
});
