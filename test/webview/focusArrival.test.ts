import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { bundleForBrowser } from "./support/browserBundle";
import { launchHeadlessChromium } from "./support/chromium";

// Keys typed right after Focus Chat, in real Chromium: VS Code focuses the frame that hosts the panel's page
// first and the page about 50 ms later, so the first keys land in the hosting frame, where they were lost
// ("uick typist"). Here the test's page is that hosting frame, with the panel's page in a same-origin iframe.

const hostingPage = `<!DOCTYPE html><body><iframe id="active-frame" srcdoc="<!DOCTYPE html><body><textarea aria-label=Message></textarea><p>An answer</p></body>"></iframe></body>`;

describe("Chat panel webview: keys typed before the page has the focus (Chromium)", function () {
  this.timeout(60_000);
  let browser: Browser;
  let bundle: string;

  before(async () => {
    bundle = await bundleForBrowser(join(__dirname, "browser", "focusArrivalHarness.ts"));
    browser = await launchHeadlessChromium();
  });

  after(async () => {
    await browser?.close();
  });

  /** The hosting frame focused, the panel's page listening, its box taking the focus when asked unless `dialogOpen`. */
  const open = async (dialogOpen = false): Promise<Page> => {
    const page = await browser.newPage();
    await page.setContent(hostingPage);
    await page.frameLocator("#active-frame").locator("textarea").waitFor();
    await page.addScriptTag({ content: bundle });
    await page.evaluate((dialog) => {
      const frame = (document.getElementById("active-frame") as HTMLIFrameElement).contentWindow as Window;
      window.focusOnArrival(() => {
        if (!dialog) (frame.document.querySelector("textarea") as HTMLTextAreaElement).focus();
      }, frame);
      document.body.focus();
      window.focus();
    }, dialogOpen);
    return page;
  };

  const boxValue = (page: Page) => page.frameLocator("#active-frame").locator("textarea").inputValue();

  it("types every key that lands in the hosting frame into the message box, in order", async () => {
    const page = await open();
    await page.keyboard.type("quick typist");
    assert.equal(await boxValue(page), "quick typist");
    // The box's undo history has them: Ctrl+Z takes them back.
    await page.keyboard.press("Control+z");
    assert.notEqual(await boxValue(page), "quick typist");
    await page.close();
  });

  it("leaves shortcuts and named keys to VS Code, and keys alone when nothing took the focus", async () => {
    const page = await open();
    await page.keyboard.press("Control+b");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Escape");
    assert.equal(await boxValue(page), "");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "BODY", "the box did not take the focus for them");
    await page.close();

    const withDialog = await open(true);
    await withDialog.keyboard.type("ab");
    assert.equal(await boxValue(withDialog), "");
    await withDialog.close();
  });
});
