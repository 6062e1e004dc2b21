import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as path from "node:path";

// The tools core must run in plain Node (unit tests, the CLI); only tools/builtin/ may talk to the editor.
describe("tools: the core does not import vscode", () => {
  it("has no vscode import in src/tools/*.ts", async () => {
    const folder = path.join(__dirname, "..", "..", "src", "tools");
    const files = (await fs.readdir(folder)).filter((name) => name.endsWith(".ts"));
    assert.ok(files.length > 5, "found the tool sources");
    const offenders: string[] = [];
    for (const file of files) {
      const source = await fs.readFile(path.join(folder, file), "utf8");
      if (/(?:from\s+|require\(\s*|import\(\s*)["']vscode["']/.test(source)) offenders.push(file);
    }
    assert.deepEqual(offenders, []);
  });
});
