// `npm run demo`: builds the VSIX, starts the relay emulator with its demo models (or uses the relay in
// RELAY_CHAT_BASE_URL / RELAY_CHAT_API_KEY), and opens Relay Chat in a real VS Code in the browser
// (code-server on 127.0.0.1), already pointed at the relay, on a demo project that is its own git repository.
// Runs until Ctrl-C. Its options: scripts/demoOptions.mjs (`npm run demo -- --help`).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { DEMO_USAGE, parseDemoOptions } from "./demoOptions.mjs";
import { freshSelfCheck, selfCheck } from "./demoSelfCheck.mjs";
import { writeDemoWorkspace } from "./demoWorkspace.mjs";
import { installVsix, startCodeServer } from "./vscode/codeServer.mjs";
import { installTestLanguagePack } from "./vscode/testLanguagePack.mjs";
import { installAll } from "./vscode/installCodeServer.mjs";
import { cacheDir, repoRoot } from "./vscode/paths.mjs";

const FIRST_RELAY_NAME = "Demo relay";
const SECOND_RELAY_NAME = "Second relay (OpenRouter-like)";
/** The demo relay's model that its relay serves over Chat Completions only (test/emulator/chatOnlyModels.ts). */
const CHAT_COMPLETIONS_MODEL = "deepseek-chat";
/**
 * Its thinking model, also Chat Completions only (test/emulator/thinkingModels.ts): it streams reasoning_content and
 * refuses a tool loop's follow-up that does not send it back, as DeepSeek V4 does. Set to Chat Completions for the
 * person, so it works at once; deepseek-chat is left for the panel's offer to switch.
 */
const THINKING_MODEL = "deepseek-v4-flash";

const options = parseDemoOptions(process.argv.slice(2));
if (options.help) {
  console.log(DEMO_USAGE);
  process.exit(0);
}
if (options.problem) {
  console.error(`${options.problem}\nRun \`npm run demo -- --help\` for the options.`);
  process.exit(2);
}
const fresh = options.fresh;

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer().once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function startRelay() {
  if (process.env.RELAY_CHAT_BASE_URL && process.env.RELAY_CHAT_API_KEY) {
    console.log(`Using the relay at ${process.env.RELAY_CHAT_BASE_URL} (from RELAY_CHAT_BASE_URL).`);
    return { baseUrl: process.env.RELAY_CHAT_BASE_URL, key: process.env.RELAY_CHAT_API_KEY, model: process.env.RELAY_CHAT_MODEL ?? "", emulated: false, stop: () => {} };
  }
  // Beside the scripted models, two its relay serves over Chat Completions only: one the panel offers to switch,
  // and a thinking model. The split profile serves them among all its chat-only models.
  const profile = options.profile ?? "openai";
  const chatOnly = profile === "split" ? [] : ["--chat-only-models", `${CHAT_COMPLETIONS_MODEL},${THINKING_MODEL}`];
  return startEmulatedRelay(profile, undefined, options.relayPort, chatOnly);
}

/** The relay emulator as a child process, behaving like `relayProfile`; `key` makes it accept that key; `port` (optional) its port; `extra`: more of test/emulator/main.ts's arguments. */
async function startEmulatedRelay(relayProfile, key, port, extra = []) {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(repoRoot, "test/emulator/main.ts"), "--profile", relayProfile, ...(key ? ["--key", key] : []), ...(port ? ["--port", String(port)] : []), ...extra], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk.toString();
      if (buffered.includes("\n")) resolve(buffered.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`the relay emulator exited with ${code}`)));
  });
  const { baseUrl, key: acceptedKey } = JSON.parse(line);
  console.log(`Relay emulator on ${baseUrl}/v1 with the demo model, behaving like a${/^[aeiou]/.test(relayProfile) ? "n" : ""} ${relayProfile} relay.`);
  return { baseUrl, key: acceptedKey, model: "demo", emulated: true, stop: () => child.kill("SIGTERM") };
}

/** What to do with the demo once it runs: what to ask, each relay's address and key, the command line. */
function printWhatToTry({ relay, secondRelay, git }) {
  const v1 = (baseUrl) => (relay.emulated ? `${baseUrl}/v1` : baseUrl);
  if (fresh) {
    console.log("Fresh start: no relay is set. Open it in a browser and follow Get Started with Relay Chat, with:");
    console.log(`  base URL  ${v1(relay.baseUrl)}`);
    // A real relay's key is never printed: the person has it.
    console.log(relay.emulated ? `  API key   ${relay.key}   (the emulator's throwaway key)` : "  API key   the one in RELAY_CHAT_API_KEY");
    if (relay.model) console.log(`  model     ${relay.model}`);
  } else {
    console.log("Open it in a browser, click the Relay Chat icon in the activity bar, and try:");
    console.log('  "Hello!"  ·  "Explain hello.ts"  ·  "Add a comment to hello.ts"  ·  "Run `ls`"  ·  "Write something long"');
    if (git) console.log("  #Changes and /commit: the demo project is a git repository with a change to hello.ts staged");
    if (relay.emulated) {
      console.log(`  ${CHAT_COMPLETIONS_MODEL} in the model picker: its relay serves it over Chat Completions only, and the panel offers the switch`);
      console.log(`  ${THINKING_MODEL}: a thinking model over Chat Completions; "Explain hello.ts" shows its reasoning, and the tool call works`);
    }
  }
  if (relay.emulated && !fresh) {
    console.log("\nThe relays (the emulator's throwaway keys):");
    const width = Math.max(FIRST_RELAY_NAME.length, secondRelay ? SECOND_RELAY_NAME.length : 0);
    console.log(`  ${FIRST_RELAY_NAME.padEnd(width)}  ${v1(relay.baseUrl)}  key ${relay.key}  (set for you)`);
    if (secondRelay) {
      console.log(`  ${SECOND_RELAY_NAME.padEnd(width)}  ${v1(secondRelay.baseUrl)}  key ${secondRelay.key}`);
      console.log(`  ${"".padEnd(width)}  a key is stored per relay: run "Relay Chat: Set API Key", pick this relay and enter its key;`);
      console.log(`  ${"".padEnd(width)}  its answers then show their cost, and the status bar its balance`);
    }
  }
  console.log("\nThe command line against the demo relay (after `npm link`, `relay-chat` does the same as `node dist/cli.js`):");
  console.log(`  export RELAY_CHAT_BASE_URL=${v1(relay.baseUrl)} RELAY_CHAT_API_KEY=${relay.emulated ? relay.key : "..."}`);
  console.log(`  node dist/cli.js ask --model ${relay.model || "MODEL"} "Hello"`);
}

