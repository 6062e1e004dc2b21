import assert from "node:assert/strict";
import type { ApprovalView } from "../../src/panel/protocol";
import { conversationState, panelState, turn } from "./fixtures/panelStates";
import { PanelHarness } from "./support/panelHarness";
import type { PanelPage } from "./support/panelHarness";

const writeApproval: ApprovalView = {
  callId: "call_write",
  toolName: "write_file",
  toolDescription: "Writes a file in the workspace.",
  risk: "write",
  argumentsJson: '{\n  "path": "src/main.rs",\n  "content": "fn main() {}"\n}',
  canAllowForSession: true,
};

describe("Chat panel webview: interaction (Chromium)", function () {
  this.timeout(60_000);
  let harness: PanelHarness;
  let panel: PanelPage;

  before(async () => {
    harness = await PanelHarness.start();
  });

  after(async () => {
    await harness?.close();
  });

  beforeEach(async () => {
    panel = await harness.open();
  });

  afterEach(async () => {
    const violations = await panel.page.evaluate(() => window.__cspViolations);
    await panel.page.close();
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(violations, []);
  });

  it("shows a pending approval with risk, description and exact arguments, and posts each answer", async () => {
    const { page } = panel;
    const readApproval: ApprovalView = { ...writeApproval, callId: "call_read", toolName: "read_file", risk: "read", canAllowForSession: false };
    await panel.sendState(panelState({ busy: true, approvals: [writeApproval, readApproval] }));
    const cards = page.locator(".approval-card");
    assert.equal(await cards.count(), 2);
    const writeCard = cards.nth(0);
    assert.match((await writeCard.getAttribute("class")) ?? "", /risk-write/);
    assert.match((await writeCard.textContent()) ?? "", /write_file.*write.*Changes files in your workspace\..*Writes a file in the workspace\./s);
    assert.equal(await writeCard.locator("pre").textContent(), writeApproval.argumentsJson);
    assert.equal(await cards.nth(1).getByRole("button", { name: "Allow for this session" }).count(), 0, "not offered when the policy forbids it");

    await panel.clearPosted();
    await writeCard.getByRole("button", { name: "Approve", exact: true }).click();
    assert.equal(await writeCard.getByRole("button", { name: "Deny", exact: true }).isDisabled(), true, "one answer per card");
    await cards.nth(1).getByRole("button", { name: "Deny", exact: true }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "approval", callId: "call_write", answer: "approve" },
      { type: "approval", callId: "call_read", answer: "deny" },
    ]);

    // A new approval; the host drops the answered ones.
    await panel.sendState(panelState({ busy: true, approvals: [{ ...writeApproval, callId: "call_next", risk: "execute" }] }));
    assert.equal(await cards.count(), 1);
    assert.match((await cards.nth(0).getAttribute("class")) ?? "", /risk-execute/);
    await panel.clearPosted();
    await page.getByRole("button", { name: "Allow for this session" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "approval", callId: "call_next", answer: "allow_session" }]);
  });

  it("reaches the Approve button with the keyboard alone and answers with Enter", async () => {
    const { page } = panel;
    await panel.sendState({ ...conversationState(), busy: true, approvals: [writeApproval] });
    await panel.clearPosted();
    let reached = false;
    for (let presses = 0; presses < 80 && !reached; presses++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement?.textContent === "Approve");
    }
    assert.ok(reached, "Approve is in the tab order");
    // The focused control shows a visible focus indicator.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, "none");
    await page.keyboard.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "approval", callId: "call_write", answer: "approve" }]);
  });

  it("sends on Enter, adds a line on Shift+Enter, and never sends during IME composition", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const box = page.getByLabel("Message", { exact: true });
    await panel.clearPosted();
    await box.fill("first line");
    await box.press("Shift+Enter");
    await box.pressSequentially("second line");
    assert.equal(await box.inputValue(), "first line\nsecond line");
    assert.deepEqual(await panel.posted(), []);

    // Enter that commits an IME composition (isComposing, or keyCode 229 in some engines).
    for (const init of [{ isComposing: true, keyCode: 13 }, { isComposing: false, keyCode: 229 }]) {
      await box.evaluate((element, eventInit) => {
        element.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true, ...eventInit }));
      }, init);
    }
    assert.deepEqual(await panel.posted(), []);

    await box.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "send", text: "first line\nsecond line" }]);
    assert.equal(await box.inputValue(), "", "the box is cleared");
    // Nothing to send: Enter does nothing and Send is disabled.
    await box.press("Enter");
    await box.fill("   ");
    await box.press("Enter");
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).isDisabled(), true);
    assert.equal((await panel.posted()).length, 1);
    await box.fill("via button");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    assert.deepEqual((await panel.posted())[1], { type: "send", text: "via button" });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message", "focus returns to the box");
  });

  it("offers Stop while busy (button and Escape) and blocks sending until done", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const stop = page.getByRole("button", { name: "Stop", exact: true });
    assert.equal(await stop.isVisible(), false);
    await panel.sendState(panelState({ busy: true, turns: [turn("b1", { streaming: true, answerText: "Thinking", outcome: "in_progress", receipts: [] })] }));
    assert.equal(await stop.isVisible(), true);
    assert.equal(await stop.isEnabled(), true);
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("next question");
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).isDisabled(), true);
    await panel.clearPosted();
    await box.press("Enter");
    await stop.click();
    await box.press("Escape");
    assert.deepEqual(await panel.posted(), [{ type: "stop" }, { type: "stop" }]);
    assert.equal(await box.inputValue(), "next question", "the draft is kept while busy");
    await panel.sendState(panelState({ turns: [turn("b1", { answerText: "Thinking", outcome: "cancelled", outcomeLabel: "cancelled", actions: ["retry"] })] }));
    assert.equal(await stop.isVisible(), false);
    await panel.clearPosted();
    await box.press("Escape");
    assert.deepEqual(await panel.posted(), []);
    await page.waitForFunction(() => document.querySelector(".visually-hidden[role=status]")?.textContent === "Answer ended: cancelled");
  });

  it("edits a user turn back into the box and resends it; regenerates; moves between versions", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    const second = page.locator("article[data-turn-id=t2]");
    await panel.clearPosted();
    await second.getByRole("button", { name: "Edit", exact: true }).click();
    const box = page.getByLabel("Message", { exact: true });
    assert.equal(await box.inputValue(), "Read my Cargo.toml");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
    await box.pressSequentially(" please");
    await box.press("Enter");
    await second.getByRole("button", { name: "Regenerate" }).click();
    await second.getByRole("button", { name: "Previous version" }).click();
    assert.equal(await second.getByRole("button", { name: "Next version" }).isDisabled(), true, "already the last version");
    assert.deepEqual(await panel.posted(), [
      { type: "editAndResend", turnId: "t2", text: "Read my Cargo.toml please" },
      { type: "regenerate", turnId: "t2" },
      { type: "showBranch", turnId: "t2", direction: -1 },
    ]);
    // After the edit was sent, Enter sends a plain message again.
    await box.fill("new");
    await box.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "send", text: "new" });
  });

  it("drives the header: model, refresh, new chat, conversations", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    await panel.clearPosted();
    await page.getByLabel("Model", { exact: true }).selectOption("relay-small");
    await page.getByRole("button", { name: "Refresh models" }).click();
    await page.getByRole("button", { name: "New chat", exact: true }).click();
    await page.getByLabel("Conversation", { exact: true }).selectOption("c2");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("button", { name: "Export" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "selectModel", model: "relay-small" },
      { type: "refreshModels" },
      { type: "newChat" },
      { type: "switchConversation", conversationId: "c2" },
      // The state still names c1 as current: the host has not switched yet.
      { type: "renameConversation", conversationId: "c1" },
      { type: "exportConversation", conversationId: "c1" },
      { type: "deleteConversation", conversationId: "c1" },
    ]);
    // A new chat that is not saved yet has nothing to rename.
    await panel.sendState(panelState({ conversationId: null }));
    assert.equal(await page.getByRole("button", { name: "Rename" }).isDisabled(), true);
  });

  it("shows attachments as removable chips and attaches selection or file", async () => {
    const { page } = panel;
    await panel.sendState(
      panelState({
        attachments: [
          { id: "a1", label: "main.rs:1-20", kind: "selection" },
          { id: "a2", label: "Cargo.toml", kind: "file" },
        ],
      }),
    );
    await panel.clearPosted();
    await page.getByRole("button", { name: "Remove Cargo.toml" }).click();
    await page.getByRole("button", { name: "Attach selection" }).click();
    await page.getByRole("button", { name: "Attach file" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "removeAttachment", id: "a2" }, { type: "attachSelection" }, { type: "attachFile" }]);
    await panel.sendState(panelState());
    assert.equal(await page.locator(".attachment-chip").count(), 0);
  });

  it("asks before an expensive send: Send anyway, Cancel, Escape", async () => {
    const { page } = panel;
    const spendWarning = { estimatedInputTokens: 90_000, thresholdTokens: 50_000, text: "About 90,000 input tokens, above your threshold of 50,000." };
    await panel.sendState(panelState({ busy: true, spendWarning }));
    const dialog = page.getByRole("alertdialog");
    assert.match((await dialog.textContent()) ?? "", /90,000 input tokens/);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel", "focus starts on the safe choice");
    await panel.clearPosted();
    await dialog.getByRole("button", { name: "Send anyway" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "confirmSend", confirmed: true }]);

    await panel.sendState(panelState({ busy: true, spendWarning: { ...spendWarning, text: "Again." } }));
    await panel.clearPosted();
    await page.keyboard.press("Escape");
    assert.deepEqual(await panel.posted(), [{ type: "confirmSend", confirmed: false }], "Escape cancels the send, it does not stop");
    await panel.sendState(panelState());
    assert.equal(await page.getByRole("alertdialog").count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
  });

  it("focuses the box on focusInput and uses the host's strings", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    await page.getByLabel("Message", { exact: true }).fill("draft");
    await page.getByRole("button", { name: "Attach file" }).focus();
    await panel.send({ type: "focusInput" });
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
    await panel.sendState(panelState({ turns: [turn("l1")] }), { Send: "Senden", Message: "Nachricht", "Turn details": "Details" });
    assert.equal(await page.getByRole("button", { name: "Senden" }).count(), 1);
    assert.equal(await page.getByLabel("Nachricht", { exact: true }).inputValue(), "draft");
    assert.equal(await page.getByRole("region", { name: "Details" }).count(), 1);
  });
});
