import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";

// Checkpoints of one folder from several windows (separate Node processes, each with its own store, on the
// shared shadow repository), and a repository left locked by a killed git or a dead window: real git, real
// processes, real temp folders.

const posixOnly = process.platform === "win32" ? describe.skip : describe;
const fixture = path.join(__dirname, "..", "fixtures", "checkpoints", "takeMany.ts");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runFixture(args: string[], onLine?: (line: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--require", "tsx/cjs", fixture, ...args], { cwd: path.join(__dirname, "..", ".."), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      stdout += text;
      for (const line of text.split("\n").filter(Boolean)) onLine?.(line);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

posixOnly("tools: checkpoints shared by several windows", function () {
  this.timeout(180_000);
  let sandbox: string;
  let workspace: string;
  let storage: string;

  beforeEach(async () => {
    sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-checkpoint-lock-")));
    workspace = path.join(sandbox, "ws");
    storage = path.join(sandbox, "storage");
    await fs.mkdir(workspace);
    await fs.writeFile(path.join(workspace, "README.md"), "# readme\n");
  });

  afterEach(async () => {
    await fs.rm(sandbox, { recursive: true, force: true });
  });

  it("takes every checkpoint when three processes and this one take many at once, and each restores what its process saw", async () => {
    const count = 15;
    const names = ["one", "two", "three"];
    const here = new FolderCheckpoints(storage, workspace);
    const ours = (async () => {
      const taken: [string, number][] = [];
      for (let index = 0; index < count; index += 1) {
        await fs.writeFile(path.join(workspace, "here.txt"), `here ${index}\n`);
        taken.push([await here.take(), index]);
      }
      return taken;
    })();
    const runs = await Promise.all(names.map((name) => runFixture(["take", storage, workspace, name, String(count)])));
    const oursTaken = await ours;
    for (const [index, run] of runs.entries()) assert.equal(run.code, 0, `process ${names[index]} failed: ${run.stderr}`);
    const taken = runs.map((run) => run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as [string, number]));
    for (const list of taken) assert.equal(list.length, count, "every checkpoint of every process succeeded");
    assert.equal(oursTaken.length, count);

    // Each checkpoint holds its own process's file as that process wrote it just before taking it.
    for (const [index, list] of taken.entries()) {
      for (const [commit, value] of list) assert.equal((await here.fileAt(commit, `${names[index]}.txt`))?.toString(), `${names[index]} ${value}\n`);
    }
    // And restoring puts it back on disk.
    for (const [index, list] of taken.entries()) {
      const [commit, value] = list[Math.floor(count / 2)];
      await here.restore(commit);
      assert.equal(await fs.readFile(path.join(workspace, `${names[index]}.txt`), "utf8"), `${names[index]} ${value}\n`);
    }
    const [lastOfOurs, lastValue] = oursTaken[count - 1];
    await here.restore(lastOfOurs);
    assert.equal(await fs.readFile(path.join(workspace, "here.txt"), "utf8"), `here ${lastValue}\n`);
  });

  it("recovers from a git killed mid-checkpoint (index.lock left behind) and from a window that died holding the lock", async () => {
    const first = new FolderCheckpoints(storage, workspace);
    await first.take();
    // As a killed `git add` leaves it: an index.lock that no process will remove.
    await fs.writeFile(path.join(first.gitDir, "index.lock"), "");
    // And the lock of a window that was killed while it held it: its pid is dead.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    await fs.writeFile(path.join(first.gitDir, "relay-chat.lock"), JSON.stringify({ token: "dead-window", pid: Number(dead.stdout), host: os.hostname() }));

    await fs.writeFile(path.join(workspace, "after.txt"), "after the crash\n");
    const recovered: string[] = [];
    const next = new FolderCheckpoints(storage, workspace, { onRecovered: (files) => recovered.push(...files) });
    const commit = await next.take();
    assert.equal((await next.fileAt(commit, "after.txt"))?.toString(), "after the crash\n");
    assert.deepEqual(recovered, ["index.lock"]);
    await assert.rejects(fs.access(path.join(first.gitDir, "relay-chat.lock")), "the lock is released after the checkpoint");
  });

  it("recovers a real git killed while it held index.lock", async function () {
    for (let index = 0; index < 3000; index += 1) await fs.writeFile(path.join(workspace, `f${index}.txt`), `file ${index}\n`.repeat(50));
    const checkpoints = new FolderCheckpoints(storage, workspace);
    const gitDir = checkpoints.gitDir;
    spawnSync("git", ["init", "--quiet", "--bare", gitDir]);
    const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: workspace, GIT_INDEX_FILE: path.join(gitDir, "index") };
    const git = spawn("git", ["add", "--all"], { cwd: workspace, env, stdio: "ignore" });
    const lock = path.join(gitDir, "index.lock");
    const deadline = Date.now() + 30_000;
    while (!(await fs.access(lock).then(() => true, () => false)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    git.kill("SIGKILL");
    await new Promise((resolve) => git.on("close", resolve));
    if (!(await fs.access(lock).then(() => true, () => false))) this.skip(); // git finished before it could be killed

    const commit = await checkpoints.take();
    assert.equal((await checkpoints.fileAt(commit, "f2999.txt"))?.toString(), "file 2999\n".repeat(50));
  });

  it("waits for a live window that holds the lock (with git's index.lock in place) instead of stealing it", async () => {
    const checkpoints = new FolderCheckpoints(storage, workspace, { lock: { staleAfterMs: 30_000 } });
    await checkpoints.take();
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    let releasedAt = 0;
    const holder = runFixture(["hold", storage, workspace, "1500"], (line) => {
      if (line === "held") held();
      if (line.startsWith("released ")) releasedAt = Number(line.slice("released ".length));
    });
    await isHeld;
    await fs.writeFile(path.join(workspace, "while-held.txt"), "x\n");
    const commit = await checkpoints.take();
    const finishedAt = Date.now();
    const run = await holder;
    assert.equal(run.code, 0, `the holder's index.lock was taken from it: ${run.stderr}`);
    assert.ok(releasedAt > 0 && finishedAt >= releasedAt, "the checkpoint waited until the holder released the lock");
    assert.equal((await checkpoints.fileAt(commit, "while-held.txt"))?.toString(), "x\n");
  });
});
