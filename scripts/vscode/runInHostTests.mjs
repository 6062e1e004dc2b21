// Runs the in-host integration suite (dist/test/integration/suite.js) inside a real VS Code extension
// host: code-server serves VS Code, headless Chromium opens the workbench with a test payload, and
// the workbench reports the suite's output and exit code back through functions exposed on the page.
//
//   npm run build && node scripts/vscode/buildTests.mjs && node scripts/vscode/runInHostTests.mjs
//
// Options: --extension-path DIR (default: the repository), --tests-path FILE (default:
// dist/test/integration/suite.js), --timeout SECONDS (default 300), --no-emulator, --keep-profile,
// --untrusted (workspace trust on and the folder not trusted; runs the "untrusted workspace" suite unless
// RELAY_CHAT_TEST_GREP says otherwise, and tells the suite through RELAY_CHAT_TEST_TRUST=untrusted).
// Environment: RELAY_CHAT_TEST_GREP filters tests; RELAY_CHAT_CODE_SERVER_LOG=1 echoes code-server.
//
// The extension host sees RELAY_CHAT_BASE_URL, RELAY_CHAT_API_KEY and RELAY_CHAT_MODEL=echo pointing at a relay emulator
// started here, and RELAY_CHAT_TEST_EMULATOR_URL/RELAY_CHAT_TEST_EMULATOR_KEY for tests that want to
// talk to the emulator directly. RELAY_CHAT_TEST_WORKSPACE is the opened folder.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { format, parseArgs } from "node:util";
import { launchBrowser, remoteUri, workbenchUrl } from "./browser.mjs";
import { startCodeServer } from "./codeServer.mjs";
import { startEmulator } from "./emulator.mjs";
import { repoRoot } from "./paths.mjs";
import { startMemorySampler } from "./processMemory.mjs";
import { installTestToolExtension } from "./testToolExtension.mjs";
import { makeTestWorkspace } from "./testWorkspace.mjs";

const { values: options } = parseArgs({
  options: {
    "extension-path": { type: "string", default: repoRoot },
    "tests-path": { type: "string", default: path.join(repoRoot, "dist", "test", "integration", "suite.js") },
    timeout: { type: "string", default: "300" },
    "no-emulator": { type: "boolean", default: false },
    "keep-profile": { type: "boolean", default: false },
    untrusted: { type: "boolean", default: false },
  },
});

