// The small extension with language-model tools (test/integration/lmToolExtension) that the tests of
// "tools from other extensions" need beside Relay Chat. It is copied into the profile's extensions folder
// as an installed extension would be unpacked there; VS Code picks it up at start.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths.mjs";

export const testToolExtensionPath = path.join(repoRoot, "test", "integration", "lmToolExtension");

/** Copies the test tool extension into `extensionsDir`; returns its id. */
export function installTestToolExtension(extensionsDir) {
  const { publisher, name, version } = JSON.parse(readFileSync(path.join(testToolExtensionPath, "package.json"), "utf8"));
  cpSync(testToolExtensionPath, path.join(extensionsDir, `${publisher}.${name}-${version}`), { recursive: true });
  return `${publisher}.${name}`;
}
