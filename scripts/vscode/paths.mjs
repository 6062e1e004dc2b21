// Where the real-VS Code test tooling lives. Everything is under the gitignored cache .vscode-test/.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cacheDir = path.join(repoRoot, ".vscode-test");

export const node24Version = process.env.RELAY_CHAT_NODE24_VERSION ?? "24.21.0";
export const codeServerVersion = process.env.RELAY_CHAT_CODE_SERVER_VERSION ?? "4.139.1";

export const node24Dir = path.join(cacheDir, "node24");
export const node24Bin = path.join(node24Dir, "bin", "node");
export const codeServerDir = path.join(cacheDir, "code-server");
export const codeServerBin = path.join(codeServerDir, "node_modules", "code-server", "out", "node", "entry.js");

const chromiumLaunch = JSON.parse(readFileSync(path.join(repoRoot, "test", "support", "chromiumLaunch.json"), "utf8"));
export const chromiumPath = process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath;
export const chromiumArgs = chromiumLaunch.args;
export const resultsDir = path.join(repoRoot, "test-results");
