import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";

// The checkpoint helper thread as the extension bundle starts it: from dist/checkpointWorker.js beside the
// bundle (scripts/build.mjs writes both, .vscodeignore ships both). Bundled here the same way into a temp folder,
// with and without the helper's bundle beside it, and run in a plain Node: the extension's log hears "ready" in
// the first case and, in the second, that the code is missing (checkpoints then stay on one thread).

const sources = path.join(__dirname, "..", "..", "src", "tools");

describe("tools: the checkpoint helper thread's bundle", function () {
  this.timeout(60_000);
  let root: string;

  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "relay-chat-helper-bundle-"));
    const entry = path.join(root, "entry.ts");
    writeFileSync(
      entry,
      `import { readyHelper, watchCheckpointHelper } from ${JSON.stringify(path.join(sources, "checkpointHelper"))};
watchCheckpointHelper((event) => { console.log(JSON.stringify(event)); process.exit(0); });
readyHelper(true);
setTimeout(() => { console.log("no event"); process.exit(1); }, 20000);
`,
    );
    for (const folder of ["with", "without"]) buildSync({ entryPoints: [entry], outfile: path.join(root, folder, "extension.js"), bundle: true, platform: "node", format: "cjs", logLevel: "error" });
    buildSync({ entryPoints: [path.join(sources, "checkpointWorker.ts")], outfile: path.join(root, "with", "checkpointWorker.js"), bundle: true, platform: "node", format: "cjs", logLevel: "error" });
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  const run = (folder: string) => JSON.parse(execFileSync(process.execPath, [path.join(root, folder, "extension.js")], { cwd: root, encoding: "utf8" })) as unknown;

  it("starts from checkpointWorker.js beside the bundle", () => {
    assert.deepEqual(run("with"), { ready: true });
  });

  it("says the helper's code is missing when the bundle is not there", () => {
    assert.deepEqual(run("without"), { failed: `its code is missing (${path.join(root, "without", "checkpointWorker.js")})` });
  });
});
