import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { exactNamesFirst } from "../../src/panel/context/contextMatchOrder";
import type { FileMatchView } from "../../src/panel/protocol";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// `#greet` listed .github/prompts/review.prompt.md (a fuzzy match of its path) above the function greet(), and
// Enter attached the prompt file: a name typed whole comes first, then names starting with it, then the rest.

const symbol = (name: string, at: string, detail = "function"): FileMatchView => ({ kind: "symbol", name, path: at, detail });

describe("the # menu's order", () => {
  it("puts a symbol or file named exactly as typed above fuzzy path matches", () => {
    const matches = [{ path: ".github/prompts/review.prompt.md" }, { path: "src/greeting/hello.ts" }, symbol("greet", "src/hello.ts:3"), symbol("greetAll", "src/hello.ts:9")];
    assert.deepEqual(exactNamesFirst("greet", matches), [symbol("greet", "src/hello.ts:3"), symbol("greetAll", "src/hello.ts:9"), { path: ".github/prompts/review.prompt.md" }, { path: "src/greeting/hello.ts" }]);
  });

  it("takes a file's name with or without its extensions, and a folder's name", () => {
    const matches = [{ path: "docs/greeting.md" }, { path: "src/greet.test.ts" }, { path: "lib/greet", kind: "folder" as const }, { path: "src/greet.ts" }];
    assert.deepEqual(
      exactNamesFirst("greet", matches).map((match) => match.path),
      ["src/greet.test.ts", "lib/greet", "src/greet.ts", "docs/greeting.md"],
    );
    assert.deepEqual(
      exactNamesFirst("greet.ts", matches).map((match) => match.path),
      ["src/greet.ts", "docs/greeting.md", "src/greet.test.ts", "lib/greet"],
    );
    assert.deepEqual(exactNamesFirst("review", [{ path: "a/preview.ts" }, { path: ".github/prompts/review.prompt.md" }]).map((match) => match.path), [".github/prompts/review.prompt.md", "a/preview.ts"]);
  });

  it("ranks the exact case above another case, keeps the given order otherwise, and leaves an empty query alone", () => {
    const matches = [symbol("Greet", "a.ts:1", "class"), symbol("greet", "b.ts:1"), { path: "x/y.ts" }, { path: "z.ts" }];
    assert.deepEqual(exactNamesFirst("greet", matches), [symbol("greet", "b.ts:1"), symbol("Greet", "a.ts:1", "class"), { path: "x/y.ts" }, { path: "z.ts" }]);
    assert.deepEqual(exactNamesFirst("", matches), matches);
    assert.deepEqual(exactNamesFirst("greet", [{ path: "q.ts" }, symbol("greet()", "c.ts:2")]), [symbol("greet()", "c.ts:2"), { path: "q.ts" }], "a symbol provider's name with its parentheses");
  });

  it("answers #greet through the controller with the symbol first, above the prompt file", async function () {
    this.timeout(20_000);
    const scratch = await realpath(await mkdtemp(path.join(tmpdir(), "relay-chat-order-")));
    await mkdir(path.join(scratch, ".github", "prompts"), { recursive: true });
    await writeFile(path.join(scratch, ".github", "prompts", "review.prompt.md"), "Review ${input:file}.\n");
    await mkdir(path.join(scratch, "src"));
    await writeFile(path.join(scratch, "src", "hello.ts"), "export function greet(name: string) {\n  return `hello ${name}`;\n}\n");
    const harness = await startPanelHostHarness({
      files: new WorkspaceFiles({ folders: () => [scratch], excludePatterns: () => [] }),
      workspaceContext: { attachment: async () => ({ ok: false, problem: "unused" }), symbols: async () => [symbol("greet", "src/hello.ts:1")] },
    });
    try {
      harness.controller.handle({ type: "findFiles", query: "greet" });
      const deadline = Date.now() + 5000;
      while (harness.view.ofType("fileMatches").length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const files = harness.view.ofType("fileMatches").at(-1)?.files ?? [];
      assert.deepEqual(files[0], symbol("greet", "src/hello.ts:1"), JSON.stringify(files));
      assert.ok(files.some((file) => file.path === ".github/prompts/review.prompt.md"), "the prompt file is still offered, below");
    } finally {
      await harness.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
