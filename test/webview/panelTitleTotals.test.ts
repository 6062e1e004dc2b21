import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TotalsView } from "../../src/panel/protocol";
import { conversationState, receipt, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { PanelHarness } from "./support/panelHarness";
import type { ThemeName } from "./support/panelHarness";

// Issue 27: the title line's totals were hidden at 300 px (all of them for a relay without prices), showed
// "$0.0016+   · 2 requests" with a stray gap, and tokens with parts unknown carried no mark. They now stay
// visible at every width, separated by one " · ", with "+" where a part is unknown.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

async function visibleBox(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `${selector} is on screen`);
  const viewport = page.viewportSize()!;
  assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 0.5, `${selector} is inside the panel (${box.x}+${box.width})`);
  return box;
}

const withCost: TotalsView = { requests: 2, inputTokens: 4_800, cachedTokens: 0, outputTokens: 1_380, requestsWithoutUsage: 0, requestsWithUsage: 2, cost: { amount: 0.0016, currency: "USD", estimated: false }, requestsWithoutCost: 1 };
const noPrices: TotalsView = { requests: 5, inputTokens: 48_100, cachedTokens: 30_000, outputTokens: 3_210, requestsWithoutUsage: 1, requestsWithUsage: 4, cost: null, requestsWithoutCost: 5 };

describe("Chat panel webview: the title line's totals (Chromium)", function () {
  this.timeout(120_000);
  let harness: PanelHarness;

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    harness = await PanelHarness.start();
  });

  after(async () => {
    await harness?.close();
  });

  const themes: ThemeName[] = ["dark", "light"];
  for (const width of [300, 480]) {
    for (const theme of themes) {
      it(`shows cost, requests and tokens at ${width} px (${theme}), one separator between parts`, async () => {
        const panel = await harness.open({ width, height: 500, theme });
        try {
          await panel.sendState({ ...conversationState(), title: "A rather long conversation title about sorting vectors", totals: withCost });
          const text = await panel.page.locator(".totals-visible").innerText();
          const tokens = width < 360 ? "6.2K tokens" : "4.8K in · 1.4K out";
          assert.equal(text, `$0.0016+ · 2 requests · ${tokens}`);
          const cost = await visibleBox(panel.page, ".conversation-cost");
          const separator = await visibleBox(panel.page, ".totals-separator >> nth=0");
          assert.ok(separator.x - (cost.x + cost.width) < 2, `no gap between the cost and its separator (${separator.x - (cost.x + cost.width)} px)`);
          await visibleBox(panel.page, ".totals-requests");
          await visibleBox(panel.page, width < 360 ? ".totals-short" : ".totals-long");
          await visibleBox(panel.page, ".title-text");
          assert.deepEqual(await panel.page.evaluate(panelLayoutProblems), []);
          await panel.page.locator(".panel-header").screenshot({ path: join(screenshots, `title-totals-${width}-${theme}.png`) });
          assert.deepEqual(panel.pageErrors, []);
        } finally {
          await panel.page.close();
        }
      });
    }
  }

  it("stays visible at 300 px for a relay without prices, with tokens marked where a request's usage is unknown", async () => {
    const panel = await harness.open({ width: 300, height: 500, theme: "dark" });
    try {
      await panel.sendState({ ...conversationState(), totals: noPrices });
      assert.equal(await panel.page.locator(".conversation-cost").count(), 0, "no cost, not $0");
      assert.equal(await panel.page.locator(".totals-visible").innerText(), "5 requests · 51.3K+ tokens");
      await visibleBox(panel.page, ".totals-requests");
      await visibleBox(panel.page, ".totals-short");
      const tooltip = (await panel.page.locator(".conversation-totals").getAttribute("title")) ?? "";
      assert.match(tooltip, /1 request without reported usage: its tokens are unknown/);
      assert.match(await panel.page.locator(".conversation-totals .visually-hidden").textContent() ?? "", /5 requests, 48,100 input tokens/, "screen readers get the exact figures");
      await panel.page.locator(".panel-header").screenshot({ path: join(screenshots, "title-totals-300-dark-no-prices.png") });
    } finally {
      await panel.page.close();
    }
  });

  it("says tokens unknown as the receipt does when no request reported usage (one refused with HTTP 401), not 0 in · 0 out", async () => {
    const panel = await harness.open({ width: 480, height: 500, theme: "dark" });
    try {
      const refused = receipt({ outcome: "http_error", outcomeLabel: "HTTP 401", usage: null, httpStatus: 401, requestId: "req_refused" });
      const state = conversationState();
      await panel.sendState({
        ...state,
        turns: [turn("t1", { outcome: "http_error", outcomeLabel: "HTTP 401", answerText: "", receipts: [refused] })],
        // What the host computes for it: a refused request is not "without usage" (it cost nothing), and reported none.
        totals: { requests: 1, inputTokens: 0, cachedTokens: 0, outputTokens: 0, requestsWithoutUsage: 0, requestsWithUsage: 0, cost: null, requestsWithoutCost: 1 },
      });
      assert.equal(await panel.page.locator(".totals-visible").innerText(), "1 request · tokens unknown");
      assert.match(await panel.page.locator(".receipt-line").innerText(), /tokens unknown/);
    } finally {
      await panel.page.close();
    }
  });

  it("marks the wide form too, and updates with each patch (five requests after five)", async () => {
    const panel = await harness.open({ width: 480, height: 500, theme: "dark" });
    try {
      await panel.sendState({ ...conversationState(), totals: { ...noPrices, requests: 1, requestsWithoutUsage: 0, requestsWithUsage: 1 } });
      assert.equal(await panel.page.locator(".totals-visible").innerText(), "1 request · 48.1K in · 3.2K out");
      await panel.sendPatch({ kind: "fields", fields: { totals: noPrices } });
      assert.equal(await panel.page.locator(".totals-visible").innerText(), "5 requests · 48.1K+ in · 3.2K+ out");
      await panel.sendPatch({ kind: "fields", fields: { totals: null } });
      assert.equal(await panel.page.locator(".conversation-totals").isVisible(), false, "a new chat has no totals");
    } finally {
      await panel.page.close();
    }
  });
});
