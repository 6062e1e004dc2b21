// The README is read in five minutes: its first screen says what Relay Chat is, gives the two command lines
// people and CI run exactly as printed, and a short tour; the rest lives in docs/ pages, and every link between
// them (a page, a heading on it) leads somewhere.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { documentationPages, repoRoot } from "../support/documentationPages";
import type { DocumentationPage } from "../support/documentationPages";

const FIRST_SCREEN_LINES = 60;

/** The text without fenced code blocks and inline code, where a `](` or a `#` is not markdown. */
function prose(text: string): string {
  return text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(page: DocumentationPage): Set<string> {
  const withoutFences = page.text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
  return new Set([...withoutFences.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

describe("README and docs pages", () => {
  const pages = documentationPages();
  const readme = pages[0]!;
  const lines = readme.text.split("\n");

  it("the README's first screen has what Relay Chat is, the two command lines and the tour, in 60 lines", () => {
    const firstScreen = lines.slice(0, FIRST_SCREEN_LINES);
    assert.match(firstScreen.slice(0, 10).join("\n"), /^# Relay Chat\n\nA VS Code side panel/);
    assert.ok(firstScreen.includes("bash scripts/setup-machine.sh && npm run demo     # the main job: the extension in a real VS Code"));
    assert.ok(firstScreen.includes("bash scripts/setup-machine.sh && npm test         # all the tests"));
    const tour = lines.indexOf("## A 2-minute tour");
    assert.ok(tour > 0 && tour < FIRST_SCREEN_LINES, "the tour starts on the first screen");
    const afterTour = lines.findIndex((line, index) => index > tour && line.startsWith("## "));
    assert.ok(afterTour > tour && afterTour <= FIRST_SCREEN_LINES, `the tour ends by line ${FIRST_SCREEN_LINES} (the next section starts at line ${afterTour + 1})`);
  });

  it("CI runs the README's test command", () => {
    assert.match(fs.readFileSync(path.join(repoRoot, ".ci", "run"), "utf8"), /^npm test$/m);
  });

  it("the README links every docs page", () => {
    const linked = new Set([...readme.text.matchAll(/\]\((docs\/[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1]));
    for (const page of pages.slice(1)) assert.ok(linked.has(page.file), `README.md links ${page.file}`);
  });

  it("every link to a file or a heading of the repository's pages leads somewhere", () => {
    const anchors = new Map(pages.map((page) => [page.file, anchorsOf(page)]));
    let checked = 0;
    for (const page of pages) {
      for (const match of prose(page.text).matchAll(/\]\(([^)\s]+)\)|<img src="([^"]+)"/g)) {
        const link = (match[1] ?? match[2])!;
        if (/^\w+:/.test(link)) continue;
        const [target, anchor] = link.split("#") as [string, string | undefined];
        const file = target === "" ? page.file : path.posix.normalize(path.posix.join(path.posix.dirname(page.file), target));
        assert.ok(fs.existsSync(path.join(repoRoot, file)), `${page.file} links ${link}: ${file} does not exist`);
        if (anchor !== undefined) {
          assert.ok(anchors.get(file)?.has(anchor), `${page.file} links ${link}: ${file} has no heading with that anchor`);
        }
        checked += 1;
      }
    }
    assert.ok(checked > 20);
  });
});
