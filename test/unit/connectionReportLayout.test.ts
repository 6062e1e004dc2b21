// The connection check's report as VS Code's Markdown preview shows it (its table rules, a narrow editor),
// in Chinese: the Result column stays one word per line, never one character per line.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import type { Browser } from "playwright-core";
import type { ConnectionReport } from "../../src/relay/connectionCheck";
import { connectionReportMarkdown } from "../../src/relay/connectionReport";
import { launchHeadlessChromium } from "../webview/support/chromium";

const chinese = JSON.parse(readFileSync(path.resolve(__dirname, "../../l10n/bundle.l10n.zh-cn.json"), "utf8")) as Record<string, string>;
const localizeChinese = (english: string, ...args: Array<string | number>) => (chinese[english] ?? english).replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)]));

/** The table rules of VS Code's Markdown preview (extensions/markdown-language-features/media/markdown.css). */
const PREVIEW_CSS = `
html, body { font-size: 14px; padding: 0 26px; line-height: 22px; word-wrap: break-word; font-family: sans-serif; }
table { border-collapse: collapse; margin-bottom: 0.7em; }
th { text-align: left; border-bottom: 1px solid; }
th, td { padding: 5px 10px; }`;

const report: ConnectionReport = {
  ok: false,
  billingNote: "本检查会向中转站发送一个模型列表请求和三个小请求。",
  result: null,
  suggestStreamingOff: false,
    protocolFinding: null,
  steps: [
    { name: "Base URL", status: "ok", detail: "使用 https://relay.example.com/v1/with/a/rather/long/path/that/cannot/break/anywhere。" },
    { name: "Models listed", status: "ok", detail: "此密钥可见 12 个模型。" },
    { name: "Function calls", status: "failed", detail: "只有非流式的函数调用能完整通过此中转站：为它关闭流式传输以使用工具，这是一段很长的说明文字，让详情一列占满可用的宽度。" },
    { name: "Request id header", status: "warning", detail: "未找到请求 ID 响应头。" },
    { name: "Usage reported", status: "skipped", detail: "跳过。" },
  ],
};

describe("connection report in the Markdown preview (Chromium)", function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => {
    browser = await launchHeadlessChromium();
  });
  after(async () => browser.close());

  for (const width of [420, 700]) {
    it(`keeps each Chinese result on one line at ${width} px`, async () => {
      const html = new MarkdownIt().render(connectionReportMarkdown(report, { relay: "https://relay.example.com/v1", model: "demo", keySource: "settings", checkedAt: new Date(0) }, localizeChinese));
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.setContent(`<html><head><style>${PREVIEW_CSS}</style></head><body>${html}</body></html>`);
        const results = await page.locator("tbody tr td:nth-child(2)").evaluateAll((cells) =>
          cells.map((cell) => {
            const range = cell.ownerDocument.createRange();
            range.selectNodeContents(cell);
            return { text: cell.textContent ?? "", lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
          }),
        );
        assert.equal(results.length, report.steps.length);
        for (const result of results) assert.equal(result.lines, 1, `"${result.text}" is laid out on ${result.lines} lines`);
      } finally {
        await page.close();
      }
    });
  }
});
