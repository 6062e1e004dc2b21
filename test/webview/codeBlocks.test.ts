import assert from "node:assert/strict";
import { join } from "node:path";
import { RenderHarnessSession } from "./support/renderHarnessSession";
import type { HarnessPage } from "./support/renderHarnessSession";

const codeBlockHarnessEntry = join(__dirname, "browser", "codeBlockHarness.ts");

const answer = [
  "Here is the change:",
  "",
  "```typescript src/greeting.ts",
  "const greeting: string = \"hello\"; // <b>not markup</b>",
  "export function greet(name: string) {",
  "  return `${greeting}, ${name}`;",
  "}",
  "```",
  "",
  "And a shell line:",
  "",
  "```bash",
  "npm run build && echo done",
  "```",
  "",
  "That is all.",
  "",
].join("\n");
const typescriptCode = answer.split("```typescript src/greeting.ts\n")[1]!.split("```")[0]!;

describe("Code blocks in Chromium: highlighting and toolbar", function () {
  this.timeout(120_000);
  let session: RenderHarnessSession;
  let harness: HarnessPage;

  before(async () => {
    session = await RenderHarnessSession.start(codeBlockHarnessEntry);
  });

  beforeEach(async () => {
    harness = await session.openStrictPage();
  });

  afterEach(async () => {
    assert.deepEqual(harness.pageErrors, []);
    await harness.page.close();
  });

  after(async () => {
    await session?.close();
  });

  it("loads the highlighter only once a code block is finished, under the strict CSP", async () => {
    const { page } = harness;
    await page.evaluate(() => window.relayCodeBlockHarness.stream("Just prose, **no code** yet.\n\n- a list\n", 3, false));
    assert.equal(await page.evaluate(() => window.relayCodeBlockHarness.highlighterScripts()), 0);
    await page.evaluate(() => window.relayCodeBlockHarness.stream("Text\n\n```ts\nconst a = 1;\n", 2, false));
    assert.equal(await page.evaluate(() => window.relayCodeBlockHarness.highlighterScripts()), 0, "an open fence is not highlighted");
    await page.evaluate((text) => window.relayCodeBlockHarness.stream(text, 5, true), answer);
    await page.evaluate(() => window.relayCodeBlockHarness.settle());
    assert.equal(await page.evaluate(() => window.relayCodeBlockHarness.highlighterScripts()), 1);
    const block = page.locator(".code-block[data-language=typescript]");
    assert.ok((await block.locator("code .hljs-keyword").count()) >= 3, "keywords are marked");
    assert.equal(await block.locator("code .hljs-string").first().textContent(), '"hello"');
    assert.equal(await block.locator("code .hljs-comment").textContent(), "// <b>not markup</b>");
    assert.equal(await block.locator("code b").count(), 0);
    assert.equal(await block.locator("pre > code").textContent(), typescriptCode, "highlighting keeps every character");
    assert.ok((await page.locator(".code-block[data-language=bash] code [class^=hljs-]").count()) >= 1);
  });

  it("highlights each block once, when it is finished, not per streamed delta", async () => {
    const { page } = harness;
    await page.evaluate((text) => window.relayCodeBlockHarness.stream(text, 1, true), answer);
    await page.evaluate(() => window.relayCodeBlockHarness.settle());
    await page.evaluate(() => window.relayCodeBlockHarness.countHighlightCalls());
    const threeBlocks = `${answer}\n\`\`\`json\n{"a": [1, 2]}\n\`\`\`\n\n\`\`\`python\ndef f():\n    return 1\n\`\`\`\n\ntext\n`;
    await page.evaluate((text) => window.relayCodeBlockHarness.stream(text, 1, false), threeBlocks);
    await page.evaluate(() => window.relayCodeBlockHarness.settle());
    // Four blocks are finished (the last paragraph is still open); one character per delta.
    assert.equal(await page.evaluate(() => window.relayCodeBlockHarness.highlightCalls()), 4);
  });

  for (const pageKind of ["strict CSP page", "page without CSP"] as const) {
    it(`sanitizes what the highlighter returns: only spans and text reach the page (${pageKind})`, async () => {
      if (pageKind === "page without CSP") {
        await harness.page.close();
        harness = await session.openUnprotectedPage();
      }
      const { page } = harness;
      await page.evaluate(() =>
        window.relayCodeBlockHarness.installFakeHighlighter(
          '<span class="hljs-keyword" onclick="__xss.push(1)">const</span><img src="x" onerror="__xss.push(2)">' +
            '<a href="javascript:__xss.push(3)"> a</a><style>*{display:none}</style><script>__xss.push(4)</script> = 1;\n',
        ),
      );
      await page.evaluate(() => window.relayCodeBlockHarness.renderFinished("```ts\nconst a = 1;\n```\n"));
      await page.evaluate(() => window.relayCodeBlockHarness.settle());
      const code = page.locator(".code-block pre > code");
      assert.equal(await code.textContent(), "const a = 1;\n");
      assert.deepEqual(await code.evaluate((element) => Array.from(element.querySelectorAll("*"), (child) => child.outerHTML)), ['<span class="hljs-keyword">const</span>']);
      await code.locator("span").click();
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.relayCodeBlockHarness.executions()), 0);
      // Parsing the hostile output in the sanitizer's inert document makes Chromium attempt the image's
      // handler there; the page's CSP blocks and reports it, and without CSP it does not run either.
      harness.pageErrors.splice(0, harness.pageErrors.length, ...harness.pageErrors.filter((error) => !error.startsWith("Executing inline event handler")));
    });
  }

  it("leaves a block plain when the highlighter's output would change its text", async () => {
    const { page } = harness;
    await page.evaluate(() => window.relayCodeBlockHarness.installFakeHighlighter('<span class="hljs-keyword">let</span> a = 1;\n'));
    await page.evaluate(() => window.relayCodeBlockHarness.renderFinished("```ts\nconst a = 1;\n```\n"));
    await page.evaluate(() => window.relayCodeBlockHarness.settle());
    assert.equal(await page.locator(".code-block pre > code").innerHTML(), "const a = 1;\n");
  });

  it("shows the toolbar on hover and on keyboard focus, and its buttons post what the host needs", async () => {
    const { page } = harness;
    await page.evaluate((text) => window.relayCodeBlockHarness.renderFinished(text), `${answer}\n\`\`\`\nno language\n\`\`\`\n`);
    const block = page.locator(".code-block[data-language=typescript]");
    const toolbar = block.getByRole("toolbar", { name: "Code block actions" });
    const opacity = (): Promise<string> => toolbar.evaluate((element) => getComputedStyle(element).opacity);
    await page.mouse.move(0, 0);
    assert.equal(await opacity(), "0");
    await block.hover();
    await page.waitForFunction(() => getComputedStyle(document.querySelector(".code-actions")!).opacity === "1");
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => getComputedStyle(document.querySelector(".code-actions")!).opacity === "0");
    await block.getByRole("button", { name: "Copy", exact: true }).focus();
    await page.waitForFunction(() => getComputedStyle(document.querySelector(".code-actions")!).opacity === "1");

    // One tab stop per toolbar; the arrow keys move within it.
    assert.deepEqual(await toolbar.getByRole("button").evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).tabIndex)), [0, -1, -1, -1, -1]);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Wrap lines");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Insert at cursor");

    await block.getByRole("button", { name: "Copy", exact: true }).click();
    await block.getByRole("button", { name: "Insert at cursor" }).click();
    await block.getByRole("button", { name: "Apply to file" }).click();
    await block.getByRole("button", { name: "Open in editor" }).click();
    // A hidden toolbar takes no clicks: the pointer has to be over its block first, as a person's would be.
    const plainBlock = page.locator(".code-block:not([data-language])");
    await plainBlock.hover();
    await plainBlock.getByRole("button", { name: "Apply to file" }).click();
    assert.deepEqual(await page.evaluate(() => window.relayCodeBlockHarness.posted()), [
      { type: "copyText", text: typescriptCode },
      { type: "insertCode", code: typescriptCode },
      { type: "applyCode", code: typescriptCode, language: "typescript", file: "src/greeting.ts", turnId: "" },
      { type: "openCode", code: typescriptCode, language: "typescript" },
      { type: "applyCode", code: "no language\n", language: "", file: "", turnId: "" },
    ]);
    assert.equal(await block.getByRole("button", { name: "Copy", exact: true }).textContent(), "Copied");
  });

  it("shows short words without the codicon font, and icons only in a narrow block with it", async () => {
    const { page } = harness;
    // The webview is as wide as the panel: a narrow panel is a narrow viewport.
    await page.setViewportSize({ width: 300, height: 600 });
    await page.evaluate(() => window.relayCodeBlockHarness.setColumnWidth(280));
    await page.evaluate(() => window.relayCodeBlockHarness.renderFinished("```ts\nconst a = 1;\n```\n"));
    const labels = (): Promise<string[]> =>
      page.locator(".code-action-label").evaluateAll((elements) => elements.filter((element) => getComputedStyle(element).display !== "none").map((element) => element.textContent ?? ""));
    assert.deepEqual(await labels(), ["Copy", "Insert", "Apply", "Open", "Wrap"]);
    assert.equal(await page.locator(".code-actions-with-icons").count(), 0);

    const withIcons = await session.openStrictPage();
    try {
      // What codicon.css does: it declares the codicon font and an icon per class (CSSOM, since the CSP allows no inline style).
      await withIcons.page.evaluate(() => {
        document.styleSheets[0]!.insertRule('@font-face { font-family: "codicon"; src: local("DejaVu Sans"); }');
        document.styleSheets[0]!.insertRule('.codicon-copy::before { content: "C"; }');
      });
      await withIcons.page.setViewportSize({ width: 300, height: 600 });
      await withIcons.page.evaluate(() => window.relayCodeBlockHarness.setColumnWidth(280));
      await withIcons.page.evaluate(() => window.relayCodeBlockHarness.renderFinished("```ts\nconst a = 1;\n```\n"));
      assert.equal(await withIcons.page.locator(".code-actions-with-icons").count(), 1);
      const visibleLabels = await withIcons.page.locator(".code-action-label").evaluateAll((elements) => elements.filter((element) => getComputedStyle(element).display !== "none").length);
      assert.equal(visibleLabels, 0);
      assert.equal(await withIcons.page.getByRole("button", { name: "Apply to file" }).count(), 1, "the full name stays the accessible name");
    } finally {
      await withIcons.page.close();
    }
  });

  it("toggles between scrolling and wrapping long lines", async () => {
    const { page } = harness;
    const longLine = `const value = "${"x".repeat(300)}";`;
    await page.evaluate((text) => window.relayCodeBlockHarness.renderFinished(text), `\`\`\`ts\n${longLine}\n\`\`\`\n`);
    const block = page.locator(".code-block");
    const pre = block.locator("pre");
    const wrap = block.getByRole("button", { name: "Wrap lines" });
    const overflows = (): Promise<boolean> => pre.evaluate((element) => element.scrollWidth > element.clientWidth);
    assert.equal(await overflows(), true, "scrolls by default");
    assert.equal(await wrap.getAttribute("aria-pressed"), "false");
    await block.hover();
    await wrap.click();
    assert.equal(await wrap.getAttribute("aria-pressed"), "true");
    assert.equal(await overflows(), false, "wraps when toggled");
    await wrap.click();
    assert.equal(await overflows(), true);
  });

  for (const width of [240, 560]) {
    it(`keeps the language label on one line and draws no band behind each line (${width} px column)`, async () => {
      const { page } = harness;
      await page.setViewportSize({ width: width + 40, height: 600 });
      await page.evaluate((pixels) => window.relayCodeBlockHarness.setColumnWidth(pixels), width);
      await page.evaluate(() => window.relayCodeBlockHarness.renderFinished("```typescript\nconst a = 1;\nconst b = 2;\n```\n"));
      const label = page.locator(".code-language");
      const box = (await label.boundingBox())!;
      const lineHeight = await label.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      assert.ok(box.height <= lineHeight * 1.5, `label height ${box.height} for line height ${lineHeight}`);
      assert.equal(await label.textContent(), "typescript");
      assert.ok(box.width >= 30, `label width ${box.width}`);
      const codeBackground = await page.locator(".code-block pre > code").evaluate((element) => getComputedStyle(element).backgroundColor);
      assert.equal(codeBackground, "rgba(0, 0, 0, 0)");
      const header = (await page.locator(".code-header").boundingBox())!;
      assert.ok(header.height <= 30, `header height ${header.height}: toolbar on one row`);
    });
  }
});