async function main() {
  installAll({ logFile: path.join(cacheDir, "code-server-install.log") });
  console.log("Building the VSIX (npm run package)...");
  execFileSync("npm", ["run", "--silent", "package"], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
  const { version, name } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const vsix = path.join(repoRoot, `${name}-${version}.vsix`);

  const relay = await startRelay();
  // A second relay of another kind beside the first, so switching, cost and balance can be seen: it prices
  // its answers and reports what it billed and the key's balance, as OpenRouter does.
  const secondRelay = relay.emulated && !fresh ? await startEmulatedRelay("openrouter", relay.key, options.relayPort === undefined ? undefined : options.relayPort + 1) : null;
  const folder = path.join(cacheDir, "demo-workspace");
  const workspace = writeDemoWorkspace(folder);
  if (!workspace.git) console.log(`The demo project is not a git repository (${workspace.problem}): #Changes and /commit will say so.`);
  const wantedPort = options.port ?? 8080;
  const port = (await portIsFree(wantedPort)) ? wantedPort : undefined;
  const profile = mkdtempSync(path.join(os.tmpdir(), "relay-chat-demo-"));
  const userDataDir = path.join(profile, "user-data");
  const extensionsDir = path.join(profile, "extensions");
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  installVsix(vsix, { userDataDir, extensionsDir });
  const locale = options.locale;
  if (locale) installTestLanguagePack(locale, { userDataDir, extensionsDir });
  const server = await startCodeServer({
    port,
    userDataDir,
    extensionsDir,
    workspaceFolder: folder,
    settings: {
      ...(fresh ? { "workbench.welcomePage.walkthroughs.openOnInstall": true } : { "relayChat.baseUrl": relay.baseUrl }),
      // The demo's own relay comes first in the list, so it is the one the panel sends to until another is
      // picked (relayChat.baseUrl names the same address, so it adds no relay of its own).
      ...(secondRelay
        ? { "relayChat.relays": [{ name: FIRST_RELAY_NAME, baseUrl: relay.baseUrl }, { name: SECOND_RELAY_NAME, baseUrl: `${secondRelay.baseUrl}/v1`, kind: "openrouter" }] }
        : {}),
      ...(relay.model && !fresh ? { "relayChat.model": relay.model } : {}),
      ...(relay.emulated ? { "relayChat.modelSettings": [{ model: THINKING_MODEL, protocol: "chat" }] } : {}),
      "relayChat.maxOutputTokens": 400,
      // The emulator's small-window model (test/emulator/scriptedModels.ts SMALL_CONTEXT_WINDOW): paste a long
      // text a few times and the panel offers Summarize earlier turns (the OpenRouter-like relay lists the window itself).
      ...(relay.emulated ? { "relayChat.contextWindows": { "small-window": 16000 } } : {}),
      "workbench.colorTheme": "Default Dark Modern",
      // The demo project is its own repository: Source Control shows its staged change and /commit writes there.
      "git.enabled": true,
    },
    // The key reaches the extension through its documented environment fallback, never a setting;
    // RELAY_CHAT_BASE_URL beside it binds it to this relay, so it is used without asking. A fresh start
    // has neither: the person enters them, as after installing.
    env: fresh ? {} : { RELAY_CHAT_API_KEY: relay.key, RELAY_CHAT_BASE_URL: relay.baseUrl },
    extraArgs: locale ? ["--locale", locale] : [],
  });

  const stopAll = async () => {
    await server.stop();
    relay.stop();
    secondRelay?.stop();
    rmSync(profile, { recursive: true, force: true });
  };
  if (options.screenshot) {
    try {
      const models = { chatCompletions: CHAT_COMPLETIONS_MODEL, thinking: THINKING_MODEL };
      await (fresh ? freshSelfCheck : selfCheck)({ url: server.url, folder, locale, models });
    } finally {
      await stopAll();
    }
    return;
  }
  console.log(`\nRelay Chat is running in VS Code at ${server.url}?folder=${encodeURIComponent(folder)}`);
  printWhatToTry({ relay, secondRelay, git: workspace.git });
  console.log("Press Ctrl-C to stop.");
  const shutdown = () => stopAll().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
