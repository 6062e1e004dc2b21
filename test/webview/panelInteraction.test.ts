import assert from "node:assert/strict";
import type { ApprovalView } from "../../src/panel/protocol";
import { conversationState, panelState, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
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
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
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

  it("says the running turn waits for approval while a call waits, and Working… again once it is answered", async () => {
    const { page } = panel;
    const running = turn("t1", { answerText: "", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] });
    await panel.sendState(panelState({ busy: true, turns: [running], approvals: [writeApproval] }));
    const progress = page.locator(".turn-progress");
    assert.equal(await progress.innerText(), "Waiting for your approval");
    await panel.sendPatch({ kind: "approvals", approvals: [] });
    assert.equal(await progress.innerText(), "Working…");
    // A patch that brings an approval while the turn runs.
    await panel.sendPatch({ kind: "approvals", approvals: [writeApproval] });
    assert.equal(await progress.innerText(), "Waiting for your approval");
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

  it("marks an incomplete answer as not sent with the next message, offers Include beside Continue, and says once it is included", async () => {
    const { page } = panel;
    const cut = turn("t1", { outcome: "incomplete", outcomeLabel: "incomplete (max_output_tokens)", sentLater: "left_out", actions: ["continue", "retry"] });
    await panel.sendState(panelState({ turns: [cut] }));
    const state = page.locator(".turn-state");
    assert.match((await state.innerText()) ?? "", /Not sent with the next message\./);
    assert.equal(await state.getByRole("button", { name: "Continue", exact: true }).count(), 1, "Continue stays");
    await panel.clearPosted();
    await state.getByRole("button", { name: "Include in the next message" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "includeTurn", turnId: "t1" }]);

    await panel.sendState(panelState({ turns: [{ ...cut, sentLater: "included" }] }));
    assert.match((await page.locator(".turn-state").innerText()) ?? "", /Your message and this partial answer are sent with later messages\./);
    assert.equal(await page.getByRole("button", { name: "Include in the next message" }).count(), 0);
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
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).count(), 0, "Stop takes Send's place");
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

  it("picks a model in the composer, or asks the host for an unlisted one", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    await panel.clearPosted();
    const picker = page.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    await picker.selectOption("relay-small");
    await picker.selectOption({ label: "Other model…" });
    assert.equal(await picker.inputValue(), "relay-large", "the picker keeps the current model until the host says otherwise");
    assert.deepEqual(await panel.posted(), [
      { type: "selectModel", model: "relay-small" },
      { type: "fix", action: "selectModel" },
    ]);
  });

  it("opens the history from the title, filters it by typing, and acts on its entries", async () => {
    const { page } = panel;
    const now = Date.now();
    await panel.sendState(
      panelState({
        conversations: [
          { id: "c1", title: "Sorting in Rust", updatedAt: now - 5 * 60_000, turnCount: 3, model: "relay-large" },
          { id: "c2", title: "CSS grid", updatedAt: now - 26 * 3600_000, turnCount: 1, model: "relay-small" },
          { id: "c3", title: "Flaky test", updatedAt: now - 40 * 86_400_000, turnCount: 12, model: "relay-large" },
        ],
      }),
    );
    await page.locator(".title-button").click();
    const history = page.getByRole("region", { name: "Chat history" });
    assert.equal(await history.isVisible(), true);
    const filter = history.getByRole("searchbox", { name: "Filter conversations" });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Filter conversations");
    const entries = history.locator(".history-entry");
    assert.equal(await entries.count(), 3);
    assert.deepEqual(await entries.locator(".history-entry-meta").allInnerTexts(), ["5 minutes ago · relay-large · 3 messages", "yesterday · relay-small · 1 message", `${new Intl.DateTimeFormat("en", { dateStyle: "medium" }).format(new Date(now - 40 * 86_400_000))} · relay-large · 12 messages`]);
    assert.equal(await entries.nth(0).locator(".history-open").getAttribute("aria-current"), "true");
    await filter.fill("small");
    assert.deepEqual(await entries.locator(".history-entry-title").allInnerTexts(), ["CSS grid"], "filters by model too");
    await filter.fill("rust");
    assert.deepEqual(await entries.locator(".history-entry-title").allInnerTexts(), ["Sorting in Rust"]);
    await filter.fill("nothing like this");
    assert.equal(await entries.count(), 0);
    assert.equal(await history.getByText("No conversation matches the filter.").isVisible(), true);
    await filter.fill("");
    await panel.clearPosted();
    await history.getByRole("button", { name: "Rename CSS grid" }).click();
    await history.getByRole("button", { name: "Export CSS grid" }).click();
    await history.getByRole("button", { name: "Delete CSS grid" }).click();
    await history.getByRole("button", { name: /^Flaky test/ }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "renameConversation", conversationId: "c2" },
      { type: "exportConversation", conversationId: "c2" },
      { type: "deleteConversation", conversationId: "c2" },
      { type: "switchConversation", conversationId: "c3" },
    ]);
    assert.equal(await history.isVisible(), false, "opening a conversation goes back to the chat");
    // The view's History action opens it too; Escape closes it and gives the message box its focus back.
    await panel.send({ type: "showHistory" });
    assert.equal(await history.isVisible(), true);
    await page.keyboard.press("Escape");
    assert.equal(await history.isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
  });

  it("shows attachments as removable chips, offers the selection, and attaches through the paperclip", async () => {
    const { page } = panel;
    await panel.sendState(
      panelState({
        attachments: [
          { id: "a1", label: "main.rs:1-20", kind: "selection" },
          { id: "a2", label: "Cargo.toml", kind: "file" },
        ],
        selectionOffer: { label: "lib.rs:3-9" },
      }),
    );
    await panel.clearPosted();
    await page.getByRole("button", { name: "Remove Cargo.toml" }).click();
    await page.getByRole("button", { name: "Attach selection lib.rs:3-9" }).click();
    await page.getByRole("button", { name: "Attach context" }).click();
    await page.getByRole("button", { name: "What the model is told" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "removeAttachment", id: "a2" }, { type: "attachSelection" }, { type: "attachFile" }, { type: "showInstructions" }]);
    // A selection already attached is not offered again.
    await panel.sendState(panelState({ attachments: [{ id: "a3", label: "lib.rs:3-9", kind: "selection" }], selectionOffer: { label: "lib.rs:3-9" } }));
    assert.equal(await page.getByRole("button", { name: /^Attach selection/ }).count(), 0);
    await panel.sendState(panelState());
    assert.equal(await page.locator(".composer-chips .chip").count(), 0);
  });

  it("shows the active editor's file as a chip that one click removes, once even when it is attached too", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ activeFileOffer: { label: "src/lib.rs" } }));
    const chip = page.locator(".composer-chips .chip.active-file");
    assert.equal(await chip.count(), 1);
    assert.match((await chip.textContent()) ?? "", /src\/lib\.rs.*Current file/);
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).isDisabled(), true, "the file alone is no message");
    await panel.clearPosted();
    await page.getByRole("button", { name: "Remove src/lib.rs" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "removeActiveFile" }]);
    await panel.sendState(panelState({ attachments: [{ id: "a1", label: "src/lib.rs", kind: "file" }], activeFileOffer: { label: "src/lib.rs" } }));
    assert.equal(await page.locator(".composer-chips .chip").count(), 1, "attached by hand, it shows (and goes) once");
    assert.equal(await chip.count(), 0);
  });

  it("picks a workspace file with # and sends only once the text is cleaned", async () => {
    const { page } = panel;
    await panel.sendState(panelState());
    const box = page.getByLabel("Message", { exact: true });
    await panel.clearPosted();
    await box.pressSequentially("Explain #rea");
    await panel.waitForPosted("findFiles");
    assert.deepEqual((await panel.posted()).filter((message) => message.type === "findFiles").at(-1), { type: "findFiles", query: "rea" });
    await panel.send({ type: "fileMatches", query: "re", files: [{ path: "stale.md" }] });
    assert.equal(await page.getByRole("listbox", { name: "Context to attach" }).isVisible(), false, "an answer to an older query is ignored");
    await panel.send({ type: "fileMatches", query: "rea", files: [{ path: "README.md" }, { path: "docs/reading-list.md" }] });
    const list = page.getByRole("listbox", { name: "Context to attach" });
    assert.equal(await list.isVisible(), true);
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    const active = await box.getAttribute("aria-activedescendant");
    assert.equal(await page.locator(`[id="${active}"]`).innerText(), "README.md");
    await box.press("ArrowDown");
    assert.match(await page.locator(`[id="${await box.getAttribute("aria-activedescendant")}"]`).innerText(), /reading-list\.md/);
    await box.press("ArrowUp");
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "attachPath", path: "README.md" }], "Enter picks, it does not send");
    assert.equal(await box.inputValue(), "Explain ");
    assert.equal(await list.isVisible(), false);
    await box.pressSequentially("it");
    await box.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "send", text: "Explain it" });
    // Escape closes the list without touching the text.
    await box.pressSequentially("#x");
    await panel.send({ type: "fileMatches", query: "x", files: [{ path: "x.ts" }] });
    await box.press("Escape");
    assert.equal(await list.isVisible(), false);
    assert.equal(await box.inputValue(), "#x");
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
    await page.getByRole("button", { name: "Attach context" }).focus();
    await panel.send({ type: "focusInput" });
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
    await panel.sendState(panelState({ turns: [turn("l1")] }), { Send: "Senden", Message: "Nachricht", "Turn details": "Details" });
    assert.equal(await page.getByRole("button", { name: "Senden" }).count(), 1);
    assert.equal(await page.getByLabel("Nachricht", { exact: true }).inputValue(), "draft");
    assert.equal(await page.getByRole("region", { name: "Details" }).count(), 1);
  });

  it("follows new text at the bottom, offers Jump to latest with a dot when the user scrolled up, and shows a sent message", async () => {
    const { page } = panel;
    const long = Array.from({ length: 60 }, (_, index) => `Paragraph ${index} of an answer that is long enough to scroll.`).join("\n\n");
    await panel.sendState(panelState({ busy: true, turns: [turn("s1", { answerText: long, streaming: true, outcome: "in_progress", receipts: [] })] }));
    const scroller = page.locator(".scroller");
    const atEnd = () => scroller.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight < 4);
    await page.waitForFunction(() => {
      const node = document.querySelector(".scroller")!;
      return node.scrollHeight - node.scrollTop - node.clientHeight < 4;
    });
    const jump = page.getByRole("button", { name: "Jump to latest" });
    assert.equal(await jump.isVisible(), false, "at the end: nothing to jump to");
    await panel.send({ type: "answerDelta", turnId: "s1", text: "\n\nMore text arrives." });
    await page.waitForFunction(() => document.body.textContent?.includes("More text arrives."));
    // Followed while at the end: the view moves with the new text (on a frame, later on a loaded machine).
    await page.waitForFunction(() => {
      const node = document.querySelector(".scroller")!;
      return node.scrollHeight - node.scrollTop - node.clientHeight < 4;
    });
    assert.equal(await atEnd(), true, "followed while at the end");
    // The user scrolls up to read: new text no longer moves the view; the button says there is more.
    await scroller.evaluate((node) => (node.scrollTop = 0));
    await jump.waitFor();
    assert.doesNotMatch((await jump.getAttribute("class")) ?? "", /has-new/);
    await panel.send({ type: "answerDelta", turnId: "s1", text: "\n\nEven more." });
    await page.locator(".jump-to-latest.has-new").waitFor();
    assert.equal(await scroller.evaluate((node) => node.scrollTop), 0, "the reader's place is kept");
    assert.match((await jump.getAttribute("class")) ?? "", /has-new/);
    await jump.click();
    await page.waitForFunction(() => {
      const node = document.querySelector(".scroller")!;
      return node.scrollHeight - node.scrollTop - node.clientHeight < 4;
    });
    assert.equal(await jump.isVisible(), false);
    // Sending while scrolled up brings the view to the new message.
    await panel.sendState(panelState({ turns: [turn("s1", { answerText: long })] }));
    await scroller.evaluate((node) => (node.scrollTop = 0));
    await page.getByLabel("Message", { exact: true }).fill("next question");
    await page.getByLabel("Message", { exact: true }).press("Enter");
    await panel.sendPatch({ kind: "turn", turn: turn("s2", { userText: "next question", answerText: "", streaming: true, outcome: "in_progress", receipts: [] }) }, { kind: "turnOrder", turnIds: ["s1", "s2"] });
    await page.waitForFunction(() => {
      const node = document.querySelector(".scroller")!;
      return node.scrollHeight - node.scrollTop - node.clientHeight < 4;
    });
    assert.equal(await page.locator("article[data-turn-id=s2] .user-text").isVisible(), true);
  });
});
