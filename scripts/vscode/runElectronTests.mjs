// Runs the same in-host suite (dist/test/integration/suite.js) under desktop VS Code, downloaded by
// @vscode/test-electron: the usual way for extension authors, on machines that can reach Microsoft's
// update server. (Without internet it fails at the download; use runInHostTests.mjs there.)
//
//   npm run build && node scripts/vscode/buildTests.mjs && node scripts/vscode/runElectronTests.mjs
//
// VSCODE_TEST_VERSION picks the VS Code version (default: stable). Linux without a display needs
// xvfb-run in front. The relay emulator is started as for runInHostTests.mjs.
import { rmSync } from "node:fs";
import path from "node:path";
import { runTests } from "@vscode/test-electron";
import { startEmulator } from "./emulator.mjs";
import { cacheDir, repoRoot } from "./paths.mjs";
import { testToolExtensionPath } from "./testToolExtension.mjs";
import { makeTestWorkspace } from "./testWorkspace.mjs";

const started = Date.now();
const workspace = makeTestWorkspace();
let emulator;
let exitCode = 1;
try {
  emulator = await startEmulator();
  exitCode = await runTests({
    version: process.env.VSCODE_TEST_VERSION ?? "stable",
    cachePath: cacheDir,
    // Relay Chat, and another extension with language-model tools for the tests of tools from other extensions.
    extensionDevelopmentPath: [repoRoot, testToolExtensionPath],
    extensionTestsPath: path.join(repoRoot, "dist", "test", "integration", "suite.js"),
    extensionTestsEnv: {
      RELAY_CHAT_BASE_URL: emulator.baseUrl,
      RELAY_CHAT_API_KEY: emulator.key,
      RELAY_CHAT_MODEL: "echo",
      RELAY_CHAT_TEST_EMULATOR_URL: emulator.baseUrl,
      RELAY_CHAT_TEST_EMULATOR_KEY: emulator.key,
      RELAY_CHAT_TEST_EMULATOR_CONTROL: emulator.controlUrl,
      RELAY_CHAT_TEST_WORKSPACE: workspace,
      ...(process.env.RELAY_CHAT_TEST_GREP ? { RELAY_CHAT_TEST_GREP: process.env.RELAY_CHAT_TEST_GREP } : {}),
    },
    launchArgs: [
      workspace,
      "--disable-extensions",
      "--disable-workspace-trust",
      "--skip-welcome",
      "--skip-release-notes",
      "--disable-telemetry",
      "--user-data-dir", path.join(cacheDir, "electron-user-data"),
    ],
  });
} catch (error) {
  console.error(`in-host tests under @vscode/test-electron failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await emulator?.stop();
  rmSync(workspace, { recursive: true, force: true });
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
process.exit(exitCode);
