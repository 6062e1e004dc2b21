import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { PanelState } from "../../src/panel/protocol";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { PanelHarness } from "./support/panelHarness";
import type { PanelPage, ThemeName } from "./support/panelHarness";

// The panel at the widths side bars have (280 px is VS Code's narrowest, 300 and 480 are common): every
// part of a receipt is on screen and whole (nothing cut to "r…" or "(+1 request without usa", nothing
// hidden, the details chevron inside the view), and the `#` menu's entry names stay whole while their
// descriptions give way. Screenshots in test-results/webview/narrow-*.png.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");
const WIDTHS = [280, 300, 480];

/** A Continue stopped by the person: the first request's usage known, the stopped one's not, model settings sent. */
function stoppedContinue(): PanelState {
  const sentWith = { reasoningEffort: "high", temperature: 0.2, maxOutputTokens: 4000 };
  return panelState({
    turns: [
      turn("t1", {
        userText: "Write the migration guide",
        answerText: "## Migration\n\nThe first part of a long answer.",
        outcome: "cancelled",
        outcomeLabel: "cancelled",
        actions: ["retry"],
        receipts: [
          receipt({ purpose: "send", outcome: "incomplete", outcomeLabel: "incomplete (max_output_tokens)", usage: { inputTokens: 486, cachedTokens: 0, outputTokens: 400, reasoningTokens: 0 }, latencyMs: 8_200, requestId: "req_9b2c7e1f0a4d4e2a8f11c0ffee", sentWith }),
          receipt({ purpose: "continue", outcome: "cancelled", outcomeLabel: "cancelled", usage: null, latencyMs: 1_900, firstByteMs: 600, requestId: "req_4f1d0c9e8b7a6f5e4d3c2b1a09", sentWith }),
        ],
      }),
    ],
  });
}

/** What of the receipt line is cut, hidden or outside the receipt, as sentences. */
function receiptProblems(): string[] {
  const problems: string[] = [];
  const receiptBox = (document.querySelector(".turn-receipt") as HTMLElement).getBoundingClientRect();
  const viewWidth = document.documentElement.clientWidth;
  for (const part of Array.from(document.querySelectorAll<HTMLElement>(".receipt-line > *:not(.spacer), .receipt-line code, .receipt-line button"))) {
    const name = part.className || part.tagName;
    if (part.getClientRects().length === 0) {
      problems.push(`${name} is hidden`);
      continue;
    }
    const box = part.getBoundingClientRect();
    if (box.left < receiptBox.left - 0.5 || box.right > receiptBox.right + 0.5 || box.right > viewWidth) problems.push(`${name} is outside the receipt (${Math.round(box.left)}–${Math.round(box.right)} of ${Math.round(receiptBox.left)}–${Math.round(receiptBox.right)})`);
    if (part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflow !== "visible") problems.push(`${name} is cut: "${part.textContent}"`);
  }
  return problems;
}

describe("Chat panel webview: the receipt and the # menu at narrow widths (Chromium)", function () {
  this.timeout(120_000);
  let harness: PanelHarness;

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    harness = await PanelHarness.start();
  });

  after(async () => {
    await harness?.close();
  });

  /** `check` on a fresh page of this width in each theme looked at (both at 280 and 480 px, for the screenshots), closed after. */
  const inThemes = async (width: number, check: (panel: PanelPage, theme: ThemeName) => Promise<void>) => {
    const themes: ThemeName[] = width === 300 ? ["dark"] : ["dark", "light"];
    for (const theme of themes) {
      const panel = await harness.open({ width, height: 640, theme });
      try {
        await check(panel, theme);
        assert.deepEqual(panel.pageErrors, []);
      } finally {
        await panel.page.close();
      }
    }
  };

  for (const width of WIDTHS) {
    it(`shows every part of a stopped Continue's receipt, whole, and opens its details at ${width} px`, async () => {
      await inThemes(width, async (panel, theme) => {
        const { page } = panel;
        await panel.sendState(stoppedContinue());
        const line = page.locator(".receipt-line");
        assert.deepEqual(await page.evaluate(receiptProblems), [], `${theme} at ${width} px`);
        const text = await line.innerText();
        for (const part of ["486 in · 400 out", "(+1 request without usage)", "10.1 s", "effort high · temp 0.2 · max 4000", "2 requests", "req_4f1d0c9e8b7a6f5e4d3c2b1a09"]) {
          assert.ok(text.replace(/\s+/g, " ").includes(part), `"${part}" on the line at ${width} px: ${text}`);
        }
        await page.screenshot({ path: join(screenshots, `narrow-receipt-${width}-${theme}.png`) });
        // A person's click on the chevron (Playwright refuses a click outside the view).
        await line.getByRole("button", { name: "Show request details" }).click({ timeout: 5_000 });
        await page.getByText("Request 2 of 2: Continue").waitFor({ timeout: 5_000 });
        assert.deepEqual(await page.evaluate(panelLayoutProblems), []);
      });
    });

    it(`keeps the # menu's entry names whole and shortens their descriptions at ${width} px`, async () => {
      await inThemes(width, async (panel, theme) => {
        const { page } = panel;
        await panel.sendState(panelState());
        const box = page.getByLabel("Message", { exact: true });
        await box.pressSequentially("#");
        await panel.waitForPosted("findFiles");
        await panel.send({ type: "fileMatches", query: "", files: [{ path: "src/panel/a/rather/long/folder/for/the/menu/chatController.ts" }] });
        const names = await cutNames(page);
        assert.deepEqual(names.filter((row) => row.cut), [], `${theme} at ${width} px: ${JSON.stringify(names)}`);
        assert.ok(names.some((row) => row.name === "Problems") && names.some((row) => row.name === "Terminal"), JSON.stringify(names));
        // The descriptions are what gives way: at least one is shortened at the narrow widths, none is longer than its row.
        if (width < 480) assert.ok(names.some((row) => row.descriptionCut), `a description gives way at ${width} px`);
        assert.deepEqual(await page.evaluate(panelLayoutProblems), []);
        await page.screenshot({ path: join(screenshots, `narrow-hash-menu-${width}-${theme}.png`) });
      });
    });
  }
});

/** Each context row of the open # menu: its name, whether the name is cut, whether its description is. */
function cutNames(page: Page): Promise<Array<{ name: string; cut: boolean; descriptionCut: boolean }>> {
  return page.locator(".file-option").evaluateAll((rows) =>
    rows.map((row) => {
      const name = row.querySelector(".file-name") as HTMLElement;
      const description = row.querySelector(".file-folder") as HTMLElement;
      return { name: name.textContent ?? "", cut: name.scrollWidth > name.clientWidth + 1, descriptionCut: description.scrollWidth > description.clientWidth + 1 };
    }),
  );
}
