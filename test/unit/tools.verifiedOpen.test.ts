// A path checked to be inside the workspace and then opened by path again can lead elsewhere if a folder on
// the way is swapped for a link in between. The file tools open first and check the opened handle; these tests
// do the swap between the check and the open.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readWorkspaceFile } from "../../src/tools/readFileTool";
import { openVerified, readFolderVerified } from "../../src/tools/verifiedOpen";
import { resolveInsideWorkspace } from "../../src/tools/workspacePaths";

const posixOnly = process.platform === "win32" ? describe.skip : describe;

posixOnly("tools: files are opened by the path that was checked", () => {
  let sandbox: string;
  let workspace: string;
  let outside: string;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-open-")));
    workspace = path.join(sandbox, "ws");
    outside = path.join(sandbox, "outside");
    await fs.mkdir(path.join(workspace, "docs"), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(workspace, "docs", "notes.txt"), "inside\n");
    await fs.writeFile(path.join(outside, "notes.txt"), "outside secret\n");
    await fs.writeFile(path.join(outside, "other.txt"), "outside\n");
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  /** Replaces the checked folder by a link to the outside folder, as a hostile process could at any moment. */
  async function swapDocsForLinkOutside(): Promise<void> {
    await fs.rename(path.join(workspace, "docs"), path.join(workspace, "docs-moved"));
    await fs.symlink(outside, path.join(workspace, "docs"));
  }

  it("refuses a file whose folder was swapped for a link after the check", async () => {
    const resolved = await resolveInsideWorkspace([workspace], "docs/notes.txt");
    assert.ok(resolved.ok && resolved.exists);
    await swapDocsForLinkOutside();
    // Opening the checked path by name now reaches the outside file: the hole being closed.
    assert.equal(await fs.readFile(resolved.absolutePath, "utf8"), "outside secret\n");
    const opened = await openVerified(resolved.absolutePath, "docs/notes.txt");
    assert.equal(opened.ok, false);
    assert.match(opened.ok ? "" : opened.problem, /changed while it was being opened/);
  });

  it("refuses a file that was replaced by a link after the check", async () => {
    const resolved = await resolveInsideWorkspace([workspace], "docs/notes.txt");
    assert.ok(resolved.ok);
    await fs.rm(resolved.absolutePath);
    await fs.symlink(path.join(outside, "notes.txt"), resolved.absolutePath);
    const opened = await openVerified(resolved.absolutePath, "docs/notes.txt");
    assert.equal(opened.ok, false);
  });

  it("refuses to list a folder that was swapped for a link after the check", async () => {
    const resolved = await resolveInsideWorkspace([workspace], "docs");
    assert.ok(resolved.ok);
    await swapDocsForLinkOutside();
    const listing = await readFolderVerified(resolved.absolutePath, "docs");
    assert.equal(listing.ok, false);
  });

  it("reads and lists through the handle when nothing changed", async () => {
    const resolved = await resolveInsideWorkspace([workspace], "docs/notes.txt");
    assert.ok(resolved.ok);
    const opened = await openVerified(resolved.absolutePath, "docs/notes.txt");
    assert.ok(opened.ok);
    assert.equal(await opened.handle.readFile("utf8"), "inside\n");
    await opened.handle.close();
    const listing = await readFolderVerified(path.join(workspace, "docs"), "docs");
    assert.deepEqual(listing.ok ? listing.entries.map((entry) => entry.name) : listing.problem, ["notes.txt"]);
  });

  it("does not hang on a named pipe", async () => {
    execFileSync("mkfifo", [path.join(workspace, "pipe.txt")]);
    const result = await readWorkspaceFile([workspace], { path: "pipe.txt" });
    assert.deepEqual(result, { output: '"pipe.txt" is not a regular file.', isError: true });
  });
});
