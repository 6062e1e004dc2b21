import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { bundleForBrowser } from "./browserBundle";
import { launchHeadlessChromium } from "./chromium";
import { startHarnessServer } from "./harnessServer";
import type { HarnessServer } from "./harnessServer";

export const renderHarnessEntry = join(__dirname, "..", "browser", "renderHarness.ts");
const mediaRoot = join(__dirname, "..", "..", "..", "media");

export interface HarnessPage {
  readonly page: Page;
  /** Uncaught errors and console errors seen in the page. */
  readonly pageErrors: string[];
}

/**
 * One Chromium and one loopback server per test file or benchmark; pages are opened as needed. The entry
 * point marks the page ready with `data-harness-ready` on the root element.
 */
export class RenderHarnessSession {
  private constructor(
    private readonly browser: Browser,
    private readonly server: HarnessServer,
  ) {}

  /** `browserArgs` are added to Chromium's command line (the benchmark exposes `gc()`). */
  static async start(entryPoint = renderHarnessEntry, browserArgs: readonly string[] = []): Promise<RenderHarnessSession> {
    const [bundle, highlighter, codeBlockStyles] = await Promise.all([
      bundleForBrowser(entryPoint),
      bundleForBrowser(join(mediaRoot, "render", "highlighterChunk.ts")),
      readFile(join(mediaRoot, "codeBlocks.css"), "utf8"),
    ]);
    const server = await startHarnessServer(bundle, highlighter, codeBlockStyles);
    try {
      return new RenderHarnessSession(await launchHeadlessChromium(browserArgs), server);
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  openStrictPage(): Promise<HarnessPage> {
    return this.open(this.server.strictPageUrl);
  }

  openUnprotectedPage(): Promise<HarnessPage> {
    return this.open(this.server.unprotectedPageUrl);
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.server.close();
  }

  private async open(url: string): Promise<HarnessPage> {
    const page = await this.browser.newPage({ viewport: { width: 800, height: 900 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    // Chromium never gets to leave loopback, whatever a vector tries.
    await page.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(url);
    // A string expression: this module is also compiled without DOM types (by the benchmark).
    await page.waitForFunction('document.documentElement.dataset.harnessReady === "true"');
    return { page, pageErrors };
  }
}
