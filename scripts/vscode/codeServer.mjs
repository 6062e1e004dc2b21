// Starts and stops code-server (a real VS Code server) for tests, with a throwaway profile.
// Install it first: node scripts/vscode/installCodeServer.mjs
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { codeServerBin, node24Bin } from "./paths.mjs";

const defaultSettings = {
  "telemetry.telemetryLevel": "off",
  "workbench.startupEditor": "none",
  "workbench.enableExperiments": false,
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "update.showReleaseNotes": false,
  "security.workspace.trust.enabled": false,
  "git.enabled": false,
  "chat.disableAIFeatures": true,
  "chat.commandCenter.enabled": false,
  "github.copilot.enable": { "*": false },
};

/** Workspace trust on, and nothing that would trust the folder or ask about it: it simply stays untrusted. */
const untrustedSettings = {
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "never",
  "security.workspace.trust.emptyWindow": false,
};

function ensureInstalled() {
  if (!existsSync(node24Bin) || !existsSync(codeServerBin)) {
    throw new Error("code-server is not installed: run `node scripts/vscode/installCodeServer.mjs` first");
  }
}

/** A scratch HOME so code-server writes its config.yaml and caches there, never in the real one. */
function scratchHome(baseDir) {
  const home = path.join(baseDir, "home");
  for (const dir of [home, path.join(home, ".config"), path.join(home, ".local", "share"), path.join(home, ".cache")]) {
    mkdirSync(dir, { recursive: true });
  }
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Machine-scoped settings the extension reads: code-server's extension host is remote and does not see them in the User settings. */
const MACHINE_SETTINGS = ["workbench.welcomePage.walkthroughs.openOnInstall"];

export function writeUserSettings(userDataDir, settings = {}) {
  const userDir = path.join(userDataDir, "User");
  mkdirSync(userDir, { recursive: true });
  const merged = { ...defaultSettings, ...settings };
  writeFileSync(path.join(userDir, "settings.json"), `${JSON.stringify(merged, null, 2)}\n`);
  // The same values as the remote machine's settings, where a remote extension host reads them.
  const machineDir = path.join(userDataDir, "Machine");
  mkdirSync(machineDir, { recursive: true });
  const machine = Object.fromEntries(MACHINE_SETTINGS.filter((name) => name in merged).map((name) => [name, merged[name]]));
  writeFileSync(path.join(machineDir, "settings.json"), `${JSON.stringify(machine, null, 2)}\n`);
}

/** Installs a VSIX into the given profile with code-server's CLI (about 0.5 s). */
export function installVsix(vsixPath, { userDataDir, extensionsDir }) {
  ensureInstalled();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "relay-chat-vsix-"));
  const home = scratchHome(scratch);
  const result = spawnSync(
    node24Bin,
    [codeServerBin, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir, "--force", "--install-extension", path.resolve(vsixPath)],
    { encoding: "utf8", env: { ...process.env, ...home } },
  );
  rmSync(scratch, { recursive: true, force: true });
  if (result.status !== 0 || /Failed Installing/i.test(result.stdout + result.stderr)) {
    throw new Error(`installing ${vsixPath} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout.trim();
}

async function waitForHealth(url, child, timeoutMs, output) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(new URL("healthz", url), { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`code-server was not healthy within ${timeoutMs} ms:\n${output()}`);
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Starts code-server on 127.0.0.1 with a fresh profile.
 * Options: workspaceFolder (opened by default), extensionsDir, userDataDir (both default to fresh temp
 * dirs), settings (merged over quiet defaults), env (added to code-server's, and so the extension
 * host's, environment), port, log (a function for code-server's output lines; default: kept, shown on
 * failure; RELAY_CHAT_CODE_SERVER_LOG=1 echoes them), extraArgs, workspaceTrust ("disabled", the default:
 * every folder is trusted; "untrusted": workspace trust is on and the opened folder is not trusted, with no
 * prompt, so the extension host runs in restricted mode as in a freshly cloned repository).
 * Returns { url, port, userDataDir, extensionsDir, startMs, stop() }.
 */
export async function startCodeServer(options = {}) {
  ensureInstalled();
  const started = Date.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "relay-chat-code-server-"));
  const userDataDir = options.userDataDir ?? path.join(scratch, "user-data");
  const extensionsDir = options.extensionsDir ?? path.join(scratch, "extensions");
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const untrusted = options.workspaceTrust === "untrusted";
  writeUserSettings(userDataDir, { ...(untrusted ? untrustedSettings : {}), ...options.settings });
  const home = scratchHome(scratch);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}/`;

  const args = [
    codeServerBin,
    "--bind-addr", `127.0.0.1:${port}`,
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    ...(untrusted ? [] : ["--disable-workspace-trust"]),
    "--disable-getting-started-override",
    "--ignore-last-opened",
    "--reconnection-grace-time", "5",
    "--vscode-option", "enable-smoke-test-driver",
    "--user-data-dir", userDataDir,
    "--extensions-dir", extensionsDir,
    ...(options.extraArgs ?? []),
    ...(options.workspaceFolder ? [options.workspaceFolder] : []),
  ];
  const env = { ...process.env, ...home, ...(options.env ?? {}) };
  // The extension host should not inherit test-runner variables that change Node's behaviour.
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(node24Bin, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });

  const lines = [];
  const echo = options.log ?? (process.env.RELAY_CHAT_CODE_SERVER_LOG ? (line) => console.log(`[code-server] ${line}`) : undefined);
  const collect = (chunk) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > 400) lines.shift();
      echo?.(line);
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const output = () => lines.join("\n");

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
    // The extension host and its helpers run in the same process group: make sure none outlive us.
    killGroup(child, "SIGKILL");
    if (!options.keepProfile) rmSync(scratch, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, options.startTimeoutMs ?? 30_000, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, userDataDir, extensionsDir, startMs: Date.now() - started, output, stop, pid: child.pid };
}
