import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileReferenceResolver } from "../../src/panel/editor/fileReferences";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// File names in answers open in the editor (issue 19), but only files of the workspace: the host decides,
// on a real temporary workspace with a file outside it and a symbolic link that points out.

describe("panel: file names in answers", function () {
  this.timeout(20_000);
  let scratch: string;
  let workspace: string;
  let resolver: FileReferenceResolver;

  before(async () => {
    scratch = await realpath(await mkdtemp(path.join(tmpdir(), "relay-chat-file-references-")));
    workspace = path.join(scratch, "workspace");
    await mkdir(path.join(workspace, "src", "chat"), { recursive: true });
    await mkdir(path.join(workspace, "docs"), { recursive: true });
    await writeFile(path.join(workspace, "README.md"), "# Readme\n");
    await writeFile(path.join(workspace, "src", "app.ts"), "export {};\n");
    await writeFile(path.join(workspace, "src", "chat", "chatSession.ts"), "export {};\n");
    await writeFile(path.join(workspace, "docs", "index.md"), "docs\n");
    await writeFile(path.join(workspace, "index.md"), "root\n");
    await writeFile(path.join(scratch, "secret.txt"), "outside\n");
    await symlink(path.join(scratch, "secret.txt"), path.join(workspace, "leak.txt"));
    const folders = () => [workspace];
    resolver = new FileReferenceResolver(folders, new WorkspaceFiles({ folders, excludePatterns: () => [] }));
  });

  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("finds workspace files by path, by name alone when one file has it, and nothing outside the workspace", async () => {
    assert.equal(await resolver.resolve("README.md"), path.join(workspace, "README.md"));
    assert.equal(await resolver.resolve("./src/app.ts"), path.join(workspace, "src", "app.ts"));
    assert.equal(await resolver.resolve("chatSession.ts"), path.join(workspace, "src", "chat", "chatSession.ts"), "a bare name of one file");
    assert.equal(await resolver.resolve("chat/chatSession.ts"), path.join(workspace, "src", "chat", "chatSession.ts"), "the end of a path");
    assert.equal(await resolver.resolve("index.md"), path.join(workspace, "index.md"), "a path from the folder wins over a name");
    for (const outside of ["../secret.txt", path.join(scratch, "secret.txt"), "leak.txt", "src", "missing.ts", "app.ts/../../secret.txt", ""]) {
      assert.equal(await resolver.resolve(outside), null, outside);
    }
    assert.deepEqual(await resolver.existing(["README.md", "../secret.txt", "leak.txt", "src/app.ts", "nope.md"]), ["README.md", "src/app.ts"]);
  });

  describe("through the panel's controller", () => {
    let harness: PanelHostHarness;
    afterEach(async () => {
      await harness?.close();
    });

    it("answers which names are workspace files, opens one at its line, and refuses a path outside", async () => {
      harness = await startPanelHostHarness({ fileReferences: resolver });
      const { controller, view, editor } = harness;
      controller.handle({ type: "ready" });
      controller.handle({ type: "findFileReferences", paths: ["README.md", "../secret.txt", "src/app.ts", "README.md"] });
      const deadline = Date.now() + 5_000;
      while (view.ofType("fileReferences").length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(view.ofType("fileReferences"), [{ type: "fileReferences", checked: ["README.md", "../secret.txt", "src/app.ts"], files: ["README.md", "src/app.ts"] }]);

      controller.handle({ type: "openFileReference", path: "src/app.ts", line: 12 });
      await harness.waitFor(() => editor.openedFiles.length === 1, "the file to open");
      assert.deepEqual(editor.openedFiles, [{ absolutePath: path.join(workspace, "src", "app.ts"), line: 12 }]);
      for (const outside of ["../secret.txt", "leak.txt"]) {
        controller.handle({ type: "openFileReference", path: outside, line: null });
        const refused = await harness.waitFor((state) => (state.notice ?? "").includes(outside), `the refusal of ${outside}`);
        assert.equal(refused.notice, `"${outside}" is not a file of this workspace, so it was not opened.`);
      }
      assert.equal(editor.openedFiles.length, 1, "nothing outside the workspace was opened");
    });
  });
});
