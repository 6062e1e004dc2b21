import { build } from "esbuild";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Bundles a browser entry point (an IIFE, like the real webview bundle) and returns its source. */
export async function bundleForBrowser(entryPoint: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "relay-chat-webview-"));
  try {
    const outfile = join(directory, "bundle.js");
    await build({
      entryPoints: [entryPoint],
      outfile,
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "chrome120",
      logLevel: "warning",
    });
    return await readFile(outfile, "utf8");
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
