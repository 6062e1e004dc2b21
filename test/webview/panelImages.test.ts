import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Images in the composer (issue 21): pasted or dropped image files become removable thumbnails and go
// with the message beside its text; large ones are downscaled in the page, and one still over the byte
// limit is refused whole.

/** A 2 x 2 PNG. */
const TWO_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGMwXlUORAwQCgAkLgVRsvdxdgAAAABJRU5ErkJggg==";

/** Pastes (or drops) a `width` x `height` PNG made in the page; `noisy` fills it with random pixels so it compresses badly. */
async function deliverImage(page: Page, how: "paste" | "drop", name: string, width: number, height: number, noisy = false): Promise<void> {
  await page.evaluate(
    async ({ how, name, width, height, noisy }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext("2d");
      if (context === null) throw new Error("no 2d context");
      if (noisy) {
        const pixels = context.createImageData(width, height);
        for (let index = 0; index < pixels.data.length; index += 1) pixels.data[index] = Math.floor(Math.random() * 256);
        context.putImageData(pixels, 0, 0);
      } else {
        context.fillStyle = "#3a7";
        context.fillRect(0, 0, width, height);
      }
      const blob = await canvas.convertToBlob({ type: "image/png" });
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], name, { type: "image/png" }));
      const target = document.querySelector(how === "paste" ? ".message-input" : ".composer");
      if (target === null) throw new Error("no composer");
      const event = how === "paste" ? new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }) : new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { how, name, width, height, noisy },
  );
}

/** The pixel size of a base64 image, measured in the page. */
function sizeOf(page: Page, mediaType: string, data: string): Promise<[number, number]> {
  return page.evaluate(async ({ mediaType, data }) => {
    // Decoded here: the panel's CSP allows no fetch, not even of a data URL.
    const bytes = Uint8Array.from(atob(data), (character) => character.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: mediaType }));
    return [bitmap.width, bitmap.height] as [number, number];
  }, { mediaType, data });
}

