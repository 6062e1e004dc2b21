import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createFindFilesTool, findWorkspaceFiles } from "../../src/tools/findFilesTool";
import { createListDirectoryTool, listWorkspaceDirectory } from "../../src/tools/listDirectoryTool";
import { createReadFileTool, readWorkspaceFile } from "../../src/tools/readFileTool";
import { createSearchTextTool, defaultSearchTextLimits, searchWorkspaceText } from "../../src/tools/searchTextTool";
import { ToolRegistry } from "../../src/tools/toolRegistry";

async function write(root: string, relativePath: string, content: string | Buffer): Promise<void> {
  const target = path.join(root, relativePath);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, content);
}

function outputOf(result: string | { output: string; isError: true }): string {
  assert.equal(typeof result, "string", `expected success, got ${JSON.stringify(result)}`);
  return result as string;
}

function errorOf(result: string | { output: string; isError: true }): string {
  assert.equal(typeof result, "object", `expected an error, got ${JSON.stringify(result)}`);
  return typeof result === "object" ? result.output : "";
}

describe("tools: file tools", () => {
  let sandbox: string;
  let workspace: string;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-files-")));
    workspace = path.join(sandbox, "ws");
    await write(workspace, "lines.txt", "one\ntwo\nthree\nfour\nfive\n");
    await write(workspace, "src/app.ts", "const needle = 1;\nexport const Other = needle;\n");
    await write(workspace, "src/util/helpers.ts", "// NEEDLE in caps\nexport {};\n");
    await write(workspace, "src/readme.md", "no match here\n");
    await write(workspace, "node_modules/pkg/index.ts", "const needle = 'dependency';\n");
    await write(workspace, ".git/config", "needle\n");
    await write(workspace, "dist/bundle.ts", "needle in build output\n");
    await write(workspace, "logs/today.log", "needle in a log\n");
    await write(workspace, "logs/keep.log", "needle kept by negation\n");
    await write(workspace, "generated/types.ts", "needle generated\n");
    await write(workspace, ".gitignore", "# build output\ndist/\n*.log\n!keep.log\n/generated\n");
    await write(sandbox, "outside/secret.txt", "needle outside\n");
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  describe("read_file", () => {
    it("reads a whole file with a header naming the path and line count", async () => {
      assert.equal(outputOf(await readWorkspaceFile([workspace], { path: "lines.txt" })), "lines.txt (5 lines)\none\ntwo\nthree\nfour\nfive");
    });

    it("reads an inclusive 1-based range", async () => {
      assert.equal(outputOf(await readWorkspaceFile([workspace], { path: "lines.txt", start_line: 2, end_line: 4 })), "lines.txt (lines 2-4 of 5)\ntwo\nthree\nfour");
      assert.equal(outputOf(await readWorkspaceFile([workspace], { path: "lines.txt", start_line: 5 })), "lines.txt (lines 5-5 of 5)\nfive");
      assert.equal(outputOf(await readWorkspaceFile([workspace], { path: "lines.txt", end_line: 1 })), "lines.txt (lines 1-1 of 5)\none");
    });

    it("clamps end_line past the end and refuses start_line past the end or an inverted range", async () => {
      assert.match(outputOf(await readWorkspaceFile([workspace], { path: "lines.txt", start_line: 4, end_line: 99 })), /lines 4-5 of 5\)\nfour\nfive$/);
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "lines.txt", start_line: 6 })), /past the end.*5 lines/);
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "lines.txt", start_line: 3, end_line: 2 })), /before start_line/);
    });

    it("refuses binary files", async () => {
      await write(workspace, "image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "image.png" })), /looks binary/);
    });

    it("refuses files over the size cap, naming the size and the limit", async () => {
      await write(workspace, "big.txt", "z".repeat(2001));
      const problem = errorOf(await readWorkspaceFile([workspace], { path: "big.txt" }, { maxFileBytes: 2000 }));
      assert.match(problem, /2001 bytes/);
      assert.match(problem, /2000-byte limit/);
      assert.equal(typeof (await readWorkspaceFile([workspace], { path: "lines.txt" }, { maxFileBytes: 2000 })), "string");
    });

    it("refuses paths outside the workspace, missing files and folders", async () => {
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "../outside/secret.txt" })), /outside the workspace/);
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "missing.txt" })), /does not exist/);
      assert.match(errorOf(await readWorkspaceFile([workspace], { path: "src" })), /is a folder/);
    });

    it("is a read tool whose schema forbids extra properties and non-integer lines", () => {
      const registry = new ToolRegistry([createReadFileTool({ workspaceFolders: () => [workspace] })]);
      const tool = registry.get("read_file");
      assert.equal(tool?.risk, "read");
      assert.equal(tool?.parameters["additionalProperties"], false);
      assert.equal(registry.checkArguments("read_file", { path: "a", start_line: 1.5 }).valid, false);
      assert.equal(registry.checkArguments("read_file", { path: "a", start_line: 0 }).valid, false);
      assert.equal(registry.checkArguments("read_file", { path: "a", extra: true }).valid, false);
      assert.equal(registry.checkArguments("read_file", { path: "a", start_line: 1, end_line: 2 }).valid, true);
    });

    it("runs through its Tool object with the current folders", async () => {
      const tool = createReadFileTool({ workspaceFolders: () => [workspace] });
      assert.match(String(await tool.run({ path: "lines.txt", start_line: 1, end_line: 1 }, new AbortController().signal)), /\none$/);
    });
  });

  describe("list_directory", () => {
    it("lists sorted entries with a trailing / for folders", async () => {
      await write(workspace, "src/Zeta.ts", "");
      assert.equal(outputOf(await listWorkspaceDirectory([workspace], "src")), "Zeta.ts\napp.ts\nreadme.md\nutil/");
    });

    it("lists the root for '.', including hidden and ignored entries", async () => {
      const listing = outputOf(await listWorkspaceDirectory([workspace], "."));
      assert.deepEqual(listing.split("\n"), [".git/", ".gitignore", "dist/", "generated/", "lines.txt", "logs/", "node_modules/", "src/"]);
    });

    it("caps long listings with a note", async () => {
      const listing = outputOf(await listWorkspaceDirectory([workspace], ".", 3));
      assert.equal(listing, ".git/\n.gitignore\ndist/\n[... 5 more entries not shown]");
    });

    it("refuses files, missing folders and paths outside", async () => {
      assert.match(errorOf(await listWorkspaceDirectory([workspace], "lines.txt")), /is a file/);
      assert.match(errorOf(await listWorkspaceDirectory([workspace], "nope")), /does not exist/);
      assert.match(errorOf(await listWorkspaceDirectory([workspace], "../outside")), /outside the workspace/);
    });

    it("says when a folder is empty, and defaults to the root", async () => {
      await fs.mkdir(path.join(workspace, "empty"));
      assert.equal(outputOf(await listWorkspaceDirectory([workspace], "empty")), "(empty folder)");
      const tool = createListDirectoryTool({ workspaceFolders: () => [workspace] });
      assert.match(String(await tool.run({}, new AbortController().signal)), /^\.git\/\n/);
    });
  });

  describe("find_files", () => {
    it("matches a glob with ** and skips node_modules, .git and .gitignore'd files", async () => {
      assert.equal(await findWorkspaceFiles([workspace], "**/*.ts"), "src/app.ts\nsrc/util/helpers.ts");
    });

    it("matches a bare name at any depth, ignoring case", async () => {
      assert.equal(await findWorkspaceFiles([workspace], "HELPERS.ts"), "src/util/helpers.ts");
      assert.equal(await findWorkspaceFiles([workspace], "*.{md,txt}"), "lines.txt\nsrc/readme.md");
    });

    it("honours gitignore negation and an exclude list", async () => {
      assert.equal(await findWorkspaceFiles([workspace], "*.log"), "logs/keep.log");
      assert.equal(await findWorkspaceFiles([workspace], "**/*", { excludePatterns: ["src/**", "*.txt", "**/.gitignore", "**/*.log"] }), "No files match \"**/*\".");
    });

    it("caps the number of results", async () => {
      assert.equal(await findWorkspaceFiles([workspace], "**", { maxResults: 2 }), ".gitignore\nlines.txt\n[... stopped after 2 files; use a narrower pattern]");
    });

    it("does not follow symbolic links out of the workspace", async () => {
      await fs.symlink(path.join(sandbox, "outside"), path.join(workspace, "escape"), "dir");
      assert.equal(await findWorkspaceFiles([workspace], "secret.txt"), 'No files match "secret.txt".');
    });

    it("prefixes folder names when several folders are open", async () => {
      const second = path.join(sandbox, "second");
      await write(second, "b.ts", "");
      assert.equal(await findWorkspaceFiles([workspace, second], "*.ts"), "ws/src/app.ts\nws/src/util/helpers.ts\nsecond/b.ts");
    });

    it("is a read tool that forwards the exclude setting", async () => {
      const tool = createFindFilesTool({ workspaceFolders: () => [workspace], excludePatterns: () => ["**/util/**"] });
      assert.equal(tool.risk, "read");
      assert.equal(await tool.run({ pattern: "*.ts" }, new AbortController().signal), "src/app.ts");
    });
  });

  describe("search_text", () => {
    it("finds a literal case-insensitively as path:line: text, skipping ignored places", async () => {
      assert.equal(
        outputOf(await searchWorkspaceText([workspace], { query: "needle" })),
        ["logs/keep.log:1: needle kept by negation", "src/app.ts:1: const needle = 1;", "src/app.ts:2: export const Other = needle;", "src/util/helpers.ts:1: // NEEDLE in caps"].join("\n"),
      );
    });

    it("respects case_sensitive", async () => {
      const result = outputOf(await searchWorkspaceText([workspace], { query: "NEEDLE", case_sensitive: true }));
      assert.equal(result, "src/util/helpers.ts:1: // NEEDLE in caps");
    });

    it("treats the query literally unless is_regex", async () => {
      await write(workspace, "src/regex.txt", "a.c\nabc\n");
      assert.equal(outputOf(await searchWorkspaceText([workspace], { query: "a.c" })), "src/regex.txt:1: a.c");
      assert.equal(outputOf(await searchWorkspaceText([workspace], { query: "^a.c$", is_regex: true })), "src/regex.txt:1: a.c\nsrc/regex.txt:2: abc");
    });

    it("explains an invalid regular expression", async () => {
      assert.match(errorOf(await searchWorkspaceText([workspace], { query: "(unclosed", is_regex: true })), /not valid/);
    });

    it("applies include and the exclude list", async () => {
      assert.equal(outputOf(await searchWorkspaceText([workspace], { query: "needle", include: "src/util/**" })), "src/util/helpers.ts:1: // NEEDLE in caps");
      assert.equal(
        outputOf(await searchWorkspaceText([workspace], { query: "needle" }, { excludePatterns: ["src", "*.log"] })),
        'No matches for "needle".',
      );
    });

    it("caps matches, skips binary and oversized files", async () => {
      await write(workspace, "many.txt", "hit\n".repeat(10));
      await write(workspace, "blob.bin", Buffer.concat([Buffer.from("hit"), Buffer.from([0])]));
      await write(workspace, "huge.txt", `hit${" ".repeat(5000)}`);
      const limits = { ...defaultSearchTextLimits, maxMatches: 3, maxFileBytes: 1000, maxLineChars: 300 };
      assert.equal(
        outputOf(await searchWorkspaceText([workspace], { query: "hit" }, { limits })),
        "many.txt:1: hit\nmany.txt:2: hit\nmany.txt:3: hit\n[... stopped after 3 matches; narrow the query or use include]",
      );
      assert.equal(outputOf(await searchWorkspaceText([workspace], { query: "hit", include: "{blob.bin,huge.txt}" }, { limits })), 'No matches for "hit".');
    });

    it("shortens very long lines", async () => {
      await write(workspace, "min.js", `var x="${"q".repeat(1000)}needle";`);
      const line = outputOf(await searchWorkspaceText([workspace], { query: "var x" }, { limits: { ...defaultSearchTextLimits, maxMatches: 5, maxFileBytes: 10_000, maxLineChars: 20 } }));
      assert.equal(line, `min.js:1: var x="${"q".repeat(13)}…`);
    });

    it("does not read files through a symlink that leaves the workspace", async () => {
      await fs.symlink(path.join(sandbox, "outside", "secret.txt"), path.join(workspace, "secret-link.txt"));
      assert.doesNotMatch(outputOf(await searchWorkspaceText([workspace], { query: "needle" })), /outside/);
    });

    it("is a read tool with additionalProperties:false", () => {
      const tool = createSearchTextTool({ workspaceFolders: () => [workspace] });
      assert.equal(tool.risk, "read");
      assert.equal(tool.parameters["additionalProperties"], false);
    });
  });
});
