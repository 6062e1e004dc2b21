// Issue 27: propose_edit's approval card showed the raw JSON of its arguments with "\n" escapes. It now shows
// the change as a diff (the file in the header, removed and added lines marked), the exact JSON one click
// away; at 300 px and in the light and dark themes nothing overflows.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalDiffView, ApprovalView } from "../../src/panel/protocol";
import { panelState } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { ThemeName } from "./support/panelHarness";

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

// The views src/tools/editPreview.ts makes (tested on Node there), written out: this file tests the rendering.
type Line = [kind: "context" | "removed" | "added", text: string];
function diffView(path: string, hunks: Array<{ at: number | null; lines: Line[] }>, extra: Partial<ApprovalDiffView> = {}): ApprovalDiffView {
  const all = hunks.flatMap((hunk) => hunk.lines);
  return {
    path: [{ text: path, marker: false }],
    createsFile: false,
    unplaced: false,
    added: all.filter(([kind]) => kind === "added").length,
    removed: all.filter(([kind]) => kind === "removed").length,
    hunks: hunks.map((hunk) => ({ originalLine: hunk.at, proposedLine: hunk.at, lines: hunk.lines.map(([kind, text]) => ({ kind, segments: [{ text, marker: false }] })) })),
    omittedLines: 0,
    arguments: ["path", "edits"],
    ...extra,
  };
}

const edits = [
  { old_text: "  return JSON.parse(text);", new_text: "  try {\n    return JSON.parse(text);\n  } catch (error) {\n    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);\n  }" },
  { old_text: "DEFAULT_TIMEOUT_MS = 30_000;", new_text: "DEFAULT_TIMEOUT_MS = 60_000;" },
];
const args = { path: "src/config/loadConfig.ts", edits };

const editApproval: ApprovalView = {
  callId: "call_edit",
  toolName: "propose_edit",
  toolDescription: "Propose a change to one workspace file.",
  risk: "write",
  argumentsJson: JSON.stringify(args, null, 2),
  canAllowForSession: false,
  details: [
    { name: "path", role: "path", segments: [{ text: args.path, marker: false }], note: null },
    { name: "edits", role: "value", segments: [{ text: JSON.stringify(edits, null, 2), marker: false }], note: null },
  ],
  hiddenCharacters: [],
  diff: diffView(args.path, [
    {
      at: 3,
      lines: [
        ["context", "export async function loadConfig(path: string) {"],
        ["context", '  const text = await readFile(path, "utf8");'],
        ["removed", "  return JSON.parse(text);"],
        ["added", "  try {"],
        ["added", "    return JSON.parse(text);"],
        ["added", "  } catch (error) {"],
        ["added", "    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);"],
        ["added", "  }"],
        ["context", "}"],
        ["context", ""],
      ],
    },
    { at: 12, lines: [["context", ""], ["removed", "export const DEFAULT_TIMEOUT_MS = 30_000;"], ["added", "export const DEFAULT_TIMEOUT_MS = 60_000;"]] },
  ]),
};

