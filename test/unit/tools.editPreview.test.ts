// Issue 27: propose_edit's approval card showed the raw JSON of its arguments, "\n" escapes and all. The card
// now gets the change as a diff: the file in the header, removed and added lines with a little context.
import assert from "node:assert/strict";
import type { JsonObject } from "../../src/relay/types";
import { describeApprovalRequest } from "../../src/tools/approvalGate";
import type { DiffHunk, ProposedChange } from "../../src/tools/editPreview";
import { CONTEXT_LINES, MAX_DIFF_LINES, editDiff } from "../../src/tools/editPreview";
import type { ReadyCall } from "../../src/tools/preparedCall";
import type { Tool } from "../../src/tools/toolContract";

const text = (hunk: DiffHunk) => hunk.lines.map((line) => `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "}${line.segments.map((segment) => segment.text).join("")}`);
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n") + "\n";

describe("tools: a file change as a diff for its approval card", () => {
  it("shows each changed part with two unchanged lines around it, and where it is", () => {
    const original = numbered(20);
    const proposed = original.replace("line 5\n", "line five\n").replace("line 16\n", "");
    const diff = editDiff({ path: "src/a.ts", original, proposed, arguments: ["path", "new_text"] });
    assert.equal(CONTEXT_LINES, 2);
    assert.deepEqual(diff.path, [{ text: "src/a.ts", marker: false }]);
    assert.equal(diff.createsFile, false);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 2);
    assert.equal(diff.hunks.length, 2);
    assert.deepEqual(text(diff.hunks[0]!), [" line 3", " line 4", "-line 5", "+line five", " line 6", " line 7"]);
    assert.equal(diff.hunks[0]!.originalLine, 3);
    assert.equal(diff.hunks[0]!.proposedLine, 3);
    assert.deepEqual(text(diff.hunks[1]!), [" line 14", " line 15", "-line 16", " line 17", " line 18"]);
    assert.equal(diff.hunks[1]!.originalLine, 14);
    assert.deepEqual(diff.arguments, ["path", "new_text"]);
  });

  it("shows a new file as added lines, CRLF lines without their line breaks, and hidden characters as markers", () => {
    const created = editDiff({ path: "new.md", original: null, proposed: "# Title\r\n\r\nBody\u202E\r\n", arguments: ["new_text"] });
    assert.equal(created.createsFile, true);
    assert.deepEqual(text(created.hunks[0]!), ["+# Title", "+", "+Body⟨U+202E⟩"]);
    assert.ok(created.hunks[0]!.lines[2]!.segments.some((segment) => segment.marker), "the hidden character is a marker");
  });

  it("shows replacements that cannot be placed one by one, old text against new", () => {
    const change: ProposedChange = { path: "src/b.ts", replacements: [{ oldText: "const a = 1;\nconst b = 2;", newText: "const a = 1;\nconst b = 3;" }, { oldText: "x", newText: "y" }], arguments: ["edits"] };
    const diff = editDiff(change);
    assert.equal(diff.unplaced, true);
    assert.deepEqual(diff.hunks.map(text), [[" const a = 1;", "-const b = 2;", "+const b = 3;"], ["-x", "+y"]]);
    assert.equal(diff.hunks[0]!.originalLine, null);
  });

  it("keeps a long change short on the card and says how many lines are left off", () => {
    const diff = editDiff({ path: "big.txt", original: null, proposed: numbered(MAX_DIFF_LINES + 25), arguments: ["new_text"] });
    assert.equal(diff.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0), MAX_DIFF_LINES);
    assert.equal(diff.omittedLines, 25);
    assert.equal(diff.added, MAX_DIFF_LINES + 25, "the counts are of the whole change");
  });

  it("puts the tool's preview on the approval request, and none when the preview fails", async () => {
    const base: Tool = {
      name: "propose_edit",
      description: "Propose a change.",
      parameters: { type: "object" },
      risk: "write",
      argumentRoles: { path: "path" },
      run: async () => "ok",
      previewChange: async (args: JsonObject) => ({ path: String(args.path), original: "a\nb\n", proposed: "a\nc\n", arguments: ["path", "new_text"] }),
    };
    const call = (tool: Tool): ReadyCall => ({ status: "ready", call_id: "call_1", tool, args: { path: "f.txt", new_text: "a\nc\n" } });
    const request = await describeApprovalRequest(call(base), { trusted: true });
    assert.deepEqual(request.diff?.hunks.map(text), [[" a", "-b", "+c"]]);
    assert.equal(request.argumentsJson, '{\n  "path": "f.txt",\n  "new_text": "a\\nc\\n"\n}', "the exact arguments are still there");
    const failing = await describeApprovalRequest(call({ ...base, previewChange: async () => Promise.reject(new Error("unreadable")) }), { trusted: true });
    assert.equal(failing.diff ?? null, null);
    const other = await describeApprovalRequest(call({ ...base, previewChange: undefined }), { trusted: true });
    assert.equal(other.diff ?? null, null);
  });
});
