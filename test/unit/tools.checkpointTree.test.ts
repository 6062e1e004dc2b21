import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { crc32, writePack } from "../../src/tools/checkpointPack";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";
import { shadowGit, useCheckpointSandbox } from "../fixtures/checkpoints/checkpointSandbox";

// Checkpoints build their trees without git (checkpointTree), only for the folders that changed. These tests
// hold that every tree is the one git itself makes of the same workspace (`git add --all` and `git write-tree`
// in a separate repository): names git sorts in its own way, modes, symbolic links, folders that appear, vanish
// or turn into files, many rounds of random changes; that git's fsck accepts them; and that the picture a
// window keeps between checkpoints (checkpointRecord), old or damaged, never makes a tree wrong.

function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

describe("tools: checkpoint trees written without git", () => {
  const sandbox = useCheckpointSandbox("checkpoint-tree");
  const { write, file } = sandbox;

  /**
   * The tree git itself makes of the workspace now: `git add --all` into a fresh index of a separate repository,
   * then `git write-tree` (with no user config, and no attributes that would change what it stores).
   */
  async function gitsTree(): Promise<string> {
    const oracle = path.join(sandbox.root, "oracle.git");
    const index = path.join(sandbox.root, "oracle-index");
    await fs.rm(index, { force: true });
    const env = { GIT_DIR: oracle, GIT_WORK_TREE: sandbox.workspace, GIT_INDEX_FILE: index, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
    if (!(await fs.access(oracle).then(() => true, () => false))) {
      shadowGit(oracle, ["init", "--quiet", "--bare", oracle]);
      await fs.writeFile(path.join(oracle, "info", "attributes"), "* -text -ident -filter\n");
    }
    execFileSync("git", ["add", "--all"], { cwd: sandbox.workspace, env: { ...process.env, ...env }, stdio: "ignore" });
    return shadowGit(oracle, ["write-tree"], env);
  }

  async function takeAndCompare(checkpoints: FolderCheckpoints, step: string): Promise<string> {
    const commit = await checkpoints.take();
    assert.equal(shadowGit(checkpoints.gitDir, ["rev-parse", `${commit}^{tree}`]), await gitsTree(), `tree after ${step}`);
    return commit;
  }

  it("writes the tree git would, through names git sorts specially, modes, and folders that come, go and become files", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await write("a/x.ts", "x\n");
    await write("a.b", "dot\n");
    await write("a-b/y.ts", "dash\n");
    await write("a0", "zero\n");
    const first = await takeAndCompare(checkpoints, "the first checkpoint");

    const steps: [string, () => Promise<void>][] = [
      ["a change in one folder", () => write("a/x.ts", "x2\n")],
      ["a new nested folder", () => write("a/deep/er/z.ts", "z\n")],
      ["names with spaces and non-ASCII", () => write("ünï cödé/fïlé ñ.txt", "u\n")],
      ["an executable file", async () => {
        await write("run.sh", "#!/bin/sh\n");
        await fs.chmod(file("run.sh"), 0o755);
      }],
      ["a symbolic link", () => fs.symlink("a.b", file("link-to-a.b"))],
      ["a folder removed", () => fs.rm(file("a/deep"), { recursive: true })],
      ["a folder turned into a file", async () => {
        await fs.rm(file("a-b"), { recursive: true });
        await write("a-b", "now a file\n");
      }],
      ["a file turned into a folder", async () => {
        await fs.rm(file("a0"));
        await write("a0/inside.ts", "inside\n");
      }],
      ["two folders with the same files (one tree)", async () => {
        await write("twin1/same.ts", "same\n");
        await write("twin2/same.ts", "same\n");
      }],
      ["nothing", async () => undefined],
      ["every file of a folder deleted", () => fs.rm(file("src/a.ts"))],
    ];
    const commits = [first];
    for (const [step, change] of steps) {
      await change();
      commits.push(await takeAndCompare(checkpoints, step));
    }
    assert.equal(commits.at(-2), commits.at(-3), "a checkpoint with nothing changed is the one before");
    shadowGit(checkpoints.gitDir, ["fsck", "--strict", "--no-dangling"]);
    // Restoring through these trees brings the first state back exactly.
    await checkpoints.restore(first);
    assert.equal(await fs.readFile(file("a-b/y.ts"), "utf8"), "dash\n");
    assert.equal(await fs.readFile(file("a0"), "utf8"), "zero\n");
    assert.equal(await fs.readFile(file("src/a.ts"), "utf8"), "export const a = 1;\n");
  });

  it("writes the tree git would after many rounds of random changes across folders", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    // A fixed sequence (a linear congruential generator), so a failure can be replayed.
    let seed = 12345;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    for (let folder = 0; folder < 12; folder += 1) for (let name = 0; name < 6; name += 1) await write(`f${folder}/s${folder % 3}/n${name}.ts`, `${folder} ${name}\n`);
    await takeAndCompare(checkpoints, "the first checkpoint");
    for (let round = 0; round < 25; round += 1) {
      for (let change = 0; change < 1 + random(6); change += 1) {
        const relative = `f${random(14)}/s${random(4)}/n${random(8)}.ts`;
        if (random(4) === 0) await fs.rm(file(relative), { force: true });
        else await write(relative, `round ${round} ${change}\n`);
      }
      await takeAndCompare(checkpoints, `round ${round}`);
    }
    shadowGit(checkpoints.gitDir, ["fsck", "--strict", "--no-dangling"]);
  });

  it("writes packs git verifies and reads: objects of every size class, CRCs and offsets in its index", async () => {
    const gitDir = path.join(sandbox.root, "packs.git");
    shadowGit(gitDir, ["init", "--quiet", "--bare", gitDir]);
    const sizes = [0, 1, 15, 16, 127, 128, 2047, 2048, 70_000];
    const objects = sizes.map((size, index) => {
      const content = Buffer.alloc(size, 97 + index);
      return { id: blobId(content), type: "blob" as const, content };
    });
    const name = writePack(gitDir, objects);
    const verified = shadowGit(gitDir, ["verify-pack", "-v", path.join(gitDir, "objects", "pack", `${name}.idx`)]);
    for (const object of objects) {
      assert.match(verified, new RegExp(`^${object.id} blob +${object.content.length} `, "m"));
      assert.equal(shadowGit(gitDir, ["cat-file", "-s", object.id]), String(object.content.length));
    }
    assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926, "the CRC-32 check value");
    // A write stopped between the pack and its index: the same objects again complete it.
    await fs.rm(path.join(gitDir, "objects", "pack", `${name}.idx`), { force: true });
    assert.equal(writePack(gitDir, objects), name);
    shadowGit(gitDir, ["verify-pack", path.join(gitDir, "objects", "pack", `${name}.idx`)]);
  });

  it("stores many files at once through git fast-import, with the tree git makes: links, empty, executable and larger files", async () => {
    for (let index = 0; index < 300; index += 1) await write(`many/d${index % 7}/f${index}.ts`, `file ${index}\n`.repeat(index % 50));
    await write("many/big.txt", "0123456789abcdef".repeat(40_000));
    await write("many/empty", "");
    await write("many/run.sh", "#!/bin/sh\n");
    await fs.chmod(file("many/run.sh"), 0o755);
    await fs.symlink("d1/f1.ts", file("many/link"));
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const first = await takeAndCompare(checkpoints, "a first checkpoint of 300 files");
    assert.equal((await checkpoints.fileAt(first, "many/big.txt"))?.length, 640_000);
    await write("many/d3/f3.ts", "changed\n");
    await takeAndCompare(checkpoints, "one file changed after");
    shadowGit(checkpoints.gitDir, ["fsck", "--strict", "--no-dangling"]);
  });

  it("builds the trees again when more folders changed at once than a checkpoint usually sees", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await takeAndCompare(checkpoints, "the first checkpoint");
    for (let folder = 0; folder < 70; folder += 1) await write(`many/f${folder}/x.ts`, `${folder}\n`);
    await takeAndCompare(checkpoints, "70 new folders");
    await write("many/f3/x.ts", "changed\n");
    await takeAndCompare(checkpoints, "one folder changed");
  });

  it("starts from the picture a window kept, even an old one, and from none when it is damaged", async () => {
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    await write("kept.ts", "1\n");
    await checkpoints.take();
    const picture = path.join(checkpoints.gitDir, "relay-chat-picture");
    const old = await fs.readFile(picture);
    await write("kept.ts", "2\n");
    await write("new/added.ts", "added\n");
    await fs.rm(file("README.md"));
    const current = await takeAndCompare(checkpoints, "changes after the picture was kept");

    // A new window that finds the older picture: what changed since is found by its stat data all the same.
    await fs.writeFile(picture, old);
    assert.equal(await new FolderCheckpoints(sandbox.storage, sandbox.workspace).take(), current);
    await fs.writeFile(picture, old.subarray(0, Math.floor(old.length / 2)));
    assert.equal(await new FolderCheckpoints(sandbox.storage, sandbox.workspace).take(), current);
    await fs.writeFile(picture, "not a picture");
    await write("kept.ts", "3\n");
    await takeAndCompare(new FolderCheckpoints(sandbox.storage, sandbox.workspace), "a damaged picture");
  });
});
