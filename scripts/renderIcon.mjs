// Renders media/icon.svg to the 128 px media/icon.png the marketplace shows (`node scripts/renderIcon.mjs`),
// with the Chromium the UI tests use. The PNG is committed; run this again after changing the SVG.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromiumArgs, chromiumPath, repoRoot } from "./vscode/paths.mjs";

const { chromium } = await import("playwright-core");
const svg = readFileSync(path.join(repoRoot, "media", "icon.svg"), "utf8");
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator("svg").screenshot({ path: path.join(repoRoot, "media", "icon.png"), omitBackground: true });
} finally {
  await browser.close();
}
