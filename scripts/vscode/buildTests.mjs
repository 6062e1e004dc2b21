// Bundles the in-host integration tests (test/integration/*.ts) into dist/test/integration/, one
// CommonJS file per entry, for the real extension host. `vscode` is provided by the host; mocha is
// resolved at run time from the repository's node_modules (its test files are loaded with require).
//
//   node scripts/vscode/buildTests.mjs
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths.mjs";

const sourceDir = path.join(repoRoot, "test", "integration");
const outDir = path.join(repoRoot, "dist", "test", "integration");

const entryPoints = readdirSync(sourceDir)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
  .map((name) => path.join(sourceDir, name));

const started = Date.now();
rmSync(outDir, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: outDir,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: true,
  external: ["vscode", "mocha"],
  logLevel: "warning",
});
console.log(`built ${entryPoints.length} in-host test file(s) into ${path.relative(repoRoot, outDir)} (${Date.now() - started} ms)`);
