// `npm run demo`: builds the VSIX, starts the relay emulator with its demo model (or uses the relay in
// RELAY_CHAT_BASE_URL / RELAY_CHAT_API_KEY), and opens Relay Chat in a real VS Code in the browser
// (code-server on 127.0.0.1), already pointed at the relay. Runs until Ctrl-C.
//
//   --port N        the code-server port (default 8080, or a free one if taken)
//   --relay-port N  the emulator's port (default: a free one); the second, OpenRouter-like relay takes N+1,
//                   so the CLI can be pointed at a known address (RELAY_CHAT_BASE_URL=http://127.0.0.1:N/v1)
//   --profile P     which kind of relay the emulator behaves like: openai (default), minimal, new-api,
//                   translated (a gateway that translates to Chat Completions); see test/emulator/profiles.ts
//   --screenshot    open the workbench in headless Chromium, send one message, save a screenshot to
//                   test-results/demo.png and exit (a quick check that the demo works)
//   --locale zh-cn  VS Code's display language Chinese (Simplified), through a stand-in language pack:
//                   Relay Chat in Chinese, VS Code's own menus in English
//   --fresh         as a newcomer meets it: no relay set, the setup screen and the Get Started walkthrough;
//                   the emulator's address and key are printed to enter there
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { installVsix, startCodeServer } from "./vscode/codeServer.mjs";
import { installTestLanguagePack } from "./vscode/testLanguagePack.mjs";
import { installAll } from "./vscode/installCodeServer.mjs";
import { cacheDir, chromiumArgs, chromiumPath, repoRoot, resultsDir } from "./vscode/paths.mjs";

const FIRST_RELAY_NAME = "Demo relay";
const SECOND_RELAY_NAME = "Second relay (OpenRouter-like)";
const fresh = process.argv.includes("--fresh");

const argument = (name) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};

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
  return startEmulatedRelay(argument("--profile") ?? "openai", undefined, relayPort());
}

/** The port asked for with --relay-port, or undefined for a free one; a wrong value stops the demo with why. */
function relayPort() {
  const value = argument("--relay-port");
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65534) {
    console.error(`--relay-port takes a port number from 1 to 65534, got ${JSON.stringify(value)}.`);
    process.exit(2);
  }
  return port;
}

/** The relay emulator as a child process, behaving like `relayProfile`; `key` makes it accept that key; `port` (optional) its port. */
async function startEmulatedRelay(relayProfile, key, port) {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(repoRoot, "test/emulator/main.ts"), "--profile", relayProfile, ...(key ? ["--key", key] : []), ...(port ? ["--port", String(port)] : [])], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
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

function writeDemoWorkspace() {
  const folder = path.join(cacheDir, "demo-workspace");
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "README.md"), "# Demo project\n\nA small folder for trying Relay Chat.\n\nThe model can read this file with the read_file tool, after you approve the call.\n");
  writeFileSync(path.join(folder, "hello.ts"), 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n');
  // Project rules the model is told (the Rules chip lists them; ask the demo model "what are my rules?").
  writeFileSync(path.join(folder, "AGENTS.md"), "# Demo project rules\n\nKeep answers short. Name files with workspace-relative paths.\n");
  mkdirSync(path.join(folder, ".github", "instructions"), { recursive: true });
  writeFileSync(path.join(folder, ".github", "instructions", "typescript.instructions.md"), '---\napplyTo: "**/*.ts"\n---\nTypeScript: prefer named exports and explicit return types.\n');
  // A prompt file: type / in the message box and pick /review (its text goes with that message only).
  mkdirSync(path.join(folder, ".github", "prompts"), { recursive: true });
  writeFileSync(
    path.join(folder, ".github", "prompts", "review.prompt.md"),
    "---\ndescription: Review a file for bugs and unclear names\nargument-hint: file=NAME\ntools: [read_file, find_files]\n---\nReview ${input:file:the file} for bugs, unclear names and missing tests. List each finding with its line; do not change files.\n",
  );
  return folder;
}

/** The panel's words in the demo's display language (the English text itself without --locale). */
function panelText(english) {
  const locale = argument("--locale");
  if (!locale) return english;
  const bundle = JSON.parse(readFileSync(path.join(repoRoot, "l10n", `bundle.l10n.${locale}.json`), "utf8"));
  return bundle[english] ?? english;
}

/** A manifest string (package.nls.json) in the demo's display language. */
function manifestText(key) {
  const locale = argument("--locale");
  const strings = JSON.parse(readFileSync(path.join(repoRoot, locale ? `package.nls.${locale}.json` : "package.nls.json"), "utf8"));
  return strings[key];
}

/**
 * Opens the workbench in headless Chromium, runs `check(page, view)` on it (view: the chat view's
 * document) and saves a screenshot to test-results/<name>.png.
 */
