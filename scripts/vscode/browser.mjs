// Debian Chromium driven by playwright-core, for the code-server workbench.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "./paths.mjs";

/** Launches headless Chromium with a fresh profile; resolves to { context, page, close() }. */
export async function launchBrowser({ headless = process.env.RELAY_CHAT_HEADED ? false : true, viewport = { width: 1400, height: 900 } } = {}) {
  const profile = mkdtempSync(path.join(os.tmpdir(), "relay-chat-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless,
    args: chromiumArgs,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const close = async () => {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}

/** The workbench address for code-server at `url` opening `folder`, with an optional test payload. */
export function workbenchUrl(url, folder, payload) {
  const address = new URL(url);
  address.searchParams.set("folder", folder);
  if (payload) address.searchParams.set("payload", JSON.stringify(payload));
  return address.toString();
}

/** A `vscode-remote://` URI for a local path, with exactly the host:port the browser loads. */
export function remoteUri(url, absolutePath) {
  const { host } = new URL(url);
  return `vscode-remote://${host}${absolutePath.split(path.sep).map(encodeURIComponent).join("/")}`;
}
