import assert from "node:assert/strict";
import type { PanelChange, TurnView } from "../../src/panel/protocol";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// A live session of many turns, as the host sends it (a snapshot, then each turn as a patch that adds it,
// streams into it and ends it): turns far from view are stowed (media/panel/turnStower.ts), so the page's
// DOM stays about the size of what is near the view, while find, copy and scrolling back still see every turn.

const TURNS = 120;

/** window.find (not in TypeScript's DOM types): text, case-sensitive, backwards, wrap around. */
interface FindingWindow {
  find(text: string, caseSensitive: boolean, backwards: boolean, wrapAround: boolean): boolean;
}

function answerOf(index: number): string {
  const code = "```ts\n" + Array.from({ length: 6 }, (_, line) => `const value${line} = compute(${index}, ${line});`).join("\n") + "\n```";
  return [`Answer ${index} begins: word-${index}-alpha explains the part.`, "- one point\n- another point\n- a third", code, `Answer ${index} ends with word-${index}-omega.`].join("\n\n");
}

function finished(index: number): TurnView {
  return turn(`t${index}`, { userText: `Question ${index}: what next?`, answerText: answerOf(index), receipts: [receipt({ requestId: `req_${index}` })] });
}

async function frames(panel: PanelPage, count = 3): Promise<void> {
  for (let frame = 0; frame < count; frame += 1) await panel.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
}

/** Plays `count` turns the way a session sends them: the turn added running, its text streamed, its end. */
async function playTurns(panel: PanelPage, from: number, count: number): Promise<void> {
  for (let index = from; index < from + count; index += 1) {
    const id = `t${index}`;
    const order = Array.from({ length: index + 1 }, (_, turnIndex) => `t${turnIndex}`);
    const changes: PanelChange[] = [
      { kind: "turn", turn: turn(id, { userText: `Question ${index}: what next?`, answerText: "", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] }) },
      { kind: "turnOrder", turnIds: order },
    ];
    await panel.sendPatch(...changes);
    const answer = answerOf(index);
    for (let start = 0; start < answer.length; start += 150) await panel.send({ type: "answerDelta", turnId: id, text: answer.slice(start, start + 150) });
    await panel.sendPatch({ kind: "turn", turn: finished(index) });
    if (index % 10 === 9) await frames(panel, 2);
  }
  await frames(panel, 4);
  await stowingDone(panel);
}

/** Turns far from view are stowed a few at a time when the page is idle (turnStower.ts): until none waits. */
async function stowingDone(panel: PanelPage): Promise<void> {
  const stowedAfterIdle = () => panel.page.evaluate(() => new Promise<number>((resolve) => requestIdleCallback(() => resolve(document.querySelectorAll(".turn.stowed").length), { timeout: 2000 })));
  for (let last = -1, now = await stowedAfterIdle(), moments = 0; now !== last && moments < 200; moments += 1) [last, now] = [now, await stowedAfterIdle()];
}

const elementCount = (panel: PanelPage) => panel.page.evaluate(() => document.getElementsByTagName("*").length);

