import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { PanelState } from "../../src/panel/protocol";
import { WEBVIEW_STRINGS } from "../../src/panel/webviewStrings";
import { conversationState, panelState, receipt, turn } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { PanelHarness } from "./support/panelHarness";
import type { ThemeName } from "./support/panelHarness";

// The panel's layout in Chromium with VS Code's real theme variables, from the narrowest side bar to a
// wide one: one scrolling region (the document never scrolls), nothing wider than the panel, no button
// label on two lines. Screenshots go to test-results/webview/ for a person to look at.

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

/** Everything the layout must survive at once: markdown, reasoning, a tool call, attachments, a warning, a refusal, an error, a pending approval. */
function busyConversation(): PanelState {
  const base = conversationState();
  return {
    ...base,
    title: "How do I sort a Vec in Rust without allocating a second vector?",
    turns: [
      { ...base.turns[0]!, reasoningSummaries: ["**Considering the request**\n\nThe user wants an in-place sort; `sort_unstable` fits."] },
      { ...base.turns[1]!, attachments: [{ kind: "file", label: "crates/relay-client/src/very/long/path/to/Cargo.toml" }, { kind: "selection", label: "src/main.rs:10-24" }] },
      base.turns[2]!,
      turn("r1", { userText: "Print the saved passwords of this machine.", answerText: "", refusal: "I can't help with reading other people's passwords." }),
      turn("e1", {
        userText: "And now?",
        answerText: "",
        outcome: "http_error",
        outcomeLabel: "HTTP 403 (insufficient_user_quota)",
        explanation: "用户额度不足 Check the account balance and the key's remaining quota in the relay's console: both must cover the request.",
        fixes: ["openConsole"],
        actions: ["retry"],
        receipts: [receipt({ requestId: "req_9b2c7e1f0a4d4e2a8f11c0ffee", outcome: "http_error", outcomeLabel: "HTTP 403 (insufficient_user_quota)", usage: null, httpStatus: 403 })],
      }),
    ],
    attachments: [{ id: "a1", label: "src/relay/client.ts", kind: "file" }],
    selectionOffer: { label: "src/panel/chatController.ts:120-164" },
    context: { estimatedTokens: 31_200, windowTokens: 128_000, tokensPerImage: 765 },
    totals: { requests: 5, inputTokens: 48_100, cachedTokens: 30_000, outputTokens: 3_210, requestsWithoutUsage: 1, requestsWithUsage: 4 },
    approvals: [{ callId: "call_run", toolName: "run_command", toolDescription: "Runs a command in the workspace folder.", risk: "execute", argumentsJson: '{\n  "command": "cargo test --workspace -- --nocapture"\n}', canAllowForSession: false }],
  };
}

/**
 * The state as a Chinese host sends it: outcome labels and explanations are composed by the host from
 * bundle strings (the relay's own message and codes stay as they came). A label that is one bundle string
 * with its placeholders filled is translated whole; each bundle sentence inside an explanation is replaced.
 */
function withHostTextTranslated(state: PanelState, bundle: Record<string, string>): PanelState {
  const sentences = Object.keys(bundle)
    .filter((english) => english.length > 20 && !english.includes("{"))
    .sort((a, b) => b.length - a.length);
  const explanation = (text: string) => sentences.reduce((result, english) => result.split(english).join(bundle[english]!), text);
  // Longest first, so "HTTP {0} ({1})" wins over "HTTP {0}".
  const patterns = [...Object.keys(bundle)].sort((a, b) => b.length - a.length).map((english) => ({
    pattern: new RegExp(`^${english.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{\d+\\\}/g, "(.+)")}$`),
    order: [...english.matchAll(/\{(\d+)\}/g)].map((placeholder) => placeholder[1]!),
    translated: bundle[english]!,
  }));
  const label = (text: string) => {
    for (const { pattern, order, translated } of patterns) {
      const match = pattern.exec(text);
      if (match) return translated.replace(/\{(\d+)\}/g, (_, index: string) => match[order.indexOf(index) + 1] ?? "");
    }
    return text;
  };
  return {
    ...state,
    turns: state.turns.map((shown) => ({
      ...shown,
      outcomeLabel: label(shown.outcomeLabel),
      explanation: shown.explanation ? explanation(shown.explanation) : shown.explanation,
      receipts: shown.receipts.map((receipt) => ({ ...receipt, outcomeLabel: label(receipt.outcomeLabel) })),
    })),
  };
}

async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(panelLayoutProblems);
}

