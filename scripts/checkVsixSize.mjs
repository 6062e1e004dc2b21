// Fails when a packaged VSIX is over 1 MB (`npm run package` runs it on the package it wrote): the README's
// screenshots are the easiest way to grow it unnoticed (scripts/readmeImages.mjs makes them small WebP).
//   node scripts/checkVsixSize.mjs [FILE.vsix]   (default: the package.json version's relay-chat-<version>.vsix)
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./vscode/paths.mjs";

const maxVsixBytes = 1024 * 1024;

const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const file = path.resolve(process.argv[2] ?? path.join(repoRoot, `${name}-${version}.vsix`));
const bytes = statSync(file).size;
const summary = `${path.relative(process.cwd(), file)} is ${(bytes / 1024).toFixed(0)} KB (limit ${maxVsixBytes / 1024} KB)`;
if (bytes > maxVsixBytes) {
  console.error(`${summary}: too large. See what it holds with \`npx vsce ls --tree\`; re-encode screenshots with scripts/readmeImages.mjs.`);
  process.exit(1);
}
console.log(summary);
