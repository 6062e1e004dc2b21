import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import picomatch from "picomatch";
import { boundedGlobMatcher, expandBraces, MAX_GLOB_ALTERNATIVES } from "../../src/instructions/boundedGlob";
import { readFileInsideFolder } from "../../src/instructions/fileInsideFolder";
import { chooseRules } from "../../src/instructions/projectRules";
import { RULE_FILE_READ_LIMIT_BYTES, readRulesFolder } from "../../src/instructions/rulesOnDisk";

// Rules and prompt files are repository text: they stay inside the workspace folder (a link to /etc/passwd, a
// FIFO or a device is never read), a huge one costs only the bytes that are kept, and no applyTo glob can keep
// the editor busy. The panel reads through the same function for folders on disk (src/host/instructions/instructionFileReader.ts).

describe("Instructions: rules files stay inside the folder", function () {
  this.timeout(30_000);
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "relay-rules-safety-"));
    outside = await mkdtemp(join(tmpdir(), "relay-rules-outside-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  async function write(path: string, text: string): Promise<void> {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }

  it("skips links to files outside the folder (AGENTS.md -> passwd, copilot-instructions.md -> .bashrc) and says why", async () => {
    await writeFile(join(outside, "passwd"), "root:x:0:0:root:/root:/bin/bash");
    await writeFile(join(outside, ".bashrc"), "export SECRET_TOKEN=outside");
    await symlink(join(outside, "passwd"), join(root, "AGENTS.md"));
    await mkdir(join(root, ".github"), { recursive: true });
    await symlink(join(outside, ".bashrc"), join(root, ".github/copilot-instructions.md"));
    // A folder linked from inside leads outside too: a file found through it is refused the same way.
    await symlink(outside, join(root, "linked"));
    const skipped: string[] = [];
    const folder = await readRulesFolder(root, "app", (path, reason) => skipped.push(`${path}: ${reason}`));
    assert.deepEqual([...folder.files.keys()], []);
    assert.equal(skipped.length, 2, skipped.join("\n"));
    assert.match(skipped.join("\n"), /AGENTS\.md: .*outside the workspace/);
    for (const path of ["AGENTS.md", ".github/copilot-instructions.md", "linked/passwd"]) {
      const read = await readFileInsideFolder(root, path, RULE_FILE_READ_LIMIT_BYTES);
      assert.equal(read.ok, false, path);
    }
  });

  it("reads a link that stays inside the folder", async () => {
    await write("docs/rules.md", "Inside rule.");
    await symlink(join(root, "docs/rules.md"), join(root, "AGENTS.md"));
    const folder = await readRulesFolder(root, "app");
    assert.equal(folder.files.get("AGENTS.md"), "Inside rule.");
  });

  it("never reads a FIFO (which would wait for a writer for ever) and goes on with the other files", async function () {
    if (process.platform === "win32") this.skip();
    await write("AGENTS.md", "Root rule.");
    execFileSync("mkfifo", [join(root, "CLAUDE.md")]);
    const skipped: string[] = [];
    const folder = await readRulesFolder(root, "app", (path, reason) => skipped.push(`${path}: ${reason}`));
    assert.deepEqual([...folder.files.keys()], ["AGENTS.md"]);
    assert.match(skipped.join("\n"), /CLAUDE\.md: .*not a regular file/);
    // A link to a device outside is refused before anything is opened.
    await symlink("/dev/zero", join(root, ".cursorrules"));
    assert.equal((await readFileInsideFolder(root, ".cursorrules", 16)).ok, false);
  });

  it("reads only the bytes kept of a 1.9 GB AGENTS.md (a sparse file: nothing of it is ever allocated whole)", async () => {
    const path = join(root, "AGENTS.md");
    const handle = await open(path, "w");
    await handle.write("Big rule at the start.\n");
    await handle.truncate(1_900_000_000);
    await handle.close();
    const peakBefore = process.resourceUsage().maxRSS;
    const started = Date.now();
    const folder = await readRulesFolder(root, "app");
    const elapsed = Date.now() - started;
    const grownMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
    const text = folder.files.get("AGENTS.md") ?? "";
    assert.ok(text.startsWith("Big rule at the start."));
    assert.equal(Buffer.byteLength(text), RULE_FILE_READ_LIMIT_BYTES);
    assert.ok(grownMb < 200, `the peak memory grew by ${grownMb.toFixed(0)} MB`);
    assert.ok(elapsed < 2_000, `reading took ${elapsed} ms`);
    assert.deepEqual(
      chooseRules([folder], { workingOn: new Map() }).map((rule) => rule.path),
      ["AGENTS.md"],
    );
  });

  it("keeps a character the cut splits in two out of the text instead of sending U+FFFD", async () => {
    await write("AGENTS.md", `${"a".repeat(9)}é`);
    const read = await readFileInsideFolder(root, "AGENTS.md", 10);
    assert.deepEqual(read, { ok: true, text: "a".repeat(9), cut: true });
  });
});

