// Bundles the extension host code, the CLI and the webview with esbuild.
// The extension host loads CommonJS; `vscode` is provided by the host and never bundled.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";

const production = process.argv.includes("--production");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning" };

const targets = [
  { entryPoints: ["src/cli/main.ts"], outfile: "dist/cli.js", platform: "node", format: "cjs", target: "node20", banner: { js: "#!/usr/bin/env node" } },
  { entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", platform: "node", format: "cjs", target: "node20", external: ["vscode"] },
  // The checkpoint helper thread's code (src/tools/checkpointHelper.ts starts it from beside extension.js).
  { entryPoints: ["src/tools/checkpointWorker.ts"], outfile: "dist/checkpointWorker.js", platform: "node", format: "cjs", target: "node20" },
  { entryPoints: ["media/main.ts"], outfile: "media/dist/webview.js", platform: "browser", format: "iife", target: "chrome120" },
  // Loaded by the webview on demand (media/render/highlighterLoader.ts), beside webview.js, once a code block
  // is finished: syntax highlighting never weighs on activation or the first paint.
  { entryPoints: ["media/render/highlighterChunk.ts"], outfile: "media/dist/highlighter.js", platform: "browser", format: "iife", target: "chrome120" },
];

await Promise.all(
  targets.filter((target) => existsSync(target.entryPoints[0])).map((target) => build({ ...common, ...target })),
);

// The webview's icons: VS Code's codicon font, shipped with the extension (the webview cannot use the
// workbench's copy).
mkdirSync("media/dist", { recursive: true });
for (const name of ["codicon.css", "codicon.ttf"]) copyFileSync(`node_modules/@vscode/codicons/dist/${name}`, `media/dist/${name}`);
