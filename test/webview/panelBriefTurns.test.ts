import assert from "node:assert/strict";
import { briefTurnView } from "../../src/panel/turns/briefTurn";
import type { ToHost, TurnView } from "../../src/panel/protocol";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// A long conversation opens with its older turns brief (the host's briefTurnView): the page shows the
// person's message and a placeholder of about the answer's size, asks for the whole turns as they come
// near (and the rest when idle), and fills them in without moving what the reader looks at.

const TURNS = 30;
const WHOLE = 10;

function answerOf(index: number): string {
  return Array.from({ length: 12 }, (_, line) => `Paragraph ${line} of answer ${index}: the relay said something worth reading here.\n`).join("\n");
}

function wholeTurn(index: number): TurnView {
  return turn(`t${index}`, { userText: `Question number ${index}`, answerText: answerOf(index), receipts: [receipt({ requestId: `req_${index}` })] });
}

function longConversation(conversationId = "c1") {
  return panelState({
    conversationId,
    turns: Array.from({ length: TURNS }, (_, index) => (index < TURNS - WHOLE ? briefTurnView(wholeTurn(index)) : wholeTurn(index))),
  });
}

async function loadRequests(panel: PanelPage): Promise<Array<Extract<ToHost, { type: "loadTurns" }>>> {
  return (await panel.posted()).filter((message): message is Extract<ToHost, { type: "loadTurns" }> => message.type === "loadTurns");
}

async function requestedIds(panel: PanelPage): Promise<string[]> {
  return (await loadRequests(panel)).flatMap((request) => request.turnIds);
}

async function frames(panel: PanelPage, count = 3): Promise<void> {
  for (let frame = 0; frame < count; frame += 1) await panel.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
}

/** Scrolls so that the turn starts `pixelsBelowTop` into the view, as a reader who scrolled up to it. */
async function scrollReaderTo(panel: PanelPage, turnId: string, pixelsBelowTop = 0): Promise<void> {
  // Turns coming into view take their real height a frame later: scrolled there again once they have.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await panel.page.locator(`.turn[data-turn-id="${turnId}"]`).evaluate((element) => element.scrollIntoView({ block: "start" }));
    if (pixelsBelowTop !== 0) await panel.page.locator(".scroller").evaluate((scroller, by) => scroller.scrollBy(0, -by), pixelsBelowTop);
    await frames(panel, 4);
  }
}

/** The turn whole, its answer three times as long as its placeholder guessed. */
function muchLongerTurn(index: number): TurnView {
  return { ...wholeTurn(index), answerText: `${answerOf(index)}\n\n${answerOf(index)}\n\n${answerOf(index)}` };
}