describe("Instructions: applyTo globs are matched in bounded time", () => {
  it("chooses rules for a file of 37 and 47 characters within milliseconds when an applyTo backtracks", () => {
    const files = new Map([[".github/instructions/slow.instructions.md", '---\napplyTo: "**/*a*a*a*a*a*a*a*a*a*a*a*a*b"\n---\nSlow rule.']]);
    for (const path of ["a".repeat(37), `src/${"a".repeat(43)}`]) {
      const started = performance.now();
      const chosen = chooseRules([{ name: "app", files }], { workingOn: new Map([["app", [path]]]) });
      const elapsed = performance.now() - started;
      assert.deepEqual(chosen, []);
      assert.ok(elapsed < 200, `${path.length} characters took ${elapsed.toFixed(1)} ms`);
    }
  });

  it("matches a backtracking glob against 37-, 47- and 4,000-character paths within milliseconds", () => {
    const matches = boundedGlobMatcher(["**/*a*a*a*a*a*a*a*a*a*a*a*a*b"]);
    for (const path of ["a".repeat(37), `src/${"a".repeat(43)}`, `${"a/".repeat(1000)}${"a".repeat(2000)}`]) {
      const started = performance.now();
      assert.equal(matches(path), false);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 100, `${path.length} characters took ${elapsed.toFixed(1)} ms`);
    }
    assert.equal(matches(`${"a".repeat(12)}b`), true, "and it still matches what it should");
  });

  it("bounds brace expansion: a glob of more alternatives than the limit matches nothing", () => {
    const many = "{a,b}".repeat(9);
    assert.equal(expandBraces(many), null);
    assert.ok(2 ** 9 > MAX_GLOB_ALTERNATIVES);
    const started = performance.now();
    assert.equal(boundedGlobMatcher([many])("ab"), false);
    assert.ok(performance.now() - started < 100);
  });

  it("agrees with picomatch (dot: true) on the globs people write", () => {
    const globs = ["**", "**/*", "**/*.ts", "*.ts", "src/**", "src/**/*.ts", "src/*.ts", "**/test/**/*.spec.ts", "**/*.{ts,tsx}", "{src,lib}/**/*.js", "docs/?.md", "**/[a-c]*.py", "**/[!a]*.py", "web/**/view.*", "**/.github/**", "a\\*b.md", "**/README.md", "src/**/index.ts", "**/*.test.{js,ts}"];
    const paths = ["a.ts", "src/a.ts", "src/deep/b.ts", "src/deep/b.tsx", "lib/x.js", "src/x.js", "docs/a.md", "docs/ab.md", "app/test/unit/x.spec.ts", "test/x.spec.ts", "b.py", "pkg/a.py", "pkg/d.py", ".github/workflows/ci.yml", "x/.github/a", "a*b.md", "axb.md", "README.md", "docs/README.md", "src/index.ts", "src/a/index.ts", "web/view.ts", "web/a/b/view.ts", ".hidden/x.ts", "src/.env.ts", "src", "x.test.ts", "a/x.test.js"];
    const disagreements: string[] = [];
    for (const glob of globs) {
      const bounded = boundedGlobMatcher([glob]);
      const reference = picomatch(glob, { dot: true, posix: true });
      for (const path of paths) if (bounded(path) !== reference(path)) disagreements.push(`${glob} on ${path}: bounded ${bounded(path)}, picomatch ${reference(path)}`);
    }
    assert.deepEqual(disagreements, []);
  });
});