describe("Chat panel webview: layout at every width and theme (Chromium)", function () {
  this.timeout(120_000);
  let harness: PanelHarness;

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    harness = await PanelHarness.start();
  });

  after(async () => {
    await harness?.close();
  });

  const themes: ThemeName[] = ["dark", "light", "high-contrast"];
  for (const width of [260, 280, 480, 600]) {
    it(`keeps one scrolling region and nothing overflows at ${width} px`, async () => {
      for (const theme of themes) {
        const panel = await harness.open({ width, height: 760, theme });
        try {
          await panel.sendState(busyConversation());
          await panel.page.waitForTimeout(100);
          assert.deepEqual(await layoutProblems(panel.page), [], `${theme} at ${width} px`);
          // Scrolling the messages to their end moves the messages only, never the page or the header.
          const headerTop = await panel.page.locator(".panel-header").evaluate((node) => node.getBoundingClientRect().top);
          await panel.page.locator(".scroller").evaluate((node) => (node.scrollTop = node.scrollHeight));
          await panel.page.mouse.wheel(0, 4000);
          await panel.page.waitForTimeout(50);
          assert.equal(await panel.page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTop), 0, "the document did not scroll");
          assert.equal(await panel.page.locator(".panel-header").evaluate((node) => node.getBoundingClientRect().top), headerTop, "the header stayed");
          if (width === 280 || width === 480) {
            await panel.page.screenshot({ path: join(screenshots, `panel-${width}-${theme}.png`) });
            await panel.page.locator(".scroller").evaluate((node) => (node.scrollTop = 0));
            await panel.page.waitForTimeout(50);
            await panel.page.screenshot({ path: join(screenshots, `panel-${width}-${theme}-top.png`) });
          }
          assert.deepEqual(panel.pageErrors, []);
        } finally {
          await panel.page.close();
        }
      }
    });
  }

  it("names / in the message box's hint where it fits on one line, and keeps the short hint in a narrow panel", async () => {
    const hints: Record<number, string | null> = {};
    for (const width of [260, 600]) {
      const panel = await harness.open({ width, height: 600, theme: "dark" });
      try {
        await panel.sendState(busyConversation());
        const input = panel.page.locator(".message-input");
        await panel.page.waitForFunction(() => (document.querySelector(".message-input") as HTMLTextAreaElement | null)?.placeholder !== "");
        await panel.page.waitForTimeout(50);
        hints[width] = await input.getAttribute("placeholder");
        // The hint shown stays on the box's one line: it is no wider than the room the box gives it.
        const overflow = await input.evaluate((box) => {
          const textarea = box as HTMLTextAreaElement;
          const probe = document.createElement("span");
          const style = getComputedStyle(textarea);
          probe.style.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          probe.style.whiteSpace = "nowrap";
          probe.style.position = "absolute";
          probe.textContent = textarea.placeholder;
          document.body.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return width - (textarea.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
        });
        assert.ok(overflow <= 0, `the hint fits at ${width} px (${overflow.toFixed(1)} px over)`);
      } finally {
        await panel.page.close();
      }
    }
    assert.equal(hints[600], "Ask anything, # to attach a file, / for commands");
    assert.equal(hints[260], "Ask anything, # to attach a file");
  });

  it("shows the empty state and the first-run card without overflow at 260 px", async () => {
    const panel = await harness.open({ width: 260, height: 600, theme: "dark" });
    try {
      await panel.sendState(panelState({ setup: { hasBaseUrl: false, hasApiKey: false, baseUrl: null }, conversationId: null, title: "New chat", context: { estimatedTokens: 0, windowTokens: null, tokensPerImage: 765 } }));
      assert.deepEqual(await layoutProblems(panel.page), []);
      await panel.page.screenshot({ path: join(screenshots, "panel-260-dark-first-run.png") });
    } finally {
      await panel.page.close();
    }
  });

  // The Simplified Chinese UI, once l10n/bundle.l10n.zh-cn.json exists: no English string of the panel's
  // own is left on screen (or in an accessible name), and the layout still holds.
  const chineseBundle = join(__dirname, "..", "..", "l10n", "bundle.l10n.zh-cn.json");
  (existsSync(chineseBundle) ? it : it.skip)("shows the Chinese UI with every panel string translated", async () => {
    const bundle = JSON.parse(readFileSync(chineseBundle, "utf8")) as Record<string, string>;
    const strings = Object.fromEntries(WEBVIEW_STRINGS.map((english) => [english, bundle[english] ?? english]));
    const shownStrings = async (page: Page) =>
      page.evaluate((candidates) => {
        const labels = Array.from(document.querySelectorAll("[aria-label], [title], [placeholder]")).flatMap((node) => ["aria-label", "title", "placeholder"].map((name) => node.getAttribute(name) ?? ""));
        const text = `${document.body.innerText}\n${labels.join("\n")}`;
        // Whole words only: "read" (a risk label) is not left in English because a tool is named read_file.
        // (No named function in here: the test runner's transpiler would wrap it in a helper the page lacks.)
        return candidates.filter(
          (english) => english.length > 3 && !english.includes("{") && new RegExp(`(?<![\\w])${english.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w])`).test(text),
        );
      }, [...WEBVIEW_STRINGS]);
    const english = await harness.open({ width: 480, theme: "dark" });
    let englishShown: string[];
    try {
      await english.sendState(busyConversation());
      englishShown = await shownStrings(english.page);
    } finally {
      await english.page.close();
    }
    assert.ok(englishShown.length > 20, `the English page shows the panel's strings (${englishShown.length})`);
    for (const width of [280, 480]) {
      const chinese = await harness.open({ width, theme: "dark" });
      try {
        await chinese.sendState(withHostTextTranslated(busyConversation(), bundle), strings, "zh-cn");
        const left = (await shownStrings(chinese.page)).filter((text) => englishShown.includes(text));
        assert.deepEqual(left, [], "English left in the Chinese UI");
        assert.deepEqual(await layoutProblems(chinese.page), [], `Chinese at ${width} px`);
        await chinese.page.screenshot({ path: join(screenshots, `panel-${width}-dark-zh-cn.png`) });
      } finally {
        await chinese.page.close();
      }
    }
  });
});