const extensionPath = path.resolve(options["extension-path"]);
const testsPath = path.resolve(options["tests-path"]);
const timeoutMs = Number(options.timeout) * 1000;
const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
// The suite prints this first (test/integration/suite.ts): the extension host is up and running it.
const suiteStartMarker = "in-host suite starting";
const workbenchNoise = /^(Resolving connection token|Resolved connection token|Creating a socket|\[reconnection-grace-time\]|Updating additional builtin|\[Service Worker\]|\[AgentHost|\[AccountPolicyGate\])/;
const say = (message) => console.log(`[in-host] ${message}`);

function checkInputs() {
  const manifest = path.join(extensionPath, "package.json");
  if (!existsSync(manifest)) throw new Error(`no extension manifest at ${manifest}`);
  const { main } = JSON.parse(readFileSync(manifest, "utf8"));
  if (main && !existsSync(path.resolve(extensionPath, main)) && !existsSync(path.resolve(extensionPath, `${main}.js`))) {
    throw new Error(`the extension's main (${main}) is not built: run \`npm run build\` first`);
  }
  if (!existsSync(testsPath)) throw new Error(`no compiled suite at ${testsPath}: run \`node scripts/vscode/buildTests.mjs\` first`);
}

async function main() {
  checkInputs();
  const memory = startMemorySampler();
  const cleanups = [];
  let cleaning;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const step of cleanups.reverse()) await step().catch((error) => say(`cleanup: ${error}`));
    })();
    return cleaning;
  };
  let exitCode = 1;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      say(`${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  // A closed pipe (for example `| head`) must not leave code-server or the emulator behind.
  process.stdout.on("error", () => void cleanup().finally(() => process.exit(1)));
  const overall = setTimeout(() => {
    say(`TIMEOUT: the suite did not finish within ${options.timeout} s (is the extension host stuck, or did the workbench never start it?)`);
    void cleanup().finally(() => process.exit(124));
  }, timeoutMs);

  try {
    const workspace = makeTestWorkspace();
    cleanups.push(async () => rmSync(workspace, { recursive: true, force: true }));

    const env = { RELAY_CHAT_TEST_WORKSPACE: workspace };
    if (!options["no-emulator"]) {
      const emulatorStarted = Date.now();
      const emulator = await startEmulator();
      cleanups.push(() => emulator.stop());
      Object.assign(env, {
        RELAY_CHAT_BASE_URL: emulator.baseUrl,
        RELAY_CHAT_API_KEY: emulator.key,
        RELAY_CHAT_MODEL: "echo",
        RELAY_CHAT_TEST_EMULATOR_URL: emulator.baseUrl,
        RELAY_CHAT_TEST_EMULATOR_KEY: emulator.key,
        RELAY_CHAT_TEST_EMULATOR_CONTROL: emulator.controlUrl,
      });
      say(`relay emulator at ${emulator.baseUrl} (${elapsed(emulatorStarted)})`);
    }
    if (process.env.RELAY_CHAT_TEST_GREP) env.RELAY_CHAT_TEST_GREP = process.env.RELAY_CHAT_TEST_GREP;
    if (options.untrusted) {
      env.RELAY_CHAT_TEST_TRUST = "untrusted";
      env.RELAY_CHAT_TEST_GREP ??= "untrusted workspace";
      say("workspace trust is on and the folder is not trusted");
    }

    // Another extension with language-model tools, for the tests of tools from other extensions.
    const extensionsDir = mkdtempSync(path.join(os.tmpdir(), "relay-chat-in-host-extensions-"));
    cleanups.push(async () => rmSync(extensionsDir, { recursive: true, force: true }));
    installTestToolExtension(extensionsDir);

    const server = await startCodeServer({
      workspaceFolder: workspace,
      env,
      extensionsDir,
      keepProfile: options["keep-profile"],
      workspaceTrust: options.untrusted ? "untrusted" : "disabled",
    });
    cleanups.push(() => server.stop());
    say(`code-server ready at ${server.url} in ${(server.startMs / 1000).toFixed(1)} s`);

    const browserStarted = Date.now();
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    say(`chromium ready (${elapsed(browserStarted)})`);

    const { page } = browser;
    let firstLogAt;
    let navigatedAt = Date.now();
    const finished = new Promise((resolve) => {
      void page.exposeFunction("codeAutomationExit", (code) => resolve(Number(code)));
    });
    let relaying = true;
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      if (!relaying) return;
      const text = Array.isArray(args) ? format(...args) : String(args);
      if (text.startsWith(suiteStartMarker)) firstLogAt ??= Date.now();
      // The workbench cannot reach the extension gallery here: expected, and not the suite's output.
      if (/ENOTFOUND open-vsx\.org|ENOTFOUND marketplace|ENOTFOUND/.test(text) && /gallery|Gallery|open-vsx/.test(text)) return;
      if (workbenchNoise.test(text)) {
        if (process.env.RELAY_CHAT_VERBOSE) console.log(`[workbench +${elapsed(navigatedAt)}] ${text}`);
        return;
      }
      for (const line of text.replace(/\n$/, "").split("\n")) {
        (type === "error" ? console.error : console.log)(line);
      }
    });
    page.on("pageerror", (error) => say(`page error: ${error.message}`));
    if (process.env.RELAY_CHAT_BROWSER_LOG) page.on("console", (message) => say(`+${elapsed(navigatedAt)} console.${message.type()}: ${message.text()}`));

    const url = workbenchUrl(server.url, workspace, [
      ["extensionDevelopmentPath", remoteUri(server.url, extensionPath)],
      ["extensionTestsPath", remoteUri(server.url, testsPath)],
    ]);
    navigatedAt = Date.now();
    const navigated = navigatedAt;
    // Loading the workbench is the slowest step on a loaded machine: Playwright's 30 s default gave up under CI load.
    await page.goto(url, { timeout: 120_000 });
    exitCode = await finished;
    relaying = false;
    const readyMs = firstLogAt ? firstLogAt - navigated : undefined;
    say(
      `suite exited with ${exitCode}; extension host running the suite after ${readyMs === undefined ? "n/a" : `${(readyMs / 1000).toFixed(1)} s`}, ` +
        `suite ${firstLogAt ? elapsed(firstLogAt) : "n/a"}, total ${elapsed()}`,
    );
  } catch (error) {
    say(`FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    clearTimeout(overall);
    await cleanup();
    say(`peak memory of the process tree: ${memory.stop()}; done in ${elapsed()}`);
  }
  process.exit(exitCode);
}

await main();
