// The approval card and the tool card in real Chromium: what runs is shown as it runs (plain text, stored
// order, hidden characters marked), and a tool card never says "ran" for a call that did not run.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalView, ToolCallView } from "../../src/panel/protocol";
import { conversationState, panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

const command = 'grep -rn "TODO" src | head\necho done';

const commandApproval: ApprovalView = {
  callId: "call_run",
  toolName: "run_command",
  toolDescription: "Run a shell command line in the workspace.",
  risk: "execute",
  argumentsJson: JSON.stringify({ command }, null, 2),
  canAllowForSession: false,
  details: [
    { name: "command", role: "command", segments: [{ text: command, marker: false }], note: null },
    { name: "cwd", role: "folder", segments: [{ text: ".", marker: false }], note: "default" },
  ],
  hiddenCharacters: [],
};

const hiddenApproval: ApprovalView = {
  callId: "call_hidden",
  toolName: "read_file",
  toolDescription: "Read a text file from the workspace.",
  risk: "read",
  argumentsJson: '{\n  "path": "docs/\u202Etxt.exe"\n}',
  // The host would not offer it; the card must not either, whatever the flag says.
  canAllowForSession: true,
  details: [{ name: "path", role: "path", segments: [{ text: "docs/", marker: false }, { text: "⟨U+202E⟩", marker: true }, { text: "txt.exe", marker: false }], note: null }],
  hiddenCharacters: [{ codePoint: "U+202E", kind: "bidirectional" }],
};

const screenshots = join(__dirname, "..", "..", "test-results", "webview");

/** A command call with everything long: the description written for the model, and a long command line. */
const alwaysAllowApproval: ApprovalView = {
  ...commandApproval,
  callId: "call_always",
  toolDescription: `${"Run a shell command line in the workspace after the user approves the exact line. Returns the exit code and the combined stdout/stderr. ".repeat(4)}`,
  argumentsJson: JSON.stringify({ command: "npm test" }, null, 2),
  followUpInputTokens: 1234,
  alwaysAllow: "command",
  details: [
    { name: "command", role: "command", segments: [{ text: `npm test -- ${"--grep approval ".repeat(20)}`.trim(), marker: false }], note: null },
    { name: "cwd", role: "folder", segments: [{ text: ".", marker: false }], note: "default" },
  ],
};

function call(outcome: ToolCallView["outcome"], output: string, outcomeDetail: string | null = null): ToolCallView {
  return { callId: `call_${outcome}`, name: "run_command", argumentsJson: "{}", status: outcome === "invalid_arguments" || outcome === "unavailable" ? "rejected" : "ready", output, outcome, outcomeDetail };
}

describe("Chat panel webview: tool and approval cards (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("shows the command line as plain text and the working folder, with the raw JSON tucked away", async () => {
    await panel.sendState(panelState({ busy: true, approvals: [commandApproval] }));
    const card = panel.page.locator(".approval-card");
    const shown = card.locator('pre[data-argument="command"]');
    assert.equal(await shown.textContent(), command, "exactly the command, not JSON-escaped");
    assert.equal(await shown.locator("bdo[dir=ltr]").count(), 1, "laid out in stored order");
    assert.match((await card.textContent()) ?? "", /Command line.*Working folder.*\..*Not given: the workspace folder\./s);
    assert.equal(await card.locator("details.approval-json").getAttribute("open"), null, "the JSON is collapsed");
    for (const name of ["Approve", "Deny"]) assert.equal(await card.getByRole("button", { name, exact: true }).count(), 1);
  });

  it("marks hidden characters, warns, and offers no Allow for this session", async () => {
    await panel.sendState(panelState({ busy: true, approvals: [hiddenApproval] }));
    const card = panel.page.locator(".approval-card");
    assert.equal(await card.locator("mark.hidden-character").textContent(), "⟨U+202E⟩");
    assert.equal(await card.locator('pre[data-argument="path"]').textContent(), "docs/⟨U+202E⟩txt.exe");
    assert.match((await card.getByRole("alert").textContent()) ?? "", /Hidden characters.*U\+202E \(bidirectional control\).*cannot be allowed for the session/s);
    assert.equal(await card.getByRole("button", { name: "Allow for this session" }).count(), 0);
    assert.equal(await card.getByRole("button", { name: "Approve", exact: true }).count(), 1);
  });

  it("says what happened to each call and never says ran for one that did not run", async () => {
    const calls = [
      call("ran", "Exit code: 0"),
      call("denied", "The user declined to run it."),
      call("failed", "Error: Timed out after 60 s", "Timed out after 60 s"),
      call("invalid_arguments", "Error: invalid arguments", 'property "command" must be of type string'),
      call("stopped", "cancelled before it ran"),
    ];
    await panel.sendState({ ...conversationState(), turns: [turn("turn_tools", { toolCalls: calls })] });
    const statuses = await panel.page.locator(".tool-card .tool-status").allTextContents();
    assert.deepEqual(statuses, ["ran", "denied", "failed", "not run: invalid arguments", "not run: stopped"]);
    const details = await panel.page.locator(".tool-card .tool-outcome-detail").allTextContents();
    assert.deepEqual(details, ["Timed out after 60 s", 'property "command" must be of type string']);
  });

  it("offers Always allow this command, keeps the model's description behind a disclosure and the buttons in view at 280 px", async () => {
    mkdirSync(screenshots, { recursive: true });
    for (const theme of ["dark", "light"] as const) {
      for (const width of [280, 480]) {
        const narrow = await current.harness().open({ width, height: 600, theme });
        try {
          await narrow.sendState(panelState({ busy: true, approvals: [alwaysAllowApproval] }));
          const card = narrow.page.locator(".approval-card");
          const description = card.locator("details.approval-description");
          assert.equal(await description.getAttribute("open"), null, "the model's description is collapsed");
          assert.equal(await description.locator("p").isVisible(), false);
          const always = card.getByRole("button", { name: "Always allow this command…" });
          await card.scrollIntoViewIfNeeded();
          for (const name of ["Approve", "Deny", "Always allow this command…"]) {
            const box = await card.getByRole("button", { name }).boundingBox();
            assert.ok(box && box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= 600, `${name} is in view at ${width} px (${theme})`);
          }
          const cardBox = await card.boundingBox();
          assert.ok(cardBox && cardBox.height < 600, `the card fits the view at ${width} px (${theme}): ${cardBox?.height}`);
          await narrow.page.screenshot({ path: join(screenshots, `approval-always-allow-${width}-${theme}.png`) });
          await always.click();
          assert.deepEqual(await narrow.waitForPosted("approval"), [{ type: "approval", callId: "call_always", answer: "always_allow" }]);
          assert.deepEqual(narrow.pageErrors, []);
        } finally {
          await narrow.page.close();
        }
      }
    }
  });

  it("offers Always allow read_file for a read-only tool, and no Always allow at all without the host's offer", async () => {
    const readApproval: ApprovalView = { ...hiddenApproval, callId: "call_read", hiddenCharacters: [], details: [{ name: "path", role: "path", segments: [{ text: "src/a.ts", marker: false }], note: null }], alwaysAllow: "tool" };
    await panel.sendState(panelState({ busy: true, approvals: [readApproval, { ...commandApproval }] }));
    const cards = panel.page.locator(".approval-card");
    assert.equal(await cards.nth(0).getByRole("button", { name: "Always allow read_file…" }).count(), 1);
    assert.equal(await cards.nth(1).locator(".always-allow").count(), 0);
    await panel.sendState(panelState({ busy: true, approvals: [{ ...commandApproval, deniedByRule: 'run_command deny "git push*"' }] }));
    assert.equal(await panel.page.locator(".approval-denied-by").textContent(), 'Asks because of your rule run_command deny "git push*".');
  });

  it("says why an allow rule that names the command does not cover it, rule by rule", async () => {
    const concerns: ApprovalView["commandConcerns"] = [
      { rule: 'run_command allow "git diff*"', kind: "writesFile", subject: "--output=../outside.txt" },
      { rule: 'run_command allow "git diff*"', kind: "outsideWorkspace", subject: "../secret.txt" },
      { rule: 'run_command allow "npm test"', kind: "shellSyntax", subject: "" },
    ];
    await panel.sendState(panelState({ busy: true, approvals: [{ ...commandApproval, commandConcerns: concerns }] }));
    const note = panel.page.locator(".approval-not-covered");
    assert.deepEqual(await note.locator("p").allTextContents(), ['Not covered by your rule run_command allow "git diff*":', 'Not covered by your rule run_command allow "npm test":']);
    assert.deepEqual(await note.locator("li").allTextContents(), [
      "--output=../outside.txt writes to a file.",
      "../secret.txt reaches outside the workspace.",
      'The line chains, pipes or redirects commands, and the rule does not set "shellSyntax": true.',
    ]);
    await panel.sendState(panelState({ busy: true, approvals: [{ ...commandApproval }] }));
    assert.equal(await panel.page.locator(".approval-not-covered").count(), 0, "no rule named the command: nothing to explain");
  });

  it("asks the first-use question about read-only tools on the card that offers it, once, and answers it", async () => {
    const readApproval: ApprovalView = { ...hiddenApproval, callId: "call_first", hiddenCharacters: [], details: [{ name: "path", role: "path", segments: [{ text: "src/a.ts", marker: false }], note: null }], offerReadOnlyDefault: true };
    await panel.sendState(panelState({ busy: true, approvals: [readApproval, { ...commandApproval }] }));
    const cards = panel.page.locator(".approval-card");
    assert.equal(await cards.nth(1).locator(".approval-read-only-question").count(), 0);
    await cards.nth(0).getByRole("button", { name: "Stop asking for reads" }).click();
    assert.deepEqual(await panel.waitForPosted("approval"), [{ type: "approval", callId: "call_first", answer: "read_only_always" }]);
    assert.equal(await cards.nth(0).getByRole("button", { name: "Approve" }).isDisabled(), true, "one answer per card");
  });

  it("says on the tool card which rule, or a session allowance, let a call run without asking", async () => {
    const byRule: ToolCallView = { ...call("ran", "Exit code: 0"), callId: "call_rule", approvedBy: { kind: "rule", rule: 'run_command allow "npm test" (exact)' } };
    const bySession: ToolCallView = { ...call("ran", "a.ts"), callId: "call_session", name: "read_file", approvedBy: { kind: "session" } };
    const asked = call("ran", "Exit code: 0");
    await panel.sendState({ ...conversationState(), turns: [turn("turn_rules", { toolCalls: [byRule, bySession, asked] })] });
    const cards = panel.page.locator(".tool-card");
    assert.equal(await cards.nth(0).locator(".tool-approved-by").textContent(), 'Ran without asking: your rule run_command allow "npm test" (exact)');
    assert.equal(await cards.nth(1).locator(".tool-approved-by").textContent(), "Ran without asking: allowed for this session");
    assert.equal(await cards.nth(2).locator(".tool-approved-by").count(), 0, "a call the person approved says nothing more");
  });
});