describe("Chat panel webview: images in the composer (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("shows a pasted image as a removable thumbnail and sends it beside the text", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ context: { estimatedTokens: 10, windowTokens: null, tokensPerImage: 765 } }));
    await deliverImage(page, "paste", "screenshot.png", 40, 30);
    const thumbnail = page.locator(".image-thumbnail img");
    await thumbnail.waitFor();
    assert.equal(await page.locator(".context-meter").getAttribute("aria-valuenow"), "775", "the meter counts the image by the host's estimate");
    assert.equal(await thumbnail.getAttribute("alt"), "screenshot.png");
    assert.match((await thumbnail.getAttribute("src")) ?? "", /^data:image\/png;base64,/);
    // Only an image, no text: Send is still possible.
    assert.equal(await page.getByRole("button", { name: "Send" }).isDisabled(), false);

    await deliverImage(page, "paste", "second.png", 20, 20);
    await page.locator(".image-thumbnail").nth(1).waitFor();
    await page.getByRole("button", { name: "Remove image second.png" }).click();
    assert.equal(await page.locator(".image-thumbnail").count(), 1);

    await panel.clearPosted();
    await page.locator(".message-input").fill("What is in this picture?");
    await page.keyboard.press("Enter");
    const posted = await panel.posted();
    assert.equal(posted.length, 1);
    const sent = posted[0];
    assert.ok(sent?.type === "send" && sent.images?.length === 1);
    assert.equal(sent.text, "What is in this picture?");
    assert.equal(sent.images[0]?.mediaType, "image/png");
    assert.deepEqual(await sizeOf(page, "image/png", sent.images[0]?.data ?? ""), [40, 30]);
    assert.equal(await page.locator(".image-thumbnail").count(), 0, "the thumbnails went with the message");
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });

  it("shows a sent message's images as thumbnails the host serves as data URLs, and opens one large on click", async () => {
    const { page } = panel;
    const [first, second] = ["a".repeat(64) + ".png", "b".repeat(64) + ".png"];
    await panel.clearPosted();
    await panel.sendState(panelState({ turns: [turn("t1", { images: [first, second] })] }));
    assert.deepEqual(
      (await panel.posted()).filter((message) => message.type === "loadImage"),
      [
        { type: "loadImage", name: first },
        { type: "loadImage", name: second },
      ],
    );
    await panel.send({ type: "image", name: first, dataUrl: `data:image/png;base64,${TWO_PIXEL_PNG}` });
    // Anything but an image data URL is not shown (the host sends none; the page does not trust that).
    await panel.send({ type: "image", name: second, dataUrl: "https://example.com/tracker.png" });
    const thumbnails = page.locator(".sent-images img");
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>(".sent-images img")?.naturalWidth ?? 0) === 2);
    assert.equal(await thumbnails.nth(1).getAttribute("src"), null);
    assert.equal(await thumbnails.nth(1).getAttribute("class"), "missing");
    await page.getByRole("button", { name: "View Image 1 large" }).click();
    const viewer = page.locator("dialog.image-viewer");
    assert.equal(await viewer.isVisible(), true);
    assert.equal(await viewer.locator("img").getAttribute("src"), `data:image/png;base64,${TWO_PIXEL_PNG}`);
    await page.keyboard.press("Escape");
    assert.equal(await viewer.isVisible(), false);
    // A turn drawn again (another patch) uses the data it has and asks for nothing more.
    await panel.clearPosted();
    await panel.sendState(panelState({ turns: [turn("t1", { images: [first], userText: "edited" })] }));
    assert.equal(await page.locator(".sent-images img").getAttribute("src"), `data:image/png;base64,${TWO_PIXEL_PNG}`);
    assert.deepEqual((await panel.posted()).filter((message) => message.type === "loadImage"), []);
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });

  it("offers to send a message whose images the model refused again without them", async () => {
    const { page } = panel;
    const refused = turn("t1", {
      images: ["c".repeat(64) + ".png"],
      outcome: "http_error",
      outcomeLabel: "HTTP 400",
      explanation: "image_url is only supported by certain models. This model does not accept images.",
      fixes: ["selectModel"],
      actions: ["resendWithoutImages", "retry"],
    });
    await panel.sendState(panelState({ turns: [refused] }));
    await panel.clearPosted();
    await page.getByRole("button", { name: "Send again without images" }).click();
    assert.deepEqual((await panel.posted()).filter((message) => message.type !== "loadImage"), [{ type: "resendWithoutImages", turnId: "t1" }]);
  });

  it("opens a thumbnail of the message box large", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    await deliverImage(page, "paste", "shot.png", 40, 30);
    await page.getByRole("button", { name: "View shot.png large" }).click();
    assert.equal(await page.locator("dialog.image-viewer").isVisible(), true);
    await page.locator("dialog.image-viewer").click();
    assert.equal(await page.locator("dialog.image-viewer").isVisible(), false, "a click closes it");
  });

  it("downscales a dropped image to the longest side the settings allow", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ imageLimits: { maxLongestSide: 500, maxBytes: 5 * 1024 * 1024 } }));
    await deliverImage(page, "drop", "wide.png", 2000, 800);
    await page.locator(".image-thumbnail img").waitFor();
    await panel.clearPosted();
    await page.getByRole("button", { name: "Send" }).click();
    const sent = (await panel.posted())[0];
    assert.ok(sent?.type === "send" && sent.images?.length === 1);
    assert.deepEqual(await sizeOf(page, sent.images[0]?.mediaType ?? "", sent.images[0]?.data ?? ""), [500, 200]);
  });

  it("refuses an image still over the byte limit after downscaling, and attaches nothing of it", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ imageLimits: { maxLongestSide: 300, maxBytes: 10 * 1024 } }));
    await deliverImage(page, "paste", "noise.png", 600, 600, true);
    const problem = page.locator(".image-problem");
    await page.waitForFunction(() => (document.querySelector(".image-problem")?.textContent ?? "") !== "");
    assert.match((await problem.textContent()) ?? "", /noise\.png is larger than .* MB even after downscaling/);
    assert.equal(await problem.getAttribute("role"), "alert");
    assert.equal(await page.locator(".image-thumbnail").count(), 0);
    assert.equal(await page.getByRole("button", { name: "Send" }).isDisabled(), true);
  });
});