describe("Chat panel webview: brief turns of a long conversation (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("shows a brief turn's message and a placeholder of about its answer's size, asks for it, and fills it in", async () => {
    const { page } = panel;
    await panel.sendState(longConversation());
    const first = page.locator('.turn[data-turn-id="t0"]');
    assert.equal(await page.locator(".turn.brief").count(), TURNS - WHOLE);
    assert.equal(await first.getAttribute("aria-busy"), "true");
    assert.equal(await first.locator(".user-text").textContent(), "Question number 0");
    const held = await first.locator(".answer-slot").evaluate((slot) => parseFloat((slot as HTMLElement).style.minHeight));
    assert.ok(held > 200, `the placeholder holds room for the answer (${held} px)`);
    const drawnLines = () => first.locator(".answer-slot").evaluate((slot) => getComputedStyle(slot).backgroundImage);
    assert.match(await drawnLines(), /repeating-linear-gradient/, "the room shows faint lines of text to come, not an empty turn");
    // The newest brief turns are near the end of the list, where the view opens: asked for at once.
    await panel.waitForPosted("loadTurns");
    const asked = await requestedIds(panel);
    assert.ok(asked.includes(`t${TURNS - WHOLE - 1}`), `the newest brief turn is asked for first: ${asked.join(", ")}`);
    assert.ok((await loadRequests(panel)).every((request) => request.conversationId === "c1"));

    // Scrolling to the top asks for the oldest turns.
    await page.locator(".scroller").evaluate((scroller) => (scroller.scrollTop = 0));
    await page.waitForFunction(() => window.__posted.some((message) => message.type === "loadTurns" && (message as { turnIds: string[] }).turnIds.includes("t0")));

    await panel.sendPatch({ kind: "turn", turn: wholeTurn(0) });
    await frames(panel);
    assert.equal(await first.getAttribute("aria-busy"), null);
    assert.equal(await first.evaluate((element) => element.classList.contains("brief")), false);
    assert.equal(await drawnLines(), "none", "the lines go when the answer is there");
    assert.match((await first.locator(".answer").textContent()) ?? "", /Paragraph 11 of answer 0/);
    // What the whole turn brings works: its receipt, with Copy as curl.
    await first.locator(".turn-receipt summary, .turn-receipt button").first().waitFor();
    assert.match((await first.locator(".footer-slot").textContent()) ?? "", /completed|1,?200|tokens/i);
  });

  it("keeps the turn the reader looks at in place while the turns above it fill in", async () => {
    const { page } = panel;
    await panel.sendState(longConversation());
    // The view opens at the end; once it settled there, the reader scrolls up to t12.
    await frames(panel, 8);
    const anchor = page.locator('.turn[data-turn-id="t12"]');
    await scrollReaderTo(panel, "t12");
    const topBefore = await anchor.evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(topBefore >= 0 && topBefore < 200, `t12 is at the top of the view (${topBefore})`);
    // Answers much longer than the placeholders guessed, for every turn above.
    for (let index = 0; index < 12; index += 1) {
      await panel.sendPatch({ kind: "turn", turn: muchLongerTurn(index) });
    }
    await frames(panel, 6);
    const topAfter = await anchor.evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(Math.abs(topAfter - topBefore) <= 2, `the turn stayed where it was: ${topBefore} -> ${topAfter}`);
    assert.equal(await page.locator(".jump-to-latest.has-new").count(), 0, "filling in older turns is not news below");
  });

  it("keeps the turn that starts in the view in place when the turn cut at the top of the view fills in", async () => {
    const { page } = panel;
    await panel.sendState(longConversation());
    await frames(panel, 8);
    const reading = page.locator('.turn[data-turn-id="t12"]');
    // The reader sees the last 60 px of t11 (brief, its placeholder lines) and t12 below it.
    await scrollReaderTo(panel, "t12", 60);
    const topBefore = await reading.evaluate((element) => element.getBoundingClientRect().top - (document.querySelector(".scroller") as HTMLElement).getBoundingClientRect().top);
    assert.ok(Math.abs(topBefore - 60) <= 2, `t12 starts 60 px into the view (${topBefore})`);
    // t11's answer comes in three times as long as its placeholder guessed.
    await panel.sendPatch({ kind: "turn", turn: muchLongerTurn(11) });
    await frames(panel, 6);
    const topAfter = await reading.evaluate((element) => element.getBoundingClientRect().top - (document.querySelector(".scroller") as HTMLElement).getBoundingClientRect().top);
    assert.ok(Math.abs(topAfter - topBefore) <= 2, `the turn the reader reads stayed where it was: ${topBefore} -> ${topAfter}`);
  });

  it("offers a brief turn's actions before it is filled in: edit, regenerate, its versions and restoring its files", async () => {
    const { page } = panel;
    const state = longConversation();
    state.turns[0] = briefTurnView(turn("t0", { ...wholeTurn(0), branchIndex: 0, branchCount: 2, changedFiles: 2 }));
    await panel.sendState(state);
    const first = page.locator('.turn[data-turn-id="t0"]');
    await first.scrollIntoViewIfNeeded();
    assert.equal(await first.getAttribute("aria-busy"), "true");
    await panel.clearPosted();
    await first.getByRole("button", { name: "Regenerate" }).click();
    await first.getByRole("button", { name: "Next version" }).click();
    await first.getByRole("button", { name: "Restore files to before this turn" }).click();
    const posted = (await panel.posted()).filter((message) => message.type !== "loadTurns");
    assert.deepEqual(posted, [
      { type: "regenerate", turnId: "t0" },
      { type: "showBranch", turnId: "t0", direction: 1 },
      { type: "turnChanges", turnId: "t0", action: "restore" },
    ]);
    await first.getByRole("button", { name: "Edit" }).click();
    assert.equal(await page.getByRole("textbox", { name: "Message" }).inputValue(), "Question number 0");
  });

  it("streams a new answer at the end while older turns are brief", async () => {
    const { page } = panel;
    const state = longConversation();
    const running = turn("t_new", { userText: "And now?", answerText: "Part one", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] });
    await panel.sendState({ ...state, busy: true, turns: [...state.turns, running] });
    await panel.send({ type: "answerDelta", turnId: "t_new", text: ", part two" });
    await panel.sendPatch({ kind: "turn", turn: wholeTurn(0) });
    await panel.send({ type: "answerDelta", turnId: "t_new", text: ", part three." });
    assert.equal((await page.locator('.turn[data-turn-id="t_new"] .answer').textContent())?.trim(), "Part one, part two, part three.");
  });

  it("asks only for the conversation on screen after another one opens", async () => {
    const { page } = panel;
    await panel.sendState(longConversation("c1"));
    await panel.waitForPosted("loadTurns");
    await panel.clearPosted();
    const other = longConversation("c2").turns.map((view) => ({ ...view, id: `c2_${view.id}` }));
    await panel.sendPatch({ kind: "fields", fields: { conversationId: "c2" } }, ...other.map((view) => ({ kind: "turn" as const, turn: view })), { kind: "turnOrder", turnIds: other.map((view) => view.id) });
    await page.locator(".scroller").evaluate((scroller) => (scroller.scrollTop = 0));
    await page.waitForFunction(() => window.__posted.some((message) => message.type === "loadTurns" && (message as { turnIds: string[] }).turnIds.includes("c2_t0")));
    const requests = await loadRequests(panel);
    assert.ok(requests.every((request) => request.conversationId === "c2" && request.turnIds.every((id) => id.startsWith("c2_"))), JSON.stringify(requests));
  });
});
