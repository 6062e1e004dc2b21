// The emulator's demo model (what `npm run demo` shows a newcomer) answers as a real model would, driven by
// the real chat session, the real tools over a temporary folder and the relay emulator: Continue goes on
// from the cut, a declined call is acknowledged, a named or attached file is the one read, and the riskiest
// tools (run_command, propose_edit) are proposed so their approvals are seen.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { answerTextOf } from "../../src/chat/answerText";
import type { ChatTools } from "../../src/chat/toolRound";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { createReadFileTool } from "../../src/tools/readFileTool";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import { defineTool } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { composeMessage } from "../../src/panel/context/messageAttachments";
import { IMAGE_TOKEN_ESTIMATE } from "../../src/chat/spendGuard";
import { formatChanges } from "../../src/tools/workspaceContextText";
import { turnViewOf } from "../../src/panel/turns/turnView";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import type { JsonObject } from "../../src/relay/types";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";

const HELLO = 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

describe("the demo model", () => {
  let harness: ChatHarness;
  let folder: string;
  let approvals: Array<{ name: string; args: unknown }>;
  let proposedEdits: unknown[];

  beforeEach(async () => {
    // The demo relay as scripts/demo.mjs starts it: the scripted models and two Chat Completions only ones.
    harness = await startChatHarness({ chatOnlyModels: ["deepseek-chat", "deepseek-v4-flash"] });
    folder = await mkdtemp(path.join(tmpdir(), "relay-chat-demo-"));
    await writeFile(path.join(folder, "README.md"), "# Demo project\n\nA small folder for trying Relay Chat.\n");
    await writeFile(path.join(folder, "hello.ts"), HELLO);
    approvals = [];
    proposedEdits = [];
  });
  afterEach(async () => {
    await harness.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** The demo's tools: read_file and run_command for real in the folder; propose_edit records what it is given. */
  function demoTools(answer: ApprovalAnswer): ChatTools {
    const context = { workspaceFolders: () => [folder] };
    const proposeEdit = defineTool<Record<string, unknown>>({
      name: "propose_edit",
      description: "Propose an edit to a file; the user keeps or undoes it in the editor.",
      risk: "write",
      parameters: { type: "object", properties: { path: { type: "string" }, new_text: { type: "string" }, edits: { type: "array" } }, required: ["path"] },
      run: async (args) => {
        proposedEdits.push(args);
        return `The edit to ${String(args.path)} was applied (unsaved).`;
      },
    });
    const registry = new ToolRegistry([createReadFileTool(context), createRunCommandTool(context), proposeEdit]);
    return {
      registry,
      availability: () => ({ trusted: true, disabledToolNames: new Set() }),
      approve: async (call) => {
        approvals.push({ name: call.tool.name, args: call.args });
        return answer;
      },
      maxResultChars: 10_000,
    };
  }

  it("after Continue, goes on from the exact place the answer was cut: no restart, no quoted instruction", async () => {
    const session = harness.newSession({ settings: { model: "demo", maxOutputTokens: 60 } });
    const cut = finishedTurn(await session.send("Write something long"));
    assert.equal(cut.outcome.kind, "incomplete");
    const before = answerTextOf(cut);
    const continued = finishedTurn(await session.continueTurn(cut.id));
    const after = answerTextOf(continued);
    assert.ok(after.startsWith(before) && after.length > before.length, "the continued answer extends the cut one");
    const added = after.slice(before.length);
    assert.doesNotMatch(added, /You asked|Continue exactly|demo model/);
    // Continue again: still the same answer, going on.
    const again = answerTextOf(finishedTurn(await session.continueTurn(continued.id)));
    assert.ok(again.startsWith(after) && again.length > after.length);
    assert.equal(new Set(again.match(/## Part 1:/g)).size, 1, "the answer did not start over");
  });

  it("asked about a named file, reads that file (not README.md) and explains it", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Can you explain `hello.ts`?"));
    assert.deepEqual(approvals, [{ name: "read_file", args: { path: "hello.ts" } }]);
    assert.match(answerTextOf(turn), /I read `hello\.ts`.*function `greet`/s);
  });

  it("asked to explain attached code, explains the attachment without reading another file", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const message = composeMessage("explain this code", [{ kind: "file", label: "hello.ts", text: HELLO, language: "ts" }]);
    const turn = finishedTurn(await session.send(message));
    assert.deepEqual(approvals, []);
    assert.match(answerTextOf(turn), /You attached `hello\.ts`.*function `greet`/s);
  });

  it("after a denial, acknowledges it instead of claiming to have read the file", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("deny") });
    const turn = finishedTurn(await session.send("Please read the README file"));
    assert.deepEqual(approvals.map((approval) => approval.name), ["read_file"]);
    const answer = answerTextOf(turn);
    assert.match(answer, /you declined `read_file`/);
    assert.doesNotMatch(answer, /I read/);
  });

  it("asked to run something, proposes run_command with that command line", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Please run `ls` in the project"));
    assert.deepEqual(approvals, [{ name: "run_command", args: { command: "ls" } }]);
    assert.match(answerTextOf(turn), /I ran `ls`[\s\S]*hello\.ts/);
  });

  it("asked to change a file, reads it, then proposes an edit made from its exact text", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Change hello.ts: document the function"));
    assert.deepEqual(approvals.map((approval) => approval.name), ["read_file", "propose_edit"]);
    assert.deepEqual(proposedEdits, [{ path: "hello.ts", edits: [{ old_text: "export function greet(name: string): string {", new_text: "// Reviewed with Relay Chat's demo model.\nexport function greet(name: string): string {" }] }]);
    assert.match(answerTextOf(turn), /The edit to `hello\.ts` is in the editor/);
  });

  it("asked to suggest something for a file, reads it, then answers with a code block named after the file that redefines its function", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Suggest an improvement for `hello.ts`"));
    assert.deepEqual(approvals.map((approval) => approval.name), ["read_file"]);
    const answer = answerTextOf(turn);
    assert.match(answer, /\*\*Apply to file\*\*/);
    assert.ok(answer.includes("```ts hello.ts\nexport function greet(name: string): string {\n  // Suggested by Relay Chat's demo model.\n  return `Hello, ${name}!`;\n}\n```"), answer);
  });

  it("asked to change several files and run a command, reads them all, edits each, runs the command, then sums up", async () => {
    await writeFile(path.join(folder, "notes.md"), "# Notes\n");
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Document `hello.ts`, `README.md` and `notes.md`, then run `ls`"));
    assert.deepEqual(
      approvals.map((approval) => `${approval.name} ${String((approval.args as Record<string, unknown>).path ?? (approval.args as Record<string, unknown>).command)}`),
      ["read_file hello.ts", "read_file README.md", "read_file notes.md", "propose_edit hello.ts", "propose_edit README.md", "propose_edit notes.md", "run_command ls"],
    );
    assert.equal(turn.outcome.kind, "completed");
    assert.match(answerTextOf(turn), /I proposed an edit to `hello\.ts`, `README\.md`, `notes\.md`[\s\S]*Then I ran `ls`[\s\S]*notes\.md/);
  });

  it("with the active editor's file going along, answers the question typed: a command is run, a named file read, a greeting introduced", async () => {
    const current = [{ kind: "file" as const, label: "hello.ts", text: HELLO, language: "ts" }];
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    finishedTurn(await session.send(composeMessage("Please run `ls`", current)));
    finishedTurn(await session.send(composeMessage("Read README.md", current)));
    assert.deepEqual(approvals, [
      { name: "run_command", args: { command: "ls" } },
      { name: "read_file", args: { path: "README.md" } },
    ]);
    const greeting = finishedTurn(await session.send(composeMessage("Hello there", current)));
    assert.match(answerTextOf(greeting), /demo model/);
    assert.doesNotMatch(answerTextOf(greeting), /You attached/);
  });

  it("asked about a pasted screenshot, says what it received: the image's kind and size, and the question", async () => {
    // A 1x1 transparent PNG.
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("What does this error say?", { images: [{ mediaType: "image/png", data: png }] }));
    assert.deepEqual(approvals, [], "no tool is proposed for an image question");
    const answer = answerTextOf(turn);
    assert.match(answer, /one image[\s\S]*What does this error say\?[\s\S]*a PNG image, 1 × 1 pixels/);
  });

  it("bills a pasted screenshot by its size, near the panel's estimate per image, not by the characters of its data", async () => {
    // A 1400 × 900 PNG of some 90 KB (its header, then bytes no reader looks at): 90 KB of base64 is 30,000 "tokens" as text.
    const header = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const size = Buffer.alloc(8);
    size.writeUInt32BE(1400, 0);
    size.writeUInt32BE(900, 4);
    const png = Buffer.concat([header, size, Buffer.from("0806000000", "hex"), Buffer.alloc(4), Buffer.alloc(90_000, 7)]).toString("base64");
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("What does this error say?", { images: [{ mediaType: "image/png", data: png }] }));
    assert.match(answerTextOf(turn), /a PNG image, 1400 × 900 pixels/);
    const billed = turn.requests[0]?.usage?.input_tokens ?? assert.fail("usage");
    // OpenAI's count for 1400 × 900 at high detail: scaled to 1195 × 768, six 512-pixel tiles: 85 + 6 × 170.
    assert.equal(harness.emulator.usageLog.at(-1)?.inputTokens, billed);
    assert.ok(billed > 1105 && billed < 2 * IMAGE_TOKEN_ESTIMATE + 600, `billed ${billed} input tokens for one image and a short question`);
  });

  it("/review file=hello.ts (the demo's prompt file) reads hello.ts and reviews it, changing nothing", async () => {
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("/review file=hello.ts"));
    assert.deepEqual(approvals, [{ name: "read_file", args: { path: "hello.ts" } }]);
    assert.deepEqual(proposedEdits, []);
    assert.match(answerTextOf(turn), /^Review of `hello\.ts` \(3 lines\):[\s\S]*Line 1: `greet`[\s\S]*I changed no files\.$/);
  });

  it("/commit: answers with a commit message for the staged diff it is sent, not with its help text", async () => {
    const diff = "diff --git a/hello.ts b/hello.ts\nindex 1111111..2222222 100644\n--- a/hello.ts\n+++ b/hello.ts\n@@ -1,3 +1,7 @@\n export function greet(name: string): string {\n   return `Hello, ${name}!`;\n }\n+\n+export function farewell(name: string): string {\n+  return `Goodbye, ${name}!`;\n+}\n";
    const session = harness.newSession({ settings: { model: "demo" } });
    const turn = finishedTurn(await session.send(composeMessage("/commit", [{ kind: "file", label: "Staged changes of demo-workspace", text: diff, language: "diff" }])));
    assert.equal(answerTextOf(turn), "Add farewell() to hello.ts\n\n- hello.ts: 4 lines added, 0 removed");
  });

  it("asked about the #Changes it was given, says which files changed and how, and offers /commit", async () => {
    const staged = "diff --git a/hello.ts b/hello.ts\nindex 1111111..2222222 100644\n--- a/hello.ts\n+++ b/hello.ts\n@@ -1,3 +1,7 @@\n export function greet(name: string): string {\n   return `Hello, ${name}!`;\n }\n+\n+export function farewell(name: string): string {\n+  return `Goodbye, ${name}!`;\n+}\n";
    const changes = formatChanges({ staged, unstaged: "", untracked: ["notes.md"] });
    const session = harness.newSession({ settings: { model: "demo" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send(composeMessage("What did I change?", [{ kind: "changes", label: "Changes", text: changes.text, language: "diff" }])));
    assert.deepEqual(approvals, [], "the attached changes are enough: no tool is proposed");
    assert.equal(
      answerTextOf(turn),
      "You attached the working tree's changes:\n\n- `hello.ts` (staged): 4 lines added, 0 removed; it adds `farewell()`.\n- `notes.md` (untracked)\n\nSend `/commit` and I will write the commit message for the staged part.",
    );
  });

  it("the reasoning models repeat what was typed and name attachments, never the attachment markup", async () => {
    const attached = composeMessage("Why is this slow?", [{ kind: "file", label: "hello.ts", text: HELLO, language: "ts" }]);
    for (const model of ["reasoning", "thinker"]) {
      const session = harness.newSession({ settings: { model } });
      const answer = answerTextOf(finishedTurn(await session.send(attached)));
      assert.match(answer, /Why is this slow\? \(with `hello\.ts` attached\)$/, model);
      assert.doesNotMatch(answer, /<attachment|```/, model);
    }
  });

  it("the demo's thinking model (deepseek-v4-flash over Chat Completions) reasons, reads the file after approval and explains it, its reasoning sent back", async () => {
    const session = harness.newSession({ settings: { model: "deepseek-v4-flash", protocol: "chat" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Explain hello.ts"));
    assert.equal(turn.outcome.kind, "completed", turn.notice ?? "");
    assert.deepEqual(approvals, [{ name: "read_file", args: { path: "hello.ts" } }]);
    assert.match(answerTextOf(turn), /I read `hello\.ts`.*function `greet`/s);
    const view = turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null });
    assert.deepEqual(view.reasoningSummaries, ['The user wrote "Explain hello.ts"; a tool can help with that.', "The tool answered; I will say what it returned."]);
    // Both requests over Chat Completions; the follow-up carries the reasoning back on the tool-call message, or
    // the relay would refuse it as DeepSeek V4 does (HTTP 400).
    const posts = harness.emulator.received.filter((request) => request.method === "POST");
    assert.deepEqual(posts.map((request) => request.path), ["/v1/chat/completions", "/v1/chat/completions"]);
    const sentBack = ((posts[1]?.body as JsonObject).messages as JsonObject[]).find((message) => message.role === "assistant");
    assert.equal(sentBack?.reasoning_content, view.reasoningSummaries[0]);
  });

  it("the demo's thinking model refuses a follow-up whose tool-call message lost its reasoning, as DeepSeek V4 does", async () => {
    const history = [
      userMessage("Explain hello.ts"),
      { type: "function_call" as const, call_id: "call_lost", name: "read_file", arguments: '{"path":"hello.ts"}' },
      { type: "function_call_output" as const, call_id: "call_lost", output: HELLO },
    ];
    const result = await harness.client.send(buildResponseRequest({ model: "deepseek-v4-flash", input: history, stream: true }), { protocol: "chat" });
    assert.equal(result.httpStatus, 400);
    assert.match(result.outcome.kind === "http_error" ? result.outcome.message : "", /The `reasoning_content` in the thinking mode must be passed back to the API\./);
  });

  it("the demo's thinking model answers a greeting without a tool, saying so in its reasoning", async () => {
    const session = harness.newSession({ settings: { model: "deepseek-v4-flash", protocol: "chat" }, tools: demoTools("approve") });
    const turn = finishedTurn(await session.send("Hello!"));
    assert.deepEqual(approvals, []);
    assert.match(answerTextOf(turn), /demo model/);
    assert.deepEqual(turnViewOf(session.conversation, turn, { streamingTurnId: null, liveText: null }).reasoningSummaries, ['The user wrote "Hello!"; I can answer that directly.']);
  });
});