describe("Chat panel webview: a file change on its approval card (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  it("shows the change as a diff with the file in the header, and the exact arguments collapsed", async () => {
    const panel = current.panel();
    await panel.sendState(panelState({ busy: true, approvals: [editApproval] }));
    const card = panel.page.locator(".approval-card");
    assert.equal(await card.locator(".diff-header .diff-path").textContent(), "src/config/loadConfig.ts");
    assert.equal(`${await card.locator(".diff-count-added").textContent()}${await card.locator(".diff-count-removed").textContent()}`, "+6 −2");
    assert.equal(await card.locator(".diff-counts .visually-hidden").textContent(), "6 lines added, 2 removed");
    const removed = await card.locator(".diff-removed .diff-text").allTextContents();
    const added = await card.locator(".diff-added .diff-text").allTextContents();
    assert.deepEqual(removed, ["  return JSON.parse(text);", "export const DEFAULT_TIMEOUT_MS = 30_000;"]);
    assert.deepEqual(added, ["  try {", "    return JSON.parse(text);", "  } catch (error) {", "    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);", "  }", "export const DEFAULT_TIMEOUT_MS = 60_000;"]);
    assert.deepEqual(await card.locator(".diff-removed .diff-sign").allTextContents(), ["-", "-"], "a sign beside the colour");
    // What was there before: the arguments' JSON with "\n" escapes on the card itself. Now only in the collapsed details.
    assert.doesNotMatch(await card.innerText(), /\\n/, "no \\n escapes on screen");
    assert.equal(await card.locator('pre[data-argument="edits"]').count(), 0, "the edits are the diff, not JSON");
    const json = card.locator("details.approval-json");
    assert.equal(await json.getAttribute("open"), null, "the exact arguments are collapsed");
    await json.locator("summary").click();
    assert.equal(await json.locator("pre").textContent(), editApproval.argumentsJson, "and exactly as sent");
    await card.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await panel.waitForPosted("approval"), [{ type: "approval", callId: "call_edit", answer: "approve" }]);
  });

  it("says a new file is new, and that replacements not found are shown alone", async () => {
    const panel = current.panel();
    const created = { ...editApproval, callId: "call_new", diff: diffView("docs/NOTES.md", [{ at: 1, lines: [["added", "# Notes"], ["added", ""], ["added", "First line."]] }], { createsFile: true, arguments: ["path", "new_text"] }) };
    const unplaced = {
      ...editApproval,
      callId: "call_unplaced",
      diff: diffView("src/x.ts", [{ at: null, lines: [["removed", "a"], ["added", "b"]] }, { at: null, lines: [["removed", "c"], ["added", "d"]] }], { unplaced: true, arguments: ["edits"] }),
    };
    await panel.sendState(panelState({ busy: true, approvals: [created, unplaced] }));
    const cards = panel.page.locator(".approval-card");
    assert.equal(await cards.nth(0).locator(".diff-note").textContent(), "new file");
    assert.deepEqual(await cards.nth(0).locator(".diff-added .diff-text").allTextContents(), ["# Notes", "", "First line."]);
    assert.equal(await cards.nth(1).locator(".diff-note").textContent(), "replacements not found in the file as it is");
    assert.deepEqual(await cards.nth(1).locator(".diff-hunk-header").allTextContents(), ["Replacement 1", "Replacement 2"]);
    assert.equal(await cards.nth(1).locator('pre[data-argument="path"]').count(), 1, "the path as the tool will resolve it stays listed");
  });

  const themes: ThemeName[] = ["dark", "light", "high-contrast"];
  for (const theme of themes) {
    it(`fits a 300 px panel in the ${theme} theme (long lines wrap: nothing hides past the edge)`, async () => {
      const narrow = await current.harness().open({ width: 300, height: 700, theme });
      try {
        await narrow.sendState(panelState({ busy: true, approvals: [editApproval] }));
        assert.deepEqual(await narrow.page.evaluate(panelLayoutProblems), []);
        const body = narrow.page.locator(".diff-body");
        const box = (await body.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= 300, `the diff stays in the panel (${box.x}+${box.width})`);
        assert.ok(await body.evaluate((node) => node.scrollWidth <= node.clientWidth), "no line runs past the diff's edge");
        const longLine = narrow.page.locator(".diff-added .diff-text", { hasText: "is not valid JSON" });
        const lineHeight = await longLine.evaluate((node) => parseFloat(getComputedStyle(node).lineHeight) || 16);
        assert.ok(((await longLine.boundingBox())?.height ?? 0) > lineHeight * 1.5, "the long line wraps");
        mkdirSync(screenshots, { recursive: true });
        await narrow.page.locator(".approval-card").screenshot({ path: join(screenshots, `approval-diff-300-${theme}.png`) });
        assert.deepEqual(narrow.pageErrors, []);
      } finally {
        await narrow.page.close();
      }
    });
  }
});
