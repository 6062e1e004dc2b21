import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { bundleForBrowser } from "./support/browserBundle";
import { launchHeadlessChromium } from "./support/chromium";

// Focus Chat, in real Chromium: VS Code focuses the frame that hosts the panel's page first and, at least
// 50 ms later, the page itself (`activeFrame.contentWindow.focus()`), with nothing focused on it. The page
// puts the caret in the message box then, so what is typed from that moment goes there. Here the test's page
// is the hosting frame, with the panel's page in a same-origin iframe whose `parent` is itself, as VS Code
// makes it.

const hostingPage = `<!DOCTYPE html><body><iframe id="active-frame" srcdoc="<!DOCTYPE html><body><textarea aria-label=Message></textarea><p>An answer to select</p></body>"></iframe></body>`;

describe("Chat panel webview: the page taking the focus from Focus Chat (Chromium)", function () {
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

  /** The hosting frame focused and the panel's page listening; its box takes the focus when asked unless `dialogOpen`. */
  const open = async (dialogOpen = false): Promise<Page> => {
    const page = await browser.newPage();
    await page.setContent(hostingPage);
    await page.frameLocator("#active-frame").locator("textarea").waitFor();
    await page.addScriptTag({ content: bundle });
    await page.evaluate((dialog) => {
      const frame = (document.getElementById("active-frame") as HTMLIFrameElement).contentWindow as Window;
      Object.defineProperty(frame, "parent", { value: frame });
      window.focusOnArrival(() => {
        if (!dialog) (frame.document.querySelector("textarea") as HTMLTextAreaElement).focus();
      }, frame);
      document.body.focus();
      window.focus();
    }, dialogOpen);
    return page;
  };

  /** What VS Code's hosting frame does on its `focus` message. */
  const focusThePage = (page: Page) => page.evaluate(() => (document.getElementById("active-frame") as HTMLIFrameElement).contentWindow?.focus());
  const boxValue = (page: Page) => page.frameLocator("#active-frame").locator("textarea").inputValue();
  const activeInPage = (page: Page) => page.frameLocator("#active-frame").locator(":focus").evaluateAll((found) => found.map((element) => element.tagName));

  it("puts the caret in the message box when the page gets the focus, so the keys typed from then on go there", async () => {
    const page = await open();
    await focusThePage(page);
    assert.deepEqual(await activeInPage(page), ["TEXTAREA"]);
    await page.keyboard.type("quick typist");
    assert.equal(await boxValue(page), "quick typist");
    await page.close();
  });

  it("leaves the focus alone when a dialog is open, after a click, and when an answer is selected for copying", async () => {
    const withDialog = await open(true);
    await focusThePage(withDialog);
    assert.deepEqual(await activeInPage(withDialog), []);
    await withDialog.close();

    const clicked = await open();
    await clicked.frameLocator("#active-frame").locator("p").click();
    assert.deepEqual(await activeInPage(clicked), [], "a click on an answer chose where the focus is");
    await clicked.close();

    const selected = await open();
    await selected.evaluate(() => {
      const frame = (document.getElementById("active-frame") as HTMLIFrameElement).contentWindow as Window;
      frame.getSelection()?.selectAllChildren(frame.document.querySelector("p") as HTMLElement);
    });
    await focusThePage(selected);
    assert.deepEqual(await activeInPage(selected), []);
    assert.equal(await selected.evaluate(() => (document.getElementById("active-frame") as HTMLIFrameElement).contentWindow?.getSelection()?.toString()), "An answer to select");
    await selected.close();
  });
});
