import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
import chromiumLaunch from "../../support/chromiumLaunch.json";

// Debian's Chromium; tests and benchmarks never download a browser.
export const chromiumExecutablePath = process.env["CHROMIUM_PATH"] ?? chromiumLaunch.executablePath;

export function launchHeadlessChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [...chromiumLaunch.args, ...extraArgs],
  });
}
