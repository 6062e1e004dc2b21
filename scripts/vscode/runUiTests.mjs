// UI tests: Relay Chat installed from its VSIX into a real VS Code (code-server), driven through the
// workbench in headless Debian Chromium, against the relay emulator.
//
//   npm run build && node scripts/vscode/runUiTests.mjs
//
// Steps: package the VSIX (vsce, no dependencies) into .vscode-test/relay-chat.vsix, install it into a
// fresh profile, start the relay emulator and code-server (the extension host gets
// RELAY_CHAT_BASE_URL, RELAY_CHAT_API_KEY and RELAY_CHAT_MODEL=echo), then run mocha over
// test/ui/*.test.ts, which opens the workbench itself (test/ui/workbench.ts). Screenshots go to
// test-results/ui/.
//
// Options: --vsix FILE (skip packaging), --extension-path DIR (package another folder; default the
// repository), --timeout SECONDS (default 900: the whole run, about 20 test files, stays far under it), --grep TEXT, --model ID (default echo), --native-chat
// (turn VS Code's own chat on, with anonymous access, for test/ui/nativeChat.test.ts), --locale zh-cn (VS
// Code's display language, with the test language pack, for test/ui/chinese.test.ts), --relay-in-user-settings
// (configure the relay as a person does: its address and model in the User settings file, no RELAY_CHAT_*
// variables and no key, for test/ui/userSettings.test.ts).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { installVsix, startCodeServer } from "./codeServer.mjs";
import { startEmulator } from "./emulator.mjs";
import { isInstalled } from "./installCodeServer.mjs";
import { cacheDir, node24Bin, repoRoot, resultsDir } from "./paths.mjs";
import { startMemorySampler } from "./processMemory.mjs";
import { installTestLanguagePack } from "./testLanguagePack.mjs";
import { installTestToolExtension } from "./testToolExtension.mjs";

const { values: options } = parseArgs({
  options: {
    vsix: { type: "string" },
    "extension-path": { type: "string", default: repoRoot },
    timeout: { type: "string", default: "900" },
    grep: { type: "string" },
    model: { type: "string", default: "echo" },
    "native-chat": { type: "boolean", default: false },
    locale: { type: "string" },
    "relay-in-user-settings": { type: "boolean", default: false },
  },
});

const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (message) => console.log(`[ui] ${message}`);
// The native-chat run has its own folder, so running both leaves both sets of screenshots.
const userSettingsMode = options["relay-in-user-settings"];
const uiResultsDir = path.join(
  resultsDir,
  options["native-chat"] ? "ui-native-chat" : options.locale ? `ui-${options.locale}` : userSettingsMode ? "ui-user-settings" : "ui",
);

