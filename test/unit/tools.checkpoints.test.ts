import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { GitMissingError, gitVersion } from "../../src/tools/checkpointGit";
import { FolderCheckpoints, WorkspaceCheckpoints } from "../../src/tools/checkpointStore";
import { runCommandLine } from "../../src/tools/commandRunner";
import { useCheckpointSandbox } from "../fixtures/checkpoints/checkpointSandbox";

// Checkpoints on real temp folders with the real git binary: what is saved, what a restore does, and that
// the folder's own repository is left exactly as it was.

describe("tools: checkpoints", () => {
  const sandbox = useCheckpointSandbox("checkpoints");
  const { write, read, exists } = sandbox;

  it("lists what changed between two checkpoints and restores the first, deleting files added since", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    await write("src/a.ts", "export const a = 2;\n");
    await write("src/new/b.ts", "new\n");
    await fs.rm(path.join(sandbox.workspace, "README.md"));
    const after = await checkpoints.take();

    const changes = await checkpoints.diff(before, after);
    assert.deepEqual(
      changes.map((change) => `${change.kind} ${change.path}`).sort(),
      ["added src/new/b.ts", "deleted README.md", "modified src/a.ts"],
    );
    assert.equal((await checkpoints.fileAt(before, "src/a.ts"))?.toString(), "export const a = 1;\n");
    assert.equal(await checkpoints.fileAt(before, "src/new/b.ts"), null);

    const restored = await checkpoints.restore(before);
    assert.equal(await read("src/a.ts"), "export const a = 1;\n");
    assert.equal(await read("README.md"), "# readme\n");
    assert.equal(await exists("src/new/b.ts"), false);
    assert.equal(await exists("src/new"), false, "the folder the turn created and left empty goes too");
    assert.deepEqual(
      restored.changes.map((change) => `${change.kind} ${change.path}`).sort(),
      ["added README.md", "deleted src/new/b.ts", "modified src/a.ts"],
      "the changes are those the restore made",
    );
  });

  it("restores a file that has become a folder since, and a folder that has become a file", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await write("build", "a file\n");
    const before = await checkpoints.take();
    await fs.rm(sandbox.file("build"));
    await write("build/out.js", "now a folder\n");
    await fs.rm(sandbox.file("src"), { recursive: true });
    await write("src", "now a file\n");
    await checkpoints.take();

    await checkpoints.restore(before);
    assert.equal(await read("build"), "a file\n");
    assert.equal(await read("src/a.ts"), "export const a = 1;\n");
  });

  it("undoes a restore by restoring the checkpoint taken just before it", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    await write("src/a.ts", "turn's version\n");
    await write("made-by-turn.txt", "x\n");
    const { before: beforeRestore } = await checkpoints.restore(before);
    assert.equal(await exists("made-by-turn.txt"), false);

    await checkpoints.restore(beforeRestore);
    assert.equal(await read("src/a.ts"), "turn's version\n");
    assert.equal(await read("made-by-turn.txt"), "x\n");
  });

  it("captures what a command run in the folder changed", async () => {
    const checkpoints = new WorkspaceCheckpoints([new FolderCheckpoints(sandbox.storage, sandbox.workspace)]);
    const before = await checkpoints.take();
    const result = await runCommandLine({ cwd: sandbox.workspace, timeoutMs: 10_000, maxOutputChars: 10_000, commandLine: "echo generated > out.txt && mkdir -p build2 && echo x > build2/y.txt" });
    assert.equal(result.exitCode, 0);
    const after = await checkpoints.take();
    assert.deepEqual((await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`).sort(), ["added build2/y.txt", "added out.txt"]);

    await checkpoints.restore(before);
    assert.equal(await exists("out.txt"), false);
    assert.equal(await exists("build2"), false);
  });

  it("neither saves nor restores what .gitignore or files.exclude leave out", async () => {
    await write(".gitignore", "node_modules/\n*.log\n");
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace, { excludes: () => ["**/dist", "**/*.{tmp,bak}"] });
    const before = await checkpoints.take();
    await write("node_modules/dep/index.js", "x\n");
    await write("debug.log", "log\n");
    await write("dist/bundle.js", "bundle\n");
    await write("notes.tmp", "tmp\n");
    await write("old.bak", "bak\n");
    await write("kept.txt", "kept\n");
    const after = await checkpoints.take();
    assert.deepEqual((await checkpoints.diff(before, after)).map((change) => change.path), ["kept.txt"]);

    await checkpoints.restore(before);
    assert.equal(await exists("kept.txt"), false);
    for (const ignored of ["node_modules/dep/index.js", "debug.log", "dist/bundle.js", "notes.tmp", "old.bak"]) assert.equal(await exists(ignored), true, ignored);
  });

  it("leaves the folder's own git repository byte for byte as it was, and keeps its files out of checkpoints", async () => {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: sandbox.workspace, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    git("init", "--quiet");
    git("add", "README.md");
    git("commit", "--quiet", "-m", "user's commit");
    await write("staged.txt", "staged\n");
    git("add", "staged.txt");
    const userGit = await snapshotFolder(path.join(sandbox.workspace, ".git"));

    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    await write("src/a.ts", "changed\n");
    await write("another.txt", "y\n");
    const after = await checkpoints.take();
    const changes = await checkpoints.diff(before, after);
    await checkpoints.restore(before);

    assert.ok(changes.every((change) => !change.path.startsWith(".git/")));
    assert.equal(await checkpoints.fileAt(before, ".git/HEAD"), null, "the user's .git is not in the checkpoint");
    assert.deepEqual(await snapshotFolder(path.join(sandbox.workspace, ".git")), userGit);
    assert.ok(!checkpoints.gitDir.startsWith(sandbox.workspace), "the shadow repository is outside the workspace");
  });

  it("saves the unsaved text of open files (edits applied in the editor), not what is on disk", async () => {
    await write(".gitignore", "ignored.txt\n");
    await write("ignored.txt", "on disk\n");
    const unsaved = new Map<string, string>();
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace, { unsavedFiles: () => unsaved });
    const before = await checkpoints.take();
    unsaved.set("src/a.ts", "edited in the editor\n");
    unsaved.set("ignored.txt", "edited too\n");
    const after = await checkpoints.take();
    assert.deepEqual((await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`), ["modified src/a.ts"]);
    assert.equal((await checkpoints.fileAt(after, "src/a.ts"))?.toString(), "edited in the editor\n");
    assert.equal(await read("src/a.ts"), "export const a = 1;\n", "the file on disk is not touched");
  });

  (process.platform === "linux" ? it : it.skip)("takes checkpoints beside a file whose name is not UTF-8 (which it cannot save) and one named .GIT (which git would not write back)", async () => {
    await fs.writeFile(Buffer.concat([Buffer.from(sandbox.workspace + "/bad-"), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]), "bytes\n");
    await write(".GIT/config", "not a repository\n");
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    await write("src/a.ts", "changed\n");
    await fs.rm(sandbox.file(".GIT"), { recursive: true });
    const after = await checkpoints.take();
    assert.deepEqual((await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`), ["modified src/a.ts"]);
    await checkpoints.restore(before);
    assert.equal(await read("src/a.ts"), "export const a = 1;\n");
  });

  it("makes the next checkpoint the same id when nothing changed", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const first = await checkpoints.take();
    assert.equal(await checkpoints.take(), first);
    assert.deepEqual(await checkpoints.diff(first, first), []);
  });

  it("says git is missing when there is no git binary, so the editor can turn checkpoints off with a notice", async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(sandbox.root, "no-binaries-here");
    try {
      assert.equal(await gitVersion(), null);
      await assert.rejects(new FolderCheckpoints(sandbox.storage, sandbox.workspace).take(), GitMissingError);
    } finally {
      process.env.PATH = savedPath;
    }
    assert.match((await gitVersion()) ?? "", /^git version/);
  });
});

async function snapshotFolder(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    files.set(path.relative(folder, file), (await fs.readFile(file)).toString("base64"));
  }
  return files;
}
