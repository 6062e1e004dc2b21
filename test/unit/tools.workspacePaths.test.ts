import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isInside, resolveInsideWorkspace } from "../../src/tools/workspacePaths";

describe("tools: resolveInsideWorkspace", () => {
  let sandbox: string;
  let workspace: string;
  let outside: string;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-paths-")));
    workspace = path.join(sandbox, "ws");
    outside = path.join(sandbox, "outside");
    await fs.mkdir(path.join(workspace, "src"), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(workspace, "src", "a.ts"), "export {};\n");
    await fs.writeFile(path.join(outside, "secret.txt"), "secret");
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  async function refused(requested: string, folders: string[] = [workspace]): Promise<string> {
    const result = await resolveInsideWorkspace(folders, requested);
    assert.equal(result.ok, false, `expected ${requested} to be refused`);
    return result.ok ? "" : result.problem;
  }

  it("resolves a relative path inside the first folder to its real path", async () => {
    const result = await resolveInsideWorkspace([workspace], "src/a.ts");
    assert.deepEqual(result, {
      ok: true,
      absolutePath: path.join(workspace, "src", "a.ts"),
      folder: workspace,
      relativePath: "src/a.ts",
      exists: true,
    });
  });

  it("accepts the folder itself and an absolute path inside it", async () => {
    const root = await resolveInsideWorkspace([workspace], ".");
    assert.ok(root.ok && root.relativePath === "" && root.absolutePath === workspace);
    const absolute = await resolveInsideWorkspace([workspace], path.join(workspace, "src"));
    assert.ok(absolute.ok && absolute.relativePath === "src");
  });

  it("accepts a path that does not exist yet, reporting exists: false", async () => {
    const result = await resolveInsideWorkspace([workspace], "src/new/deeper/file.ts");
    assert.ok(result.ok);
    assert.equal(result.exists, false);
    assert.equal(result.absolutePath, path.join(workspace, "src", "new", "deeper", "file.ts"));
  });

  it("refuses .. traversal, naming the path and saying it is outside the workspace", async () => {
    const problem = await refused("../outside/secret.txt");
    assert.match(problem, /"\.\.\/outside\/secret\.txt"/);
    assert.match(problem, /outside the workspace/);
    await refused("src/../../outside/secret.txt");
    await refused("..");
  });

  it("allows .. that stays inside", async () => {
    const result = await resolveInsideWorkspace([workspace], "src/../src/a.ts");
    assert.ok(result.ok && result.relativePath === "src/a.ts");
  });

  it("refuses absolute paths elsewhere", async () => {
    assert.match(await refused(path.join(outside, "secret.txt")), /outside the workspace/);
    await refused("/etc/passwd");
  });

  it("refuses the sibling-prefix trick (/ws vs /ws-evil)", async () => {
    const evil = `${workspace}-evil`;
    await fs.mkdir(evil);
    await fs.writeFile(path.join(evil, "x.txt"), "x");
    await refused(path.join(evil, "x.txt"));
    await refused("../ws-evil/x.txt");
    assert.equal(isInside("/ws", "/ws-evil/x"), false);
    assert.equal(isInside("/ws", "/ws/..x"), true, "a name starting with .. is not a parent reference");
    assert.equal(isInside("/ws", "/ws"), true);
  });

  it("refuses a file symlink that points outside", async () => {
    await fs.symlink(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
    assert.match(await refused("link.txt"), /outside the workspace/);
  });

  it("refuses paths through a directory symlink that points outside, existing or not", async () => {
    await fs.symlink(outside, path.join(workspace, "linkdir"), "dir");
    await refused("linkdir/secret.txt");
    await refused("linkdir/not-yet-created.txt");
    await refused("linkdir");
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    await fs.symlink(path.join(outside, "created-later.txt"), path.join(workspace, "dangling.txt"));
    await refused("dangling.txt");
  });

  it("accepts a symlink that stays inside", async () => {
    await fs.symlink(path.join(workspace, "src", "a.ts"), path.join(workspace, "alias.ts"));
    const result = await resolveInsideWorkspace([workspace], "alias.ts");
    assert.ok(result.ok && result.relativePath === "src/a.ts");
  });

  it("accepts a workspace folder given through a symlink", async () => {
    const linkedWorkspace = path.join(sandbox, "ws-link");
    await fs.symlink(workspace, linkedWorkspace, "dir");
    const result = await resolveInsideWorkspace([linkedWorkspace], "src/a.ts");
    assert.ok(result.ok && result.folder === linkedWorkspace && result.relativePath === "src/a.ts");
  });

  it("refuses NUL bytes", async () => {
    const problem = await refused("src/a.ts\0.png");
    assert.match(problem, /NUL/);
    assert.match(problem, /outside the workspace/);
  });

  it("refuses a differently-cased folder path when the file system is case-sensitive", async function () {
    const upper = workspace.toUpperCase();
    const caseInsensitive = await fs.stat(upper).then(() => true, () => false);
    if (caseInsensitive) this.skip();
    await refused(path.join(upper, "src", "a.ts"));
  });

  it("refuses everything when no folder is open", async () => {
    assert.match(await refused("a.ts", []), /no workspace folder/);
  });

  it("with several folders, resolves a folderName/ prefix against that folder", async () => {
    const second = path.join(sandbox, "second");
    await fs.mkdir(second);
    await fs.writeFile(path.join(second, "b.txt"), "b");
    const named = await resolveInsideWorkspace([workspace, second], "second/b.txt");
    assert.ok(named.ok && named.folder === second && named.relativePath === "b.txt");
    const defaulted = await resolveInsideWorkspace([workspace, second], "src/a.ts");
    assert.ok(defaulted.ok && defaulted.folder === workspace);
    await refused("second/../outside/secret.txt", [workspace, second]);
  });

  it("explains a path that runs through a file", async () => {
    const problem = await refused("src/a.ts/child");
    assert.match(problem, /"src\/a\.ts\/child"/);
  });
});
