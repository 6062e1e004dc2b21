import assert from "node:assert/strict";
import { briefTurnView } from "../../src/panel/turns/briefTurn";
import type { TurnView } from "../../src/panel/protocol";
import { panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// A conversation of hundreds of turns opens (a reload's snapshot, or a patch from the history): the turns before
// its newest 48 start stowed (TurnElement.openStowed), so the page builds about what a short conversation costs,
// while find, scrolling up and the brief turns' filling in still reach every turn.

const TURNS = 400;

/** What 48 rendered turns and 352 stowed ones come to, with room; all 400 rendered take over 12,000. */
const MOST_ELEMENTS = 5000;

/** window.find (not in TypeScript's DOM types): text, case-sensitive, backwards, wrap around. */
interface FindingWindow {
  find(text: string, caseSensitive: boolean, backwards: boolean, wrapAround: boolean): boolean;
}

function shortTurn(index: number, prefix = "t"): TurnView {
  return turn(`${prefix}${index}`, {
    userText: `Question ${index}: what comes next?`,
    answerText: `Answer ${index}: a short one with a list.\n\n- word-${index}-alpha\n- another point\n\nAnd a closing sentence.`,
    receipts: [receipt({ requestId: `req_${prefix}${index}` })],
  });
}

async function frames(panel: PanelPage, count = 3): Promise<void> {
  for (let frame = 0; frame < count; frame += 1) await panel.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
}

const elementCount = (panel: PanelPage) => panel.page.evaluate(() => document.getElementsByTagName("*").length);
const isStowed = (panel: PanelPage, id: string) => panel.page.locator(`.turn[data-turn-id="${id}"]`).evaluate((element) => element.classList.contains("stowed"));

describe("Chat panel webview: a conversation of hundreds of turns opens light (Chromium)", function () {
  this.timeout(120_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("opens with the older turns stowed and the newest rendered, and shows a far turn whole when scrolled to or found", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ conversationId: "c1", turns: Array.from({ length: TURNS }, (_, index) => shortTurn(index)) }));
    await frames(panel, 2);
    const elements = await elementCount(panel);
    assert.ok(elements <= MOST_ELEMENTS, `${elements} elements for ${TURNS} turns`);
    assert.equal(await page.locator(".turn").count(), TURNS, "every turn is in the list");
    assert.equal(await isStowed(panel, "t0"), true);
    assert.equal(await isStowed(panel, `t${TURNS - 1}`), false);
    const newest = page.locator(`.turn[data-turn-id="t${TURNS - 1}"]`);
    assert.match((await newest.locator(".answer").textContent()) ?? "", new RegExp(`word-${TURNS - 1}-alpha`));
    assert.equal(await newest.locator(".turn-receipt").count(), 1);

    // Find reaches a stowed turn's answer, and shows the turn whole.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    assert.equal(await page.evaluate(() => (window as unknown as FindingWindow).find("word-100-alpha", false, false, true)), true, "find sees a stowed answer");
    await page.waitForFunction(() => document.querySelector('.turn[data-turn-id="t100"] .answer') !== null);

    // Scrolling to the top renders the first turns, with their buttons and receipt.
    await page.locator(".scroller").evaluate((scroller) => (scroller.scrollTop = 0));
    await page.waitForFunction(() => document.querySelector('.turn[data-turn-id="t0"] .answer') !== null);
    const first = page.locator('.turn[data-turn-id="t0"]');
    assert.equal(await first.getByRole("button", { name: "Regenerate" }).count(), 1);
    assert.equal(await first.locator(".turn-receipt").count(), 1);
  });

  it("opens another long conversation from a patch the same way, without rendering its older turns", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ conversationId: "c1", turns: Array.from({ length: 20 }, (_, index) => shortTurn(index)) }));
    await frames(panel, 2);
    const other = Array.from({ length: TURNS }, (_, index) => shortTurn(index, "c2_"));
    await panel.sendPatch({ kind: "fields", fields: { conversationId: "c2" } }, ...other.map((view) => ({ kind: "turn" as const, turn: view })), { kind: "turnOrder", turnIds: other.map((view) => view.id) });
    await frames(panel, 2);
    const elements = await elementCount(panel);
    assert.ok(elements <= MOST_ELEMENTS, `${elements} elements for ${TURNS} turns`);
    assert.equal(await page.locator(".turn").count(), TURNS);
    assert.equal(await isStowed(panel, "c2_0"), true);
    assert.equal(await isStowed(panel, `c2_${TURNS - 1}`), false);
    // The view is at the end, on the newest turn.
    const newestBottom = await page.locator(`.turn[data-turn-id="c2_${TURNS - 1}"]`).evaluate((element) => element.getBoundingClientRect().bottom);
    const scrollerBottom = await page.locator(".scroller").evaluate((scroller) => scroller.getBoundingClientRect().bottom);
    assert.ok(Math.abs(newestBottom - scrollerBottom) < 80, `the newest turn ends the view (${newestBottom} / ${scrollerBottom})`);
  });

  it("comes back after a reload at a place far up: that turn is rendered and where the reader left it", async () => {
    const reloaded = await current.harness().open({ savedState: { place: { conversationId: "c1", turnId: "t100", offset: 40 } } });
    try {
      const { page } = reloaded;
      await reloaded.sendState(panelState({ conversationId: "c1", turns: Array.from({ length: TURNS }, (_, index) => shortTurn(index)) }));
      await page.waitForFunction(() => {
        const scroller = document.querySelector(".scroller") as HTMLElement;
        const turnElement = document.querySelector('.turn[data-turn-id="t100"]') as HTMLElement;
        return turnElement.querySelector(".answer") !== null && Math.abs(scroller.getBoundingClientRect().top - turnElement.getBoundingClientRect().top - 40) <= 1;
      });
      // The turns around it render too, taking their real heights: the place holds.
      await frames(reloaded, 40);
      const offset = await page.evaluate(() => (document.querySelector(".scroller") as HTMLElement).getBoundingClientRect().top - (document.querySelector('.turn[data-turn-id="t100"]') as HTMLElement).getBoundingClientRect().top);
      assert.ok(Math.abs(offset - 40) <= 1, `the place held: ${offset}`);
      assert.equal(await isStowed(reloaded, "t0"), true, "turns far from the place stay stowed");
    } finally {
      await reloaded.page.close();
    }
  });

  it("fills a stowed brief turn in as its whole view arrives, so find sees its answer before it renders", async () => {
    const { page } = panel;
    const turns = Array.from({ length: TURNS }, (_, index) => (index < TURNS - 10 ? briefTurnView({ ...shortTurn(index), answerText: `${shortTurn(index).answerText}\n\n${"More text. ".repeat(120)}` }) : shortTurn(index)));
    await panel.sendState(panelState({ conversationId: "c1", turns }));
    await frames(panel, 2);
    assert.equal(await isStowed(panel, "t5"), true);
    await panel.sendPatch({ kind: "turn", turn: shortTurn(5) });
    await frames(panel, 2);
    assert.equal(await isStowed(panel, "t5"), true, "filled in, still stowed far from view");
    assert.equal(await page.evaluate(() => (window as unknown as FindingWindow).find("word-5-alpha", false, false, true)), true, "find sees the answer that arrived");
    await page.waitForFunction(() => document.querySelector('.turn[data-turn-id="t5"] .answer') !== null);
  });
});
