// Entry point for in-host integration tests, in the shape VS Code's test runner expects
// (`--extensionTestsPath` / @vscode/test-electron): a module exporting `run(): Promise<void>`.
// It runs inside the real extension host, so tests can `import * as vscode from "vscode"`.
//
// Mocha is not bundled: it is resolved from the repository's node_modules at run time, walking up
// from dist/test/integration/. The compiled tests sit beside this file as *.test.js.
import * as fs from "node:fs";
import * as path from "node:path";
import Mocha from "mocha";
import * as vscode from "vscode";

export async function run(): Promise<void> {
  // scripts/vscode/runInHostTests.mjs times extension-host readiness by this line.
  console.log(`in-host suite starting: VS Code ${vscode.version} (${vscode.env.appName}), Node ${process.version}, pid ${process.pid}`);
  const mocha = new Mocha({
    ui: "bdd",
    color: false,
    reporter: "spec",
    timeout: Number(process.env.RELAY_CHAT_TEST_TIMEOUT_MS ?? 30_000),
    ...(process.env.RELAY_CHAT_TEST_GREP ? { grep: process.env.RELAY_CHAT_TEST_GREP } : {}),
  });
  const directory = __dirname;
  const files = fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(".test.js"))
    .sort();
  if (files.length === 0) throw new Error(`no compiled tests (*.test.js) in ${directory}`);
  for (const file of files) mocha.addFile(path.join(directory, file));

  const started = Date.now();
  const failures = await new Promise<number>((resolve, reject) => {
    try {
      mocha.run(resolve);
    } catch (error) {
      reject(error);
    }
  });
  console.log(`in-host suite: ${files.length} file(s), ${failures} failure(s), ${Date.now() - started} ms`);
  if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
}
