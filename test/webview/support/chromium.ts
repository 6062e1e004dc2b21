import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";

// Debian's Chromium; tests and benchmarks never download a browser.
export const chromiumExecutablePath = process.env["RELAY_CHAT_CHROMIUM"] ?? "/usr/lib/chromium/chromium";

export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}
