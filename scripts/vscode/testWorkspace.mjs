// The folder the in-host tests open: test/integration/workspace/ copied into a temp dir if it exists,
// else a small default (a README and one source file).
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "./paths.mjs";

export function makeTestWorkspace(prefix = "relay-chat-workspace-") {
  const workspace = mkdtempSync(path.join(os.tmpdir(), prefix));
  const fixture = path.join(repoRoot, "test", "integration", "workspace");
  if (existsSync(fixture)) {
    cpSync(fixture, workspace, { recursive: true });
  } else {
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    writeFileSync(path.join(workspace, "README.md"), "# Sample workspace\n\nUsed by Relay Chat's in-host tests.\n");
    writeFileSync(path.join(workspace, "src", "greeting.js"), "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n");
  }
  return workspace;
}
