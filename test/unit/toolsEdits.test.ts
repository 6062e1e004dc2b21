import assert from "node:assert/strict";
import * as path from "node:path";
import { applyTextEdits } from "../../src/tools/textEdits";
import { workspaceDisplayPath } from "../../src/tools/workspaceDisplayPath";

function problemOf(result: ReturnType<typeof applyTextEdits>): string {
  assert.equal(result.ok, false, "expected the edits to be refused");
  return result.ok ? "" : result.problem;
}

describe("tools: applyTextEdits", () => {
  const original = "alpha\nbeta\ngamma\nbeta-two\n";

  it("replaces each old text at its one place, judged against the original", () => {
    assert.deepEqual(applyTextEdits(original, [{ old_text: "gamma", new_text: "GAMMA" }, { old_text: "alpha\n", new_text: "" }]), {
      ok: true,
      text: "beta\nGAMMA\nbeta-two\n",
    });
    // The second edit's old text is the first's new text: it is looked up in the original, where it is absent.
    const chained = applyTextEdits(original, [{ old_text: "alpha", new_text: "delta" }, { old_text: "delta", new_text: "x" }]);
    assert.match(problemOf(chained), /^Edit 2: old_text was not found/);
  });

  it("refuses an old text that is missing, naming the edit and how to fix it", () => {
    const result = applyTextEdits(original, [{ old_text: "alpha", new_text: "a" }, { old_text: "  beta", new_text: "b" }]);
    assert.match(problemOf(result), /^Edit 2: old_text was not found in the file\. It must match the current file exactly, including whitespace/);
  });

  it("refuses an old text that occurs more than once, overlapping occurrences included", () => {
    const twice = applyTextEdits(original, [{ old_text: "beta", new_text: "b" }]);
    assert.deepEqual(twice, { ok: false, problem: "old_text occurs 2 times in the file; include more of the surrounding lines so it matches exactly once." });
    const overlapping = applyTextEdits("aaa", [{ old_text: "aa", new_text: "b" }]);
    assert.match(problemOf(overlapping), /occurs 2 times/);
  });

  it("refuses an empty old text, overlapping edits and an empty edit list", () => {
    assert.match(problemOf(applyTextEdits(original, [{ old_text: "", new_text: "x" }])), /old_text is empty/);
    const overlap = applyTextEdits(original, [{ old_text: "beta\ngamma", new_text: "x" }, { old_text: "alpha\nbeta\n", new_text: "y" }]);
    assert.deepEqual(overlap, { ok: false, problem: "Edits 1 and 2 overlap in the file; merge them into one edit." });
    assert.deepEqual(applyTextEdits(original, []), { ok: false, problem: "No edits were given." });
  });

  it("matches \\n in the edits against a CRLF file and keeps its line breaks", () => {
    const crlf = "one\r\ntwo\r\nthree\r\n";
    assert.deepEqual(applyTextEdits(crlf, [{ old_text: "one\ntwo", new_text: "1\n2" }]), { ok: true, text: "1\r\n2\r\nthree\r\n" });
  });

  it("treats replacement text literally ($& and $1 are not patterns)", () => {
    assert.deepEqual(applyTextEdits("price", [{ old_text: "price", new_text: "$& $1 $$" }]), { ok: true, text: "$& $1 $$" });
  });
});

describe("tools: workspaceDisplayPath", () => {
  const ws = path.resolve("/work/ws");
  const other = path.resolve("/work/other");

  it("shows paths relative to the folder, with the folder name when several are open", () => {
    assert.equal(workspaceDisplayPath([ws], path.join(ws, "src", "a.ts")), "src/a.ts");
    assert.equal(workspaceDisplayPath([ws, other], path.join(other, "b.ts")), "other/b.ts");
    assert.equal(workspaceDisplayPath([ws], ws), ".");
  });

  it("gives undefined outside every folder, including a sibling with the same prefix", () => {
    assert.equal(workspaceDisplayPath([ws], path.resolve("/work/ws-evil/a.ts")), undefined);
    assert.equal(workspaceDisplayPath([], path.join(ws, "a.ts")), undefined);
  });
});
