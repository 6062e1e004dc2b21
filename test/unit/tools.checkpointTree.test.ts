import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { crc32, writePack } from "../../src/tools/checkpointPack";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";
import { shadowGit, useCheckpointSandbox, useCountedGit } from "../fixtures/checkpoints/checkpointSandbox";

// After the first checkpoint, the trees of the folders that changed are written from the shadow index
// without `git write-tree` (checkpointTree). These tests hold that every such tree is the one git makes of
// the same index (names git sorts in its own way, modes, folders that appear, vanish or turn into files),
// that git's fsck accepts them, and that git writes the tree when the index is one this code does not read.

const posixOnly = process.platform === "win32" ? describe.skip : describe;

function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

describe("tools: checkpoint trees written without git", () => {
  const sandbox = useCheckpointSandbox("checkpoint-tree");
  const { write, file } = sandbox;

  /** The tree git itself makes of the shadow index now (on a copy, so git's own cache-tree is left as it was). */
  async function gitsTree(checkpoints: FolderCheckpoints): Promise<string> {
    const copy = path.join(sandbox.root, "index-copy");
    await fs.copyFile(path.join(checkpoints.gitDir, "index"), copy);
    try {
      return shadowGit(checkpoints.gitDir, ["write-tree"], { GIT_INDEX_FILE: copy });
    } finally {
      await fs.rm(copy, { force: true });
    }
  }

  async function assertGitsTree(checkpoints: FolderCheckpoints, commit: string, step: string): Promise<void> {
    assert.equal(shadowGit(checkpoints.gitDir, ["rev-parse", `${commit}^{tree}`]), await gitsTree(checkpoints), `tree after ${step}`);
  }

  async function takeAndCompare(checkpoints: FolderCheckpoints, step: string): Promise<string> {
    const commit = await checkpoints.take();
    await assertGitsTree(checkpoints, commit, step);
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

  posixOnly("with git counted", () => {
    const git = useCountedGit(sandbox);

    it("lets git write the tree when more folders changed than are worth writing here, and after that writes them here again", async () => {
      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      await checkpoints.take();
      await git.commands();
      // Written a minute ago: files changed in the instant the index is written are checked again by the next
      // `git add` (racy git), which marks their folders changed again; that is not what this test is about.
      const minuteAgo = new Date(Date.now() - 60_000);
      for (let folder = 0; folder < 70; folder += 1) {
        await write(`many/f${folder}/x.ts`, `${folder}\n`);
        await fs.utimes(file(`many/f${folder}/x.ts`), minuteAgo, minuteAgo);
      }
      const many = await checkpoints.take();
      assert.deepEqual(await git.commands(), ["add", "write-tree"]);
      await assertGitsTree(checkpoints, many, "70 new folders");
      await write("many/f3/x.ts", "changed\n");
      await git.commands();
      const one = await checkpoints.take();
      assert.deepEqual(await git.commands(), ["add"]);
      await assertGitsTree(checkpoints, one, "one folder changed");
    });

    it("lets git write the tree of an index in a format this code does not read (version 4)", async () => {
      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      await checkpoints.take();
      shadowGit(checkpoints.gitDir, ["update-index", "--index-version", "4"], { GIT_WORK_TREE: sandbox.workspace, GIT_INDEX_FILE: path.join(checkpoints.gitDir, "index") });
      await git.commands();
      await write("src/a.ts", "export const a = 4;\n");
      const commit = await checkpoints.take();
      assert.deepEqual(await git.commands(), ["add", "write-tree"]);
      await assertGitsTree(checkpoints, commit, "an index of version 4");
      assert.equal((await checkpoints.fileAt(commit, "src/a.ts"))?.toString(), "export const a = 4;\n");
    });
  });
});
