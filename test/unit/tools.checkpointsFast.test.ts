import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { helperUsable } from "../../src/tools/checkpointHelper";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";
import { useCheckpointSandbox, useCountedGit } from "../fixtures/checkpoints/checkpointSandbox";

// Checkpoints are taken without git and keep the stat data of every file they saved, so a file is read again
// only when its stat data says it may have changed. These tests hold that this speed loses nothing: changes a
// stat check could miss (same size, same second, old time put back) are caught, deleted and renamed files are
// saved and restored, and the commits written without `git commit-tree` are ones git itself reads and
// verifies. Real git, real temp folders; git is counted through a logging wrapper.

const posixOnly = process.platform === "win32" ? describe.skip : describe;

describe("tools: fast checkpoints stay exact", () => {
  const sandbox = useCheckpointSandbox("checkpoints-fast");
  const { file, exists } = sandbox;

  it("catches a file rewritten with the same size within the same second, again and again (racy git)", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const taken: string[] = [];
    // Each rewrite keeps the size and lands in the second the index was just written in.
    for (const digit of ["1", "2", "3", "4"]) {
      await fs.writeFile(file("src/a.ts"), `export const a = ${digit};\n`);
      taken.push(await checkpoints.take());
    }
    assert.equal(new Set(taken).size, taken.length, "every rewrite made a new checkpoint");
    for (const [index, commit] of taken.entries()) assert.equal((await checkpoints.fileAt(commit, "src/a.ts"))?.toString(), `export const a = ${index + 1};\n`);
  });

  it("catches a same-size rewrite whose old modification time was put back (as some tools do), by its change time", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file("src/a.ts"), old, old);
    const before = await checkpoints.take();
    // git compares change times to the second: within the second of the last change it cannot tell (a known
    // limit of git's stat check, the same with `git status`), a second later it must.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await fs.writeFile(file("src/a.ts"), "export const a = 9;\n");
    await fs.utimes(file("src/a.ts"), old, old);
    const after = await checkpoints.take();
    assert.deepEqual((await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`), ["modified src/a.ts"]);
    assert.equal((await checkpoints.fileAt(after, "src/a.ts"))?.toString(), "export const a = 9;\n");
  });

  it("saves a file deleted and one renamed between checkpoints, and restores both", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    await fs.rm(file("README.md"));
    await fs.mkdir(file("lib"));
    await fs.rename(file("src/a.ts"), file("lib/a.ts"));
    const after = await checkpoints.take();
    assert.deepEqual(
      (await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`).sort(),
      ["added lib/a.ts", "deleted README.md", "deleted src/a.ts"],
    );

    await checkpoints.restore(before);
    assert.equal(await fs.readFile(file("src/a.ts"), "utf8"), "export const a = 1;\n");
    assert.equal(await fs.readFile(file("README.md"), "utf8"), "# readme\n");
    assert.equal(await exists("lib"), false, "the renamed file and the folder it went to are gone");
    await checkpoints.restore(after);
    assert.equal(await fs.readFile(file("lib/a.ts"), "utf8"), "export const a = 1;\n");
    assert.equal(await exists("src/a.ts"), false);
  });

  it("writes checkpoint commits that git reads and verifies, on one branch in order, shared by a new window", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const first = await checkpoints.take();
    await fs.writeFile(file("b.txt"), "b\n");
    const second = await checkpoints.take();
    // Another window (a new store on the same shadow repository) continues the same branch.
    const otherWindow = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await fs.writeFile(file("c.txt"), "c\n");
    const third = await otherWindow.take();
    await fs.writeFile(file("d.txt"), "d\n");
    const fourth = await checkpoints.take();

    const git = (...args: string[]) => execFileSync("git", args, { env: { ...process.env, GIT_DIR: checkpoints.gitDir }, encoding: "utf8" }).trim();
    assert.equal(git("rev-list", "refs/heads/checkpoints"), [fourth, third, second, first].join("\n"));
    execFileSync("git", ["fsck", "--strict", "--no-dangling"], { env: { ...process.env, GIT_DIR: checkpoints.gitDir }, stdio: "pipe" });
    assert.equal(git("show", `${fourth}:c.txt`), "c");
    assert.equal(git("log", "-1", "--format=%an <%ae> %s", fourth), "Relay Chat <checkpoints@relay-chat.invalid> Relay Chat checkpoint");
  });

  it("continues the branch after git packed its ref, and after the ref file was damaged", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const first = await checkpoints.take();
    execFileSync("git", ["pack-refs", "--all"], { env: { ...process.env, GIT_DIR: checkpoints.gitDir } });
    await fs.writeFile(file("b.txt"), "b\n");
    const second = await checkpoints.take();
    const git = (...args: string[]) => execFileSync("git", args, { env: { ...process.env, GIT_DIR: checkpoints.gitDir }, encoding: "utf8" }).trim();
    assert.equal(git("rev-list", "refs/heads/checkpoints"), [second, first].join("\n"));

    await fs.writeFile(path.join(checkpoints.gitDir, "refs", "heads", "checkpoints"), "not an id\n");
    await fs.writeFile(file("c.txt"), "c\n");
    const third = await checkpoints.take();
    assert.equal(git("rev-parse", "refs/heads/checkpoints"), third);
    assert.equal((await checkpoints.fileAt(third, "c.txt"))?.toString(), "c\n");
    assert.equal((await checkpoints.fileAt(second, "b.txt"))?.toString(), "b\n", "earlier checkpoints stay readable");
  });

  it("initializes again a shadow repository whose git init was stopped before it made the object folders", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await fs.mkdir(checkpoints.gitDir, { recursive: true });
    await fs.writeFile(path.join(checkpoints.gitDir, "HEAD"), "ref: refs/heads/master\n");
    const commit = await checkpoints.take();
    assert.equal((await checkpoints.fileAt(commit, "README.md"))?.toString(), "# readme\n");
  });

  /** 2,500 files in 10 folders and their first checkpoint, after which the helper thread is ready. */
  async function manyFilesTaken(): Promise<{ checkpoints: FolderCheckpoints; first: string }> {
    for (let index = 0; index < 2500; index += 1) await sandbox.write(`many/d${index % 10}/f${String(index).padStart(4, "0")}.txt`, `${index}\n`);
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const first = await checkpoints.take();
    // The first list of many files starts the helper thread; it is ready well before the next checkpoint.
    for (let waited = 0; !helperUsable() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(helperUsable());
    return { checkpoints, first };
  }

  it("takes the stat data of many files on two threads, and catches every change on either's half", async () => {
    const { checkpoints, first: before } = await manyFilesTaken();
    // One in each folder: each thread takes the files of about half of the folders.
    const paths = Array.from({ length: 10 }, (_, folder) => `many/d${folder}/f${String(folder + 10).padStart(4, "0")}.txt`);
    for (const relative of paths) await sandbox.write(relative, "changed\n");
    await fs.rm(file("many/d3/f2493.txt"));
    await fs.rm(file("many/d4/f2494.txt"));
    await fs.mkdir(file("many/d4/f2494.txt"));
    await sandbox.write("many/d4/f2494.txt/inside.txt", "now a folder\n");
    await fs.chmod(file("many/d7/f2497.txt"), 0o600);
    // A first checkpoint of the same files in another shadow repository, now read on both threads, each streaming
    // its half to a git of its own: the same tree as if read on one.
    const again = new FolderCheckpoints(path.join(sandbox.root, "other-storage"), sandbox.workspace);
    const fresh = await again.take();
    const after = await checkpoints.take();
    const treeOf = (gitDir: string, commit: string) => execFileSync("git", ["rev-parse", `${commit}^{tree}`], { env: { ...process.env, GIT_DIR: gitDir }, encoding: "utf8" }).trim();
    assert.equal(treeOf(again.gitDir, fresh), treeOf(checkpoints.gitDir, after));
    assert.equal(execFileSync("sh", ["-c", `ls '${path.join(again.gitDir, "objects", "pack")}'/*.pack | wc -l`], { encoding: "utf8" }).trim(), "3", "two imported packs (one per thread) and the trees'");
    assert.deepEqual(
      (await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`).sort(),
      [...paths.map((relative) => `modified ${relative}`), "added many/d4/f2494.txt/inside.txt", "deleted many/d3/f2493.txt", "deleted many/d4/f2494.txt", ...(process.platform === "win32" ? [] : ["modified many/d7/f2497.txt"])].sort(),
    );
  });

  it("catches every change through the list of many files the helper thread keeps, and takes a new list when files come and go", async () => {
    const { checkpoints, first } = await manyFilesTaken();
    // Sent to the helper with this checkpoint; the next ones find the same files and send only its number.
    assert.equal(await checkpoints.take(), first);
    const changes = async (from: string, to: string) => (await checkpoints.diff(from, to)).map((change) => `${change.kind} ${change.path}`).sort();

    // The folders keep their names: a same-size rewrite with its old times put back, a file that became a folder
    // or a link under the same name, new permissions, in folders the two threads take from both ends of the list.
    const rewritten = ["many/d0/f0010.txt", "many/d5/f1255.txt", "many/d9/f2499.txt"];
    for (const relative of rewritten) {
      const before = await fs.stat(file(relative));
      await sandbox.write(relative, (await fs.readFile(file(relative), "utf8")).replace(/\d/, "x"));
      await fs.utimes(file(relative), before.atime, before.mtime);
    }
    await fs.rm(file("many/d3/f1203.txt"));
    await fs.mkdir(file("many/d3/f1203.txt"));
    await sandbox.write("many/d3/f1203.txt/inside.txt", "now a folder\n");
    await fs.rm(file("many/d8/f2498.txt"));
    await fs.symlink("f0008.txt", file("many/d8/f2498.txt"));
    if (process.platform !== "win32") await fs.chmod(file("many/d1/f0001.txt"), 0o600);
    const second = await checkpoints.take();
    assert.deepEqual(await changes(first, second), [
      ...rewritten.map((relative) => `modified ${relative}`),
      "added many/d3/f1203.txt/inside.txt",
      "deleted many/d3/f1203.txt",
      "modified many/d8/f2498.txt",
      ...(process.platform === "win32" ? [] : ["modified many/d1/f0001.txt"]),
    ].sort());
    assert.equal((await checkpoints.fileAt(second, "many/d9/f2499.txt"))?.toString(), "x499\n");

    // Files added and removed: a new list, whose stat data lines up with the files (a stale list's would not).
    await sandbox.write("many/d2/new.txt", "new\n");
    await fs.rm(file("many/d6/f0006.txt"));
    await sandbox.write("many/d7/f0007.txt", "7 changed\n");
    const third = await checkpoints.take();
    assert.deepEqual(await changes(second, third), ["added many/d2/new.txt", "deleted many/d6/f0006.txt", "modified many/d7/f0007.txt"]);
    await sandbox.write("many/d4/f2494.txt", "changed again\n");
    const fourth = await checkpoints.take();
    assert.deepEqual(await changes(third, fourth), ["modified many/d4/f2494.txt"]);
  });

  it("lets a process that took checkpoints with the helper thread exit on its own", () => {
    // A window's process, or the CLI's, must not be kept alive by the helper thread, used or not.
    const fixture = path.join(__dirname, "..", "fixtures", "checkpoints", "takeMany.ts");
    const script = `for (let i = 0; i < 2500; i += 1) require("fs").writeFileSync(require("path").join(${JSON.stringify(sandbox.workspace)}, "f" + i + ".txt"), String(i));`;
    execFileSync(process.execPath, ["-e", script]);
    const run = spawnSync(process.execPath, ["--require", "tsx/cjs", fixture, "take", sandbox.storage, sandbox.workspace, "one", "1"], { cwd: path.join(__dirname, "..", ".."), encoding: "utf8", timeout: 60_000 });
    assert.equal(run.signal, null, "the process ended by itself, not by the timeout");
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split("\n").length, 1);
  });

  posixOnly("with git counted", () => {
    const git = useCountedGit(sandbox);

    it("starts no git for a checkpoint, whether files changed or not: git only creates the repository and stores large files", async () => {
      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      await checkpoints.take();
      assert.deepEqual(await git.commands(), ["init"]);
      await fs.writeFile(file("src/a.ts"), "export const a = 2;\n");
      await fs.writeFile(file("new.txt"), "new\n");
      await checkpoints.take();
      assert.deepEqual(await git.commands(), []);
      await checkpoints.take();
      assert.deepEqual(await git.commands(), []);
      // A new window on the existing shadow repository does not initialize it again.
      await new FolderCheckpoints(sandbox.storage, sandbox.workspace).take();
      assert.deepEqual(await git.commands(), []);
      // A file of 8 MB or more is streamed into the repository by git rather than read whole here.
      const large = await fs.open(file("large.bin"), "w");
      await large.truncate(8 * 1024 * 1024);
      await large.write("end", 8 * 1024 * 1024 - 3);
      await large.close();
      const commit = await checkpoints.take();
      assert.deepEqual(await git.commands(), ["hash-object"]);
      assert.equal((await checkpoints.fileAt(commit, "large.bin"))?.subarray(-3).toString(), "end");
    });

    it("streams many files at once to git fast-import, with glibc kept from returning memory between them (40,000 brk calls otherwise)", async () => {
      for (let index = 0; index < 300; index += 1) await sandbox.write(`many/f${index}.txt`, `${index}\n`);
      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      const commit = await checkpoints.take();
      const runs = await git.runs();
      assert.deepEqual(runs.map((line) => line.split(" ")[0]), ["init", "fast-import"]);
      assert.equal(runs[1].split(" ")[1], String(64 * 1024 * 1024));
      assert.equal((await checkpoints.fileAt(commit, "many/f299.txt"))?.toString(), "299\n");
    });
  });
});