async function withWorkbench(url, folder, name, check) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}?folder=${encodeURIComponent(folder)}`);
    // The walkthrough's step media are webviews too: the chat view is the one from this extension.
    const view = page.frameLocator('iframe.webview.ready[src*="extensionId=relay-chat.relay-chat"]').frameLocator("#active-frame");
    try {
      await check(page, view);
    } catch (error) {
      // What the page showed when the check gave up says more than the timeout does.
      mkdirSync(resultsDir, { recursive: true });
      await page.screenshot({ path: path.join(resultsDir, `${name}-failed.png`) }).catch(() => undefined);
      console.log(`Screenshot of the failure: ${path.relative(repoRoot, path.join(resultsDir, `${name}-failed.png`))}`);
      throw error;
    }
    // The pointer leaves the activity bar, so no tooltip covers the panel in the picture.
    await page.mouse.move(850, 450);
    await page.locator(".workbench-hover-container, .monaco-hover").first().waitFor({ state: "hidden", timeout: 5_000 }).catch(() => undefined);
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`Screenshot: ${path.relative(repoRoot, file)}`);
  } finally {
    await browser.close();
  }
}

const openRelayChat = (page) => page.locator('.activitybar .action-label[aria-label^="Relay Chat"]').click({ timeout: 60_000 });

/** --screenshot: one message sent, its answer completed. */
function screenshotCheck(url, folder) {
  return withWorkbench(url, folder, "demo", async (page, view) => {
    await openRelayChat(page);
    const message = view.getByLabel(panelText("Message"), { exact: true });
    await message.fill("Hello! What can you do?", { timeout: 60_000 });
    await message.press("Enter");
    // The check passes only when the answer completed: its receipt comes when the request has ended.
    const receipt = view.getByRole("region", { name: panelText("Turn details") }).first();
    await receipt.waitFor({ timeout: 60_000 });
    await view.locator(".turn-progress").first().waitFor({ state: "hidden", timeout: 60_000 });
    const shown = await receipt.innerText();
    if (!shown.includes(panelText("completed"))) throw new Error(`The demo answer did not complete; its receipt says: ${shown}`);
    // The demo workspace's AGENTS.md goes with every message: the Rules chip in the message box says so.
    await view.locator(".rules-chip").waitFor({ timeout: 60_000 });
  });
}

/** --fresh --screenshot: the walkthrough opened by itself and the panel says what is missing. */
function freshScreenshotCheck(url, folder) {
  return withWorkbench(url, folder, "demo-fresh", async (page, view) => {
    await page.locator(".gettingStartedContainer").getByText(manifestText("walkthrough.step.addRelay.title")).first().waitFor({ timeout: 60_000 });
    await openRelayChat(page);
    await view.getByText(panelText("No relay address is set.")).waitFor({ timeout: 60_000 });
  });
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
  const secondRelay = relay.emulated && !fresh ? await startEmulatedRelay("openrouter", relay.key, relayPort() === undefined ? undefined : relayPort() + 1) : null;
  const folder = writeDemoWorkspace();
  const wantedPort = Number(argument("--port") ?? 8080);
  const port = (await portIsFree(wantedPort)) ? wantedPort : undefined;
  const profile = mkdtempSync(path.join(os.tmpdir(), "relay-chat-demo-"));
  const userDataDir = path.join(profile, "user-data");
  const extensionsDir = path.join(profile, "extensions");
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  installVsix(vsix, { userDataDir, extensionsDir });
  const locale = argument("--locale");
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
      "relayChat.maxOutputTokens": 400,
      // The emulator's small-window model (test/emulator/scriptedModels.ts SMALL_CONTEXT_WINDOW): paste a long
      // text a few times and the panel offers Summarize earlier turns (the OpenRouter-like relay lists the window itself).
      ...(relay.emulated ? { "relayChat.contextWindows": { "small-window": 16000 } } : {}),
      "workbench.colorTheme": "Default Dark Modern",
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
  if (process.argv.includes("--screenshot")) {
    try {
      await (fresh ? freshScreenshotCheck : screenshotCheck)(server.url, folder);
    } finally {
      await stopAll();
    }
    return;
  }
  console.log(`\nRelay Chat is running in VS Code at ${server.url}?folder=${encodeURIComponent(folder)}`);
  if (fresh) {
    console.log("Fresh start: no relay is set. Open it in a browser and follow Get Started with Relay Chat, with:");
    console.log(`  base URL  ${relay.baseUrl}/v1`);
    // A real relay's key is never printed: the person has it.
    console.log(relay.emulated ? `  API key   ${relay.key}   (the emulator's throwaway key)` : "  API key   the one in RELAY_CHAT_API_KEY");
    if (relay.model) console.log(`  model     ${relay.model}`);
  } else {
    console.log("Open it in a browser, click the Relay Chat icon in the activity bar, and try:");
  }
  if (secondRelay) {
    console.log(`A second relay, "${SECOND_RELAY_NAME}", is in the model picker. Its key is stored per relay: run "Relay Chat: Set API Key",`);
    console.log(`pick "${SECOND_RELAY_NAME}" and enter ${secondRelay.key} (the emulator's throwaway key); its answers then show their cost and its balance.`);
  }
  console.log('  "Hello!"  ·  "Explain hello.ts"  ·  "Add a comment to hello.ts"  ·  "Run `ls`"  ·  "Write something long"');
  console.log("Press Ctrl-C to stop.");
  const shutdown = () => stopAll().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