describe("Chat panel webview: a long live session stays small (Chromium)", function () {
  this.timeout(300_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("stows turns far from view, so 100 more turns add few elements, and shows them again when scrolled to", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ conversationId: "c1", turns: [] }));
    await playTurns(panel, 0, 20);
    const at20 = await elementCount(panel);
    await playTurns(panel, 20, TURNS - 20);
    const atEnd = await elementCount(panel);
    const perHundred = ((atEnd - at20) / (TURNS - 20)) * 100;
    assert.ok(perHundred <= 1000, `the DOM grew by ${Math.round(perHundred)} elements per 100 turns (${at20} -> ${atEnd})`);
    const stowed = await page.locator(".turn.stowed").count();
    assert.ok(stowed >= TURNS / 2, `older turns are stowed (${stowed} of ${TURNS})`);
    const newest = page.locator(`.turn[data-turn-id="t${TURNS - 1}"]`);
    assert.equal(await newest.evaluate((element) => element.classList.contains("stowed")), false, "the newest turn is whole");
    assert.match((await newest.locator(".answer").textContent()) ?? "", new RegExp(`word-${TURNS - 1}-omega`));

    // Scrolling to the top shows the first turns whole again, with their buttons and receipt, where they were.
    const first = page.locator('.turn[data-turn-id="t0"]');
    const heightStowed = await first.evaluate((element) => element.getBoundingClientRect().height);
    await page.locator(".scroller").evaluate((scroller) => (scroller.scrollTop = 0));
    await page.waitForFunction(() => !document.querySelector('.turn[data-turn-id="t0"]')?.classList.contains("stowed"));
    await frames(panel);
    assert.match((await first.locator(".answer").textContent()) ?? "", /word-0-omega/);
    assert.equal(await first.getByRole("button", { name: "Regenerate" }).count(), 1);
    assert.equal(await first.locator(".turn-receipt").count(), 1);
    assert.equal(await first.locator(".code-block, pre").first().count(), 1);
    const heightWhole = await first.evaluate((element) => element.getBoundingClientRect().height);
    assert.ok(Math.abs(heightWhole - heightStowed) <= 2, `a stowed turn holds its height (${heightStowed} stowed, ${heightWhole} whole)`);
    // ... and the newest ones, far now, are stowed in their turn.
    await page.waitForFunction((id) => document.querySelector(`.turn[data-turn-id="${id}"]`)?.classList.contains("stowed"), `t${TURNS - 2}`);
  });

  it("stows the turns a streaming answer pushes far from view only when the page is idle, not in its busy frames", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ conversationId: "c1", turns: [] }));
    await playTurns(panel, 0, 40);
    const wholeTurns = () => page.evaluate(() => Array.from(document.querySelectorAll(".turn:not(.stowed)")).map((element) => element.getAttribute("data-turn-id")));
    const wholeBefore = await wholeTurns();
    assert.ok(wholeBefore.length >= 10, `turns near the end are whole (${wholeBefore.join(", ")})`);
    // The page is kept busy, as a stream keeps it: each frame leaves under 2 ms idle.
    // (A string: the test's compiler would name a function written here, and the page has no such helper.)
    await page.evaluate(`(() => {
      window.busy = true;
      const spin = () => {
        if (!window.busy) return;
        const until = performance.now() + 15;
        while (performance.now() < until);
        requestAnimationFrame(spin);
      };
      requestAnimationFrame(spin);
    })()`);
    // A long answer streams in: every turn before it is now far from view.
    const long = Array.from({ length: 600 }, (_, line) => `Line ${line} of a long answer.`).join("\n\n");
    await panel.sendPatch(
      { kind: "turn", turn: turn("t40", { userText: "Question 40: the long one", answerText: "", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] }) },
      { kind: "turnOrder", turnIds: Array.from({ length: 41 }, (_, index) => `t${index}`) },
    );
    await panel.send({ type: "answerDelta", turnId: "t40", text: long });
    await frames(panel, 6);
    assert.deepEqual((await wholeTurns()).filter((id) => id !== "t40"), wholeBefore, "nothing is stowed in the busy frames");
    await page.evaluate(() => ((window as unknown as { busy: boolean }).busy = false));
    await stowingDone(panel);
    const wholeAfter = (await wholeTurns()).filter((id) => id !== "t40");
    assert.ok(wholeAfter.length < wholeBefore.length / 2, `once idle, the turns far from view are stowed (whole: ${wholeAfter.join(", ")})`);
  });

  it("lets find and copy see every turn, stowed ones too", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ conversationId: "c1", turns: [] }));
    await playTurns(panel, 0, 60);
    // window.find searches from the focus or selection: from the top of the page here.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      document.getSelection()?.removeAllRanges();
    });
    const first = page.locator('.turn[data-turn-id="t1"]');
    assert.equal(await first.evaluate((element) => element.classList.contains("stowed")), true, "t1 is stowed");
    assert.equal(await first.locator(".answer").count(), 0, "a stowed turn has no rendered answer");

    // Copy: selecting the whole list copies every turn, whole or stowed, in order.
    const copied = await page.evaluate(() => {
      const list = document.querySelector(".turn-list") as HTMLElement;
      const selection = document.getSelection() as Selection;
      selection.selectAllChildren(list);
      const data = new DataTransfer();
      const event = new ClipboardEvent("copy", { clipboardData: data, bubbles: true, cancelable: true });
      list.dispatchEvent(event);
      return { text: data.getData("text/plain"), prevented: event.defaultPrevented, selectionKept: selection.toString().length > 0 };
    });
    assert.equal(copied.prevented, true, "the page wrote the clipboard itself");
    assert.equal(copied.selectionKept, true, "the selection is left as it was");
    let position = -1;
    for (let index = 0; index < 60; index += 1) {
      const found = copied.text.indexOf(`word-${index}-omega`);
      assert.ok(found > position, `turn ${index}'s answer is copied, after turn ${index - 1}'s`);
      position = found;
    }
    assert.match(copied.text, /Question 0: what next\?/);

    // Find: the page's own find finds a stowed turn's answer and message, and a match shows the turn whole
    // (the browser fires beforematch on the until-found element, and scrolls to it).
    await page.evaluate(() => document.getSelection()?.removeAllRanges());
    const whole = (id: string) => page.waitForFunction((turnId) => document.querySelector(`.turn[data-turn-id="${turnId}"] .answer`) !== null, id);
    assert.equal(await page.evaluate(() => (window as unknown as FindingWindow).find("word-1-omega", false, false, true)), true, "find sees a stowed answer");
    await whole("t1");
    assert.equal(await page.locator('.turn[data-turn-id="t30"]').evaluate((element) => element.classList.contains("stowed")), true, "t30 is stowed");
    assert.equal(await page.evaluate(() => (window as unknown as FindingWindow).find("Question 30: what next", false, false, true)), true, "find sees a stowed message");
    await whole("t30");

    // A selection within whole turns is left to the browser.
    const plain = await page.evaluate((id) => {
      const answer = document.querySelector(`.turn[data-turn-id="${id}"] .answer`) as HTMLElement;
      document.getSelection()?.selectAllChildren(answer);
      const event = new ClipboardEvent("copy", { clipboardData: new DataTransfer(), bubbles: true, cancelable: true });
      answer.dispatchEvent(event);
      return event.defaultPrevented;
    }, "t30");
    assert.equal(plain, false);
  });
});
