// What the approval card is given to show: the command line as it runs, the folder it runs in, paths relative
// to the workspace, and every hidden character made visible, with such calls never allowed for the session.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { JsonObject } from "../../src/relay/types";
import { describeArguments, displaySegments, findHiddenCharacters } from "../../src/tools/approvalDisplay";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import { createApprovalGate, describeApprovalRequest } from "../../src/tools/approvalGate";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import type { ReadyCall } from "../../src/tools/preparedCall";
import { createReadFileTool } from "../../src/tools/readFileTool";
import { createRunCommandTool } from "../../src/tools/runCommandTool";
import type { Tool } from "../../src/tools/toolContract";

const trusted = { trusted: true };
const call = (tool: Tool, args: JsonObject): ReadyCall => ({ status: "ready", call_id: "call_1", tool, args });
const textOf = (request: ApprovalRequest, name: string): string =>
  (request.details.find((detail) => detail.name === name)?.segments ?? []).map((segment) => segment.text).join("");

describe("tools: what an approval shows", () => {
  let sandbox: string;
  let workspace: string;
  let runCommand: Tool;
  let readFile: Tool;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-approval-")));
    workspace = path.join(sandbox, "project");
    await fs.mkdir(path.join(workspace, "src", "deep"), { recursive: true });
    await fs.writeFile(path.join(workspace, "src", "a.ts"), "x");
    await fs.symlink(path.join(workspace, "src", "deep"), path.join(workspace, "shortcut"));
    runCommand = createRunCommandTool({ workspaceFolders: () => [workspace] });
    readFile = createReadFileTool({ workspaceFolders: () => [workspace] });
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  it("shows a command line as plain text exactly as the shell gets it, not JSON-escaped", async () => {
    const command = 'grep -rn "TODO \\"fix\\"" src \\\n  | head -n 5\necho done\t# tab kept';
    const request = await describeApprovalRequest(call(runCommand, { command }), trusted, [workspace]);
    assert.equal(textOf(request, "command"), command);
    assert.equal(request.details[0]?.role, "command");
    assert.deepEqual(request.hiddenCharacters, []);
  });

  it("shows the working folder, the workspace folder when none is given, and the real place a link leads to", async () => {
    const none = await describeApprovalRequest(call(runCommand, { command: "ls" }), trusted, [workspace]);
    assert.deepEqual(none.details.map((detail) => [detail.name, detail.role, detail.note]), [["command", "command", null], ["cwd", "folder", "default"]]);
    assert.equal(textOf(none, "cwd"), ".");
    const given = await describeApprovalRequest(call(runCommand, { command: "ls", cwd: "shortcut" }), trusted, [workspace]);
    assert.equal(textOf(given, "cwd"), "src/deep");
    const outside = await describeApprovalRequest(call(runCommand, { command: "ls", cwd: "../.." }), trusted, [workspace]);
    assert.equal(outside.details.find((detail) => detail.name === "cwd")?.note, "outside");
  });

  it("shows file paths relative to the workspace, with the folder's name when several are open", async () => {
    const absolute = await describeApprovalRequest(call(readFile, { path: path.join(workspace, "src", "a.ts") }), trusted, [workspace]);
    assert.equal(textOf(absolute, "path"), "src/a.ts");
    assert.equal(absolute.details[0]?.note, null);
    const dotted = await describeApprovalRequest(call(readFile, { path: "./src/../src/a.ts" }), trusted, [workspace]);
    assert.equal(textOf(dotted, "path"), "src/a.ts");
    const second = path.join(sandbox, "other");
    await fs.mkdir(second);
    const several = await describeApprovalRequest(call(readFile, { path: "project/src/a.ts" }), trusted, [workspace, second]);
    assert.equal(textOf(several, "path"), "project/src/a.ts");
  });

  it("makes bidirectional, zero-width, control and unusual space characters visible, and lists them", async () => {
    // What the eye reads as `ls # docs` is `ls; rm -rf ~ #` hidden behind a right-to-left override.
    const command = "ls \u202E~ fr- mr ;\u202C # docs\u200B\r\u00A0\u{E0041}";
    const request = await describeApprovalRequest(call(runCommand, { command }), trusted, [workspace]);
    assert.equal(textOf(request, "command"), "ls ⟨U+202E⟩~ fr- mr ;⟨U+202C⟩ # docs⟨U+200B⟩⟨U+000D⟩⟨U+00A0⟩⟨U+E0041⟩");
    assert.deepEqual(
      request.details[0]?.segments.filter((segment) => segment.marker).map((segment) => segment.text),
      ["⟨U+202E⟩", "⟨U+202C⟩", "⟨U+200B⟩", "⟨U+000D⟩", "⟨U+00A0⟩", "⟨U+E0041⟩"],
    );
    assert.deepEqual(request.hiddenCharacters, [
      { codePoint: "U+202E", kind: "bidirectional" },
      { codePoint: "U+202C", kind: "bidirectional" },
      { codePoint: "U+200B", kind: "invisible" },
      { codePoint: "U+000D", kind: "control" },
      { codePoint: "U+00A0", kind: "space" },
      { codePoint: "U+E0041", kind: "invisible" },
    ]);
  });

  it("finds hidden characters anywhere in the arguments, nested values and names included", () => {
    assert.deepEqual(findHiddenCharacters({ edits: [{ old_text: "a", new_text: "b\u2066c" }] }), [{ codePoint: "U+2066", kind: "bidirectional" }]);
    assert.deepEqual(findHiddenCharacters({ "pa\u200Dth": "x" }), [{ codePoint: "U+200D", kind: "invisible" }]);
    assert.deepEqual(findHiddenCharacters({ text: "plain ascii, ünïcödé, 中文, emoji 😀, tab\tand\nnewline" }), []);
    const nested = describeArguments({ edits: [{ old_text: "x\u202Ey" }] }, {}, new Map());
    assert.match(nested.arguments[0]?.segments.map((segment) => segment.text).join("") ?? "", /"old_text": "x⟨U\+202E⟩y"/);
    assert.deepEqual(displaySegments(""), [{ text: "", marker: false }]);
  });

  it("a read call with hidden characters cannot be allowed for the session, and is asked about even after an allowance", async () => {
    const state = { trusted: true, disabledToolNames: new Set<string>(), sessionAllowances: new SessionAllowances() };
    const asked: ApprovalRequest[] = [];
    const answers: ApprovalAnswer[] = ["allow_session", "allow_session", "approve"];
    const approve = createApprovalGate(() => state, async (request) => (asked.push(request), answers.shift() ?? "deny"), () => [workspace]);

    assert.equal(await approve(call(readFile, { path: "src/a.ts" })), "allow_session");
    assert.equal(await approve(call(readFile, { path: "src/a.ts" })), "approve", "allowed: not asked again");
    assert.equal(asked.length, 1);

    const hidden = call(readFile, { path: "src/a\u200B.ts" });
    assert.equal(await approve(hidden), "approve", "asked, and allow_session only counts once");
    assert.equal(asked.length, 2);
    assert.equal(asked[1]?.canAllowForSession, false);
    assert.equal(await approve(hidden), "approve");
    assert.equal(asked.length, 3, "asked again: a call with hidden characters is never waved through");
  });
});
