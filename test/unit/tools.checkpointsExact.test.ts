import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";
import { useCheckpointSandbox } from "../fixtures/checkpoints/checkpointSandbox";

// Restore gives back exactly what was there (issue 37, item 5): the bytes whatever the workspace's
// .gitattributes or the user's git files say, the permissions, files inside nested repositories and submodules,
// and files of any size. Real git, real temp folders, real permissions.

const posixOnly = process.platform === "win32" ? describe.skip : describe;

/** git for the test's own repositories (never the shadow one), with no user config. */
function userGit(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const name of Object.keys(env)) if (/^GIT_(DIR|WORK_TREE|INDEX_FILE)$/.test(name)) delete env[name];
  return execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("tools: Restore gives back exactly what was there", function () {
  this.timeout(120_000);
  const sandbox = useCheckpointSandbox("checkpoints-exact");
  const { write, file } = sandbox;
  const bytes = (relative: string) => fs.readFile(file(relative));

  /** Takes a checkpoint, lets `turn` change the folder, restores, and returns the checkpoint. */
  async function restoreAfter(turn: () => Promise<void>, checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace)): Promise<string> {
    const before = await checkpoints.take();
    await turn();
    await checkpoints.restore(before);
    return before;
  }

  it("writes back the bytes that were saved whatever the workspace's .gitattributes say (eol, ident, filters)", async () => {
    await write(".gitattributes", "* text eol=crlf\n*.c ident\n*.secret filter=scramble\nwin.txt eol=lf\n");
    await write("lf.txt", "one\ntwo\n");
    await write("win.txt", "one\r\ntwo\r\n");
    await write("mixed.txt", "one\r\ntwo\n");
    await write("id.c", "/* $Id$ */\n/* $Id: kept as written $ */\n");
    await write("data.secret", "plain\n");
    const saved = new Map<string, Buffer>();
    for (const name of ["lf.txt", "win.txt", "mixed.txt", "id.c", "data.secret"]) saved.set(name, await bytes(name));
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await restoreAfter(async () => {
      for (const name of saved.keys()) await write(name, "changed by the turn\n");
    }, checkpoints);
    for (const [name, content] of saved) {
      assert.deepEqual(await bytes(name), content, `${name} comes back byte for byte`);
      assert.deepEqual(await checkpoints.fileAt(before, name), content, `${name} is shown as it was`);
    }
  });

  posixOnly("with the user's own git files", () => {
    let home: string;
    const saved: Record<string, string | undefined> = {};

    beforeEach(async () => {
      home = path.join(sandbox.root, "home");
      await fs.mkdir(path.join(home, ".config", "git"), { recursive: true });
      // A user's global config, attributes and ignore file: git reads the last two even without the first.
      await fs.writeFile(path.join(home, ".gitconfig"), "[core]\n\tautocrlf = true\n\tbigFileThreshold = 1k\n[filter \"upper\"]\n\tclean = tr a-z A-Z\n\tsmudge = tr a-z A-Z\n");
      await fs.writeFile(path.join(home, ".config", "git", "attributes"), "* text eol=crlf filter=upper\n");
      await fs.writeFile(path.join(home, ".config", "git", "ignore"), "*.log\n");
      for (const name of ["HOME", "XDG_CONFIG_HOME"]) saved[name] = process.env[name];
      process.env.HOME = home;
      process.env.XDG_CONFIG_HOME = path.join(home, ".config");
    });

    afterEach(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it("ignores the user's global git config, attributes and ignore file", async () => {
      await write("notes.txt", "lower case\nlines\n");
      await write("build.log", "a log the person keeps\n");
      const notes = await bytes("notes.txt");
      await restoreAfter(async () => {
        await write("notes.txt", "changed\n");
        await fs.rm(file("build.log"));
      });
      assert.deepEqual(await bytes("notes.txt"), notes);
      assert.equal(await fs.readFile(file("build.log"), "utf8"), "a log the person keeps\n", "a file only the user's global ignore file names is saved and restored");
    });
  });

  posixOnly("permissions", () => {
    const mode = async (relative: string) => (await fs.stat(file(relative))).mode & 0o7777;

    it("puts back permissions git does not keep: a 0600 file edited, deleted, or made readable by others", async () => {
      await write("edited.key", "secret 1\n");
      await write("deleted.key", "secret 2\n");
      await write("opened.key", "secret 3\n");
      await write("script.sh", "#!/bin/sh\n");
      await write("private.sh", "#!/bin/sh\n");
      await write("group.txt", "shared\n");
      for (const [name, perm] of [["edited.key", 0o600], ["deleted.key", 0o600], ["opened.key", 0o600], ["script.sh", 0o755], ["private.sh", 0o700], ["group.txt", 0o664]] as const) await fs.chmod(file(name), perm);
      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      const before = await checkpoints.take();
      await write("edited.key", "changed\n");
      await fs.rm(file("deleted.key"));
      await fs.rm(file("private.sh"));
      await fs.chmod(file("opened.key"), 0o644);
      await fs.chmod(file("script.sh"), 0o644);
      const after = await checkpoints.take();
      assert.deepEqual(
        (await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`).sort(),
        ["deleted deleted.key", "deleted private.sh", "modified edited.key", "modified opened.key", "modified script.sh"],
        "a change of permissions alone is a change",
      );

      const restored = await checkpoints.restore(before);
      assert.equal(restored.changes.length, 5);
      assert.equal(await mode("edited.key"), 0o600);
      assert.equal(await mode("deleted.key"), 0o600);
      assert.equal(await mode("opened.key"), 0o600);
      assert.equal(await mode("script.sh"), 0o755);
      assert.equal(await mode("private.sh"), 0o700);
      assert.equal(await mode("group.txt"), 0o664, "left alone");
      assert.equal(await fs.readFile(file("deleted.key"), "utf8"), "secret 2\n");
      assert.deepEqual(await checkpoints.diff(before, await checkpoints.take()), [], "nothing differs from the checkpoint after the restore");

      // And Undo restore puts the turn's permissions back.
      await checkpoints.restore(after);
      assert.equal(await mode("opened.key"), 0o644);
      assert.equal(await mode("script.sh"), 0o644);
    });
  });

  posixOnly("symbolic links", () => {
    it("puts back a link as a link to the same target, whether the turn retargeted it, replaced it by a file or deleted it", async () => {
      await write("target.txt", "target\n");
      await fs.symlink("target.txt", file("retargeted"));
      await fs.symlink("target.txt", file("replaced"));
      await fs.symlink("../outside/missing", file("dangling"));
      await restoreAfter(async () => {
        await fs.rm(file("retargeted"));
        await fs.symlink("elsewhere", file("retargeted"));
        await fs.rm(file("replaced"));
        await write("replaced", "now a file\n");
        await fs.rm(file("dangling"));
      });
      for (const [name, target] of [["retargeted", "target.txt"], ["replaced", "target.txt"], ["dangling", "../outside/missing"]]) {
        assert.ok((await fs.lstat(file(name))).isSymbolicLink(), `${name} is a link again`);
        assert.equal(await fs.readlink(file(name)), target);
      }
    });
  });

  describe("nested repositories", () => {
    it("saves and restores the files of a nested clone as files, with and without a commit, and leaves their .git alone", async () => {
      await write("clone/a.txt", "clone's file\n");
      userGit(file("clone"), "init", "--quiet");
      userGit(file("clone"), "add", "a.txt");
      userGit(file("clone"), "commit", "--quiet", "-m", "nested commit");
      await write("fresh/b.txt", "in a repository with no commit\n");
      userGit(file("fresh"), "init", "--quiet");
      const cloneHead = userGit(file("clone"), "rev-parse", "HEAD");

      const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
      const before = await checkpoints.take();
      await write("clone/a.txt", "edited by the turn\n");
      await write("clone/new.txt", "added by the turn\n");
      await write("fresh/b.txt", "edited too\n");
      const after = await checkpoints.take();
      assert.deepEqual(
        (await checkpoints.diff(before, after)).map((change) => `${change.kind} ${change.path}`).sort(),
        ["added clone/new.txt", "modified clone/a.txt", "modified fresh/b.txt"],
      );
      assert.equal(await checkpoints.fileAt(before, "clone/.git/HEAD"), null, "a nested .git is not saved");

      await checkpoints.restore(before);
      assert.equal(await fs.readFile(file("clone/a.txt"), "utf8"), "clone's file\n");
      assert.equal(await fs.readFile(file("fresh/b.txt"), "utf8"), "in a repository with no commit\n");
      await assert.rejects(fs.access(file("clone/new.txt")));
      assert.equal(userGit(file("clone"), "rev-parse", "HEAD"), cloneHead, "the nested repository itself is as it was");
      assert.equal(userGit(file("clone"), "status", "--porcelain"), "");
    });

    it("saves and restores the files of a submodule (a .git file pointing into the parent's repository)", async () => {
      const upstream = path.join(sandbox.root, "upstream");
      await fs.mkdir(upstream);
      await fs.writeFile(path.join(upstream, "lib.c"), "int lib;\n");
      userGit(upstream, "init", "--quiet");
      userGit(upstream, "add", "lib.c");
      userGit(upstream, "commit", "--quiet", "-m", "lib");
      userGit(sandbox.workspace, "init", "--quiet");
      userGit(sandbox.workspace, "-c", "protocol.file.allow=always", "submodule", "add", "--quiet", upstream, "vendor/lib");
      assert.match(await fs.readFile(file("vendor/lib/.git"), "utf8"), /^gitdir: /);

      await restoreAfter(async () => {
        await write("vendor/lib/lib.c", "int changed;\n");
        await write("vendor/lib/extra.c", "int extra;\n");
      });
      assert.equal(await fs.readFile(file("vendor/lib/lib.c"), "utf8"), "int lib;\n");
      await assert.rejects(fs.access(file("vendor/lib/extra.c")));
      assert.equal(userGit(file("vendor/lib"), "status", "--porcelain"), "");
    });
  });

  it("shows a file over 256 MB as it was (git's output is streamed, not held to a limit)", async () => {
    const size = 300 * 1024 * 1024;
    const big = await fs.open(file("big.bin"), "w");
    // Sparse: no disk or time spent on the zeros; a mark at the start and the end to check.
    await big.truncate(size);
    await big.write("start", 0);
    await big.write("end", size - 3);
    await big.close();
    const checkpoints = new FolderCheckpoints(sandbox.storage, sandbox.workspace);
    const before = await checkpoints.take();
    const shown = await checkpoints.fileAt(before, "big.bin");
    assert.equal(shown?.length, size);
    assert.equal(shown?.subarray(0, 5).toString(), "start");
    assert.equal(shown?.subarray(size - 3).toString(), "end");
    assert.equal(await checkpoints.fileSizeAt(before, "big.bin"), size);
  });
});
