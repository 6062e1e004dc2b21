import assert from "node:assert/strict";
import type { FeedMethod, StreamingComparison } from "./browser/renderHarness";
import { markdownEdgeCases } from "./fixtures/markdownEdgeCases";
import { generateRichMarkdownDocument } from "./fixtures/richMarkdownDocument";
import { createSeededRandom, randomDeltaLengths } from "./fixtures/seededRandom";
import { RenderHarnessSession } from "./support/renderHarnessSession";
import type { HarnessPage } from "./support/renderHarnessSession";

function formatMismatches(comparison: StreamingComparison): string {
  return comparison.mismatches
    .map((mismatch) => `at ${mismatch.prefixLength}:\n  expected ${JSON.stringify(mismatch.expected)}\n  actual   ${JSON.stringify(mismatch.actual)}`)
    .join("\n");
}

describe("StreamingMarkdownView in Chromium", function () {
  this.timeout(120_000);
  let session: RenderHarnessSession;
  let harness: HarnessPage;

  before(async () => {
    session = await RenderHarnessSession.start();
    harness = await session.openStrictPage();
  });

  after(async () => {
    await session?.close();
  });

  afterEach(() => {
    assert.deepEqual(harness.pageErrors, []);
  });

  function compare(text: string, deltaLengths: number[], checkpoints: number[] | "every", feedMethod: FeedMethod = "append"): Promise<StreamingComparison> {
    return harness.page.evaluate(
      ([text, deltaLengths, checkpoints, feedMethod]) => window.relayRenderHarness.compareStreamingWithOneShot(text, deltaLengths, checkpoints, feedMethod),
      [text, deltaLengths, checkpoints, feedMethod] as const,
    );
  }

  const document = generateRichMarkdownDocument();

  it("uses a rich 60 KB answer with 10 fenced code blocks", () => {
    assert.ok(document.text.length >= 59_000 && document.text.length <= 66_000, `length ${document.text.length}`);
    assert.equal(document.text.match(/^```\w+$/gm)?.length, 10);
  });

  for (const [seed, minimum, maximum] of [[1, 1, 12], [2, 1, 64], [3, 20, 400]] as const) {
    it(`matches the one-shot render at many prefixes of the 60 KB answer (deltas ${minimum}..${maximum} chars, seed ${seed})`, async () => {
      const random = createSeededRandom(seed * 101);
      const checkpoints = [
        ...Array.from({ length: 150 }, () => Math.floor(random() * document.text.length)),
        ...document.offsetsInsideCodeBlocks,
      ];
      const comparison = await compare(document.text, randomDeltaLengths(seed, 5000, minimum, maximum), checkpoints);
      assert.ok(comparison.comparisons >= 100, `only ${comparison.comparisons} comparisons`);
      assert.equal(comparison.mismatches.length, 0, formatMismatches(comparison));
    });
  }

  it("matches the one-shot render when fed growing snapshots through setText()", async () => {
    const random = createSeededRandom(77);
    const checkpoints = Array.from({ length: 60 }, () => Math.floor(random() * document.text.length));
    const comparison = await compare(document.text, randomDeltaLengths(5, 5000, 1, 300), checkpoints, "setText");
    assert.equal(comparison.mismatches.length, 0, formatMismatches(comparison));
  });

  markdownEdgeCases.forEach((edgeCase, index) => {
    it(`matches the one-shot render after every character of edge case ${index}: ${JSON.stringify(edgeCase.slice(0, 40))}`, async () => {
      const oneCharacter = await compare(edgeCase, [1], "every");
      assert.equal(oneCharacter.mismatches.length, 0, formatMismatches(oneCharacter));
      const randomSizes = await compare(edgeCase, randomDeltaLengths(index + 11, 200, 1, 9), "every");
      assert.equal(randomSizes.mismatches.length, 0, formatMismatches(randomSizes));
    });
  });

  it("matches the one-shot render after every character of 400 random markdown-like snippets", async () => {
    const pieces = [
      "a", "b", "word", " ", " ", "\n", "\n\n", "*", "_", "`", "```", "~~~", "#", "# ", "-", "- ", "1", "1. ", "2) ", ".", ",", "|", "| a |",
      "|---|", "[", "]", "(", ")", ":", "/", ">", "> ", "~", "!", "&", "&amp;", ";", "\\", "\u00a0", "\t", "    ", "http://x.co", "www.a.com",
      "a@b.io", "=", "===", "<", "'", '"', "é", "[r]: https://e.com", "[r]",
    ];
    const random = createSeededRandom(2024);
    const failures: string[] = [];
    for (let snippetIndex = 0; snippetIndex < 400 && failures.length === 0; snippetIndex++) {
      let snippet = "";
      while (snippet.length < 50) snippet += pieces[Math.floor(random() * pieces.length)];
      const comparison = await compare(snippet, [1], "every");
      if (comparison.mismatches.length > 0) failures.push(`${JSON.stringify(snippet)}\n${formatMismatches(comparison)}`);
    }
    assert.deepEqual(failures, []);
  });

  // Each case is cut where a delta of plain characters must not take the fast path (or may take it safely).
  const plainPathCases: ReadonlyArray<readonly string[]> = [
    ["foo\n*", " x", "\n"],
    ["foo\n-", " x y", "\n"],
    ["text\n#", " heading", "\n"],
    ["- - [a]: https://e.com \"ti", "tle\"", "\n\n[a]\n"],
    ["> - 1. [a]: https://e.com \"t", "t\"", "\n\n[a]\n"],
    ["x\n\n[a", "]: https://e.com \"t", "t\"", "\n\n[a]\n"],
    ["Some **bo", "ld** text and __sn", "ake__case x__", "y z", "\n"],
    ["*a *", "b c*", "\n"],
    ["`a `", "b` c", "\n"],
    ["(see [li", "nk", "](https://e.com)) and (", "more", ")\n"],
    ["**Note:** this ", "is plain, **", "bold", "** too\n"],
    ["| a | b |\n|---|---|\n| **x", "y** | `z", "w` |\n"],
    ["~~st", "rike~~ and ~", "one\n"],
  ];
  plainPathCases.forEach((deltas, index) => {
    it(`matches the one-shot render for plain deltas that complete or extend markup (case ${index}: ${JSON.stringify(deltas.join("").slice(0, 30))})`, async () => {
      const comparison = await compare(deltas.join(""), deltas.map((delta) => delta.length), "every");
      assert.equal(comparison.mismatches.length, 0, formatMismatches(comparison));
    });
  });

  it("matches the one-shot render after every delta of 300 random snippets cut into deltas of 1 to 8 characters", async () => {
    const pieces = [
      "a", "word", "more words", " ", "\n", "\n\n", "*", "**", "_", "__", "x__", "`", "~~", "[", "]", "(", ")", "# ", "- ", "* ", "1. ",
      "> ", "| a |", "|---|", "[a]: https://e.co \"t\"", "[a]", "\"", "'", ".", ",", "!", "https://e.co", "&amp;", "\\", "  ",
    ];
    const random = createSeededRandom(4048);
    const failures: string[] = [];
    for (let snippetIndex = 0; snippetIndex < 300 && failures.length === 0; snippetIndex++) {
      let snippet = "";
      while (snippet.length < 60) snippet += pieces[Math.floor(random() * pieces.length)];
      const comparison = await compare(snippet, randomDeltaLengths(snippetIndex, 40, 1, 8), "every");
      if (comparison.mismatches.length > 0) failures.push(`${JSON.stringify(snippet)}\n${formatMismatches(comparison)}`);
    }
    assert.deepEqual(failures, []);
  });

  it("matches the one-shot render after every delta of the first 12 KB of the answer", async () => {
    const comparison = await compare(document.text.slice(0, 12_000), randomDeltaLengths(9, 4000, 1, 15), "every");
    assert.equal(comparison.mismatches.length, 0, formatMismatches(comparison));
  });

  it("renders fenced code with its language label and file hint, and no buttons or handlers in the markup", async () => {
    const html = await harness.page.evaluate(() => window.relayRenderHarness.renderOneShot('```ts title="src/a b.ts" {1}\nconst a = 1 < 2;\n```\n'));
    assert.equal(
      html,
      '<div class="code-block" data-language="ts" data-file="src/a b.ts"><div class="code-header"><span class="code-language">ts</span><span class="code-file">src/a b.ts</span></div>' +
        '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre></div>\n',
    );
  });

  it("renders links with data-href instead of href and images as placeholders", async () => {
    const html = await harness.page.evaluate(() =>
      window.relayRenderHarness.renderOneShot('[docs](https://example.com/a "T") www.example.org ![logo](https://example.com/l.png) [rel](./x.ts)'),
    );
    assert.equal(
      html,
      '<p><a data-href="https://example.com/a" title="T">docs</a> www.example.org ' +
        '<a class="image-placeholder" data-href="https://example.com/l.png">[image: logo]</a> [rel](./x.ts)</p>\n',
    );
  });

  it("links only addresses written with their scheme: file names and bare e-mail addresses stay text", async () => {
    const html = await harness.page.evaluate(() =>
      window.relayRenderHarness.renderOneShot("See README.md, setup.py, main.rs, build.sh and `src/app.ts:12`; mail me@example.com or https://example.com/docs."),
    );
    assert.equal(
      html,
      '<p>See README.md, setup.py, main.rs, build.sh and <code>src/app.ts:12</code>; mail me@example.com or ' +
        '<a data-href="https://example.com/docs">https://example.com/docs</a>.</p>\n',
    );
  });

  it("keeps table alignment as classes because the CSP forbids inline styles", async () => {
    const html = await harness.page.evaluate(() => window.relayRenderHarness.renderOneShot("| a | b |\n|:-:|--:|\n| 1 | 2 |\n"));
    assert.match(html, /<th class="align-center">a<\/th>/);
    assert.match(html, /<td class="align-right">2<\/td>/);
    assert.doesNotMatch(html, /style=/);
  });
});