function packageVsix() {
  const extensionPath = path.resolve(options["extension-path"]);
  const { main } = JSON.parse(readFileSync(path.join(extensionPath, "package.json"), "utf8"));
  if (main && !existsSync(path.resolve(extensionPath, main))) {
    throw new Error(`the extension's main (${main}) is not built: run \`npm run build\` first`);
  }
  const output = path.join(cacheDir, "relay-chat.vsix");
  mkdirSync(cacheDir, { recursive: true });
  rmSync(output, { force: true });
  const vsce = path.join(repoRoot, "node_modules", "@vscode", "vsce", "vsce");
  // The README's screenshots are relative links into the repository: kept as they are.
  const args = [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", "--skip-license", "-o", output];
  let result = spawnSync(process.execPath, args, { cwd: extensionPath, encoding: "utf8" });
  if (result.status !== 0 && existsSync(node24Bin)) {
    // vsce may need a newer Node than the machine's: try the Node 24 from the code-server cache.
    result = spawnSync(node24Bin, args, { cwd: extensionPath, encoding: "utf8" });
  }
  if (result.status !== 0 || !existsSync(output)) {
    throw new Error(`vsce package failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return output;
}

function makeWorkspace() {
  const workspace = mkdtempSync(path.join(os.tmpdir(), "relay-chat-ui-workspace-"));
  writeFileSync(path.join(workspace, "README.md"), "# Sample workspace\n\nUsed by Relay Chat's UI tests.\n");
  return workspace;
}

function runMocha(env) {
  const mocha = path.join(repoRoot, "node_modules", "mocha", "bin", "mocha.js");
  const args = [
    mocha,
    "--no-config",
    "--require", "tsx/cjs",
    "--timeout", "120000",
    "--reporter", "spec",
    "--no-color",
    ...(options.grep ? ["--grep", options.grep] : []),
    "test/ui/**/*.test.ts",
  ];
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: "inherit" });
  return {
    child,
    exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)))),
  };
}

async function main() {
  if (!isInstalled()) {
    throw new Error("code-server is not installed: run `node scripts/vscode/installCodeServer.mjs` first");
  }
  const memory = startMemorySampler();
  const cleanups = [];
  let cleaning;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const step of cleanups.reverse()) await step().catch((error) => say(`cleanup: ${error}`));
    })();
    return cleaning;
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      say(`${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.stdout.on("error", () => void cleanup().finally(() => process.exit(1)));
  const overall = setTimeout(() => {
    say(`TIMEOUT: the UI tests did not finish within ${options.timeout} s`);
    void cleanup().finally(() => process.exit(124));
  }, Number(options.timeout) * 1000);

  let exitCode = 1;
  try {
    let step = Date.now();
    const vsix = options.vsix ? path.resolve(options.vsix) : packageVsix();
    say(`VSIX ${path.relative(repoRoot, vsix)} ${options.vsix ? "(given)" : "packaged"} (${elapsed(step)})`);

    const profile = mkdtempSync(path.join(os.tmpdir(), "relay-chat-ui-profile-"));
    cleanups.push(async () => rmSync(profile, { recursive: true, force: true }));
    const userDataDir = path.join(profile, "user-data");
    const extensionsDir = path.join(profile, "extensions");
    mkdirSync(userDataDir, { recursive: true });
    mkdirSync(extensionsDir, { recursive: true });
    step = Date.now();
    // Another extension with language-model tools beside Relay Chat, for test/ui/externalTools.test.ts.
    installTestToolExtension(extensionsDir);
    installVsix(vsix, { userDataDir, extensionsDir });
    if (options.locale) installTestLanguagePack(options.locale, { userDataDir, extensionsDir });
    say(`VSIX installed into a fresh profile, beside the test tool extension${options.locale ? ` and a ${options.locale} language pack` : ""} (${elapsed(step)})`);

    step = Date.now();
    const emulator = await startEmulator();
    cleanups.push(() => emulator.stop());
    say(`relay emulator at ${emulator.baseUrl} (${elapsed(step)})`);
    // A second relay of another kind, which test/ui/relays.test.ts adds through the UI.
    const secondRelay = await startEmulator({ profile: "new-api" });
    cleanups.push(() => secondRelay.stop());
    // A relay with chat-only models that does not list their wire, for test/ui/chatCompletions.test.ts.
    const splitRelay = await startEmulator({ profile: "split" });
    cleanups.push(() => splitRelay.stop());

    const workspace = makeWorkspace();
    cleanups.push(async () => rmSync(workspace, { recursive: true, force: true }));
    // As a person configures it: the relay in the User settings file, beside a legacy value that VS Code
    // migrates on its first start (it rewrites "extensions.autoUpdate": false to "off"), and no variables.
    const relayInUserSettings = { "relayChat.baseUrl": emulator.baseUrl, "relayChat.model": options.model, "extensions.autoUpdate": false };
    if (userSettingsMode) {
      for (const name of Object.keys(process.env)) if (name.startsWith("RELAY_CHAT_")) delete process.env[name];
    }
    const server = await startCodeServer({
      workspaceFolder: workspace,
      userDataDir,
      extensionsDir,
      env: userSettingsMode
        ? {}
        : {
            RELAY_CHAT_BASE_URL: emulator.baseUrl,
            RELAY_CHAT_API_KEY: emulator.key,
            RELAY_CHAT_MODEL: options.model,
          },
      // VS Code's chat is off in the other UI tests; its built-in agent asks for a sign-in unless anonymous.
      // The native-chat run starts as a fresh install does: Relay Chat's walkthrough opens by itself and takes
      // the focus while the tests already work in the chat, which they must cope with as a person does.
      settings: {
        ...(options["native-chat"]
          ? { "chat.disableAIFeatures": false, "chat.allowAnonymousAccess": true, "workbench.welcomePage.walkthroughs.openOnInstall": true }
          : {}),
        ...(userSettingsMode ? relayInUserSettings : {}),
      },
      extraArgs: options.locale ? ["--locale", options.locale] : [],
    });
    cleanups.push(() => server.stop());
    say(`code-server ready at ${server.url} in ${(server.startMs / 1000).toFixed(1)} s`);

    rmSync(uiResultsDir, { recursive: true, force: true });
    step = Date.now();
    const mocha = runMocha({
      RELAY_CHAT_UI_URL: server.url,
      RELAY_CHAT_UI_FOLDER: workspace,
      RELAY_CHAT_UI_RELAY_URL: emulator.baseUrl,
      RELAY_CHAT_UI_EMULATOR_CONTROL: emulator.controlUrl,
      RELAY_CHAT_UI_SECOND_RELAY_URL: secondRelay.baseUrl,
      RELAY_CHAT_UI_SECOND_RELAY_KEY: secondRelay.key,
      RELAY_CHAT_UI_SECOND_RELAY_CONTROL: secondRelay.controlUrl,
      RELAY_CHAT_UI_SPLIT_RELAY_URL: splitRelay.baseUrl,
      RELAY_CHAT_UI_SPLIT_RELAY_KEY: splitRelay.key,
      RELAY_CHAT_UI_SPLIT_RELAY_CONTROL: splitRelay.controlUrl,
      RELAY_CHAT_UI_NATIVE_CHAT: options["native-chat"] ? "1" : "0",
      RELAY_CHAT_UI_LOCALE: options.locale ?? "",
      RELAY_CHAT_UI_RESULTS: uiResultsDir,
      // Where code-server writes its logs (the extension's Output log among them), for tests that read them.
      RELAY_CHAT_UI_USER_DATA: server.userDataDir,
      RELAY_CHAT_UI_USER_SETTINGS: userSettingsMode ? path.join(server.userDataDir, "User", "settings.json") : "",
      RELAY_CHAT_UI_RELAY_KEY: userSettingsMode ? emulator.key : "",
    });
    cleanups.push(async () => {
      if (mocha.child.exitCode === null) mocha.child.kill("SIGTERM");
    });
    exitCode = await mocha.exited;
    say(`UI tests exited with ${exitCode} (${elapsed(step)}); screenshots in ${path.relative(repoRoot, uiResultsDir)}/`);
  } catch (error) {
    say(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    clearTimeout(overall);
    await cleanup();
    say(`peak memory of the process tree: ${memory.stop()}; done in ${elapsed()}`);
  }
  process.exit(exitCode);
}

await main();
