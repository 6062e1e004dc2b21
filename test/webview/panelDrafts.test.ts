import assert from "node:assert/strict";
import { briefTurnView } from "../../src/panel/turns/briefTurn";
import type { TurnView } from "../../src/panel/protocol";
import { conversationState, panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// Nothing typed is lost: editing an earlier message borrows the message box and gives the draft back, and a
// reloaded page (VS Code hands it the state it saved) comes back with the draft, an edit under way and the
// place the person was reading, also when the turns there arrive brief and fill in later.

interface SavedState {
  draft: string;
  edit?: { turnId: string; text: string };
  place?: { conversationId: string; turnId: string; offset: number };
}

const savedState = (panel: PanelPage) => panel.page.evaluate(() => (window as unknown as { __savedState: SavedState | undefined }).__savedState);

function answerOf(index: number): string {
  return Array.from({ length: 12 }, (_, line) => `Paragraph ${line} of answer ${index}: the relay said something worth reading here.\n`).join("\n");
}

function wholeTurn(index: number): TurnView {
  return turn(`t${index}`, { userText: `Question number ${index}`, answerText: answerOf(index), receipts: [receipt({ requestId: `req_${index}` })] });
}

/** 30 turns, the older 20 brief, as the host opens a long conversation. */
function longConversation() {
  return panelState({ conversationId: "c1", turns: Array.from({ length: 30 }, (_, index) => (index < 20 ? briefTurnView(wholeTurn(index)) : wholeTurn(index))) });
}

/** How far the top of the view is into the turn (what the saved place records). */
function offsetInto(panel: PanelPage, turnId: string): Promise<number> {
  return panel.page.evaluate((id) => {
    const scroller = document.querySelector(".scroller") as HTMLElement;
    const turnElement = document.querySelector(`.turn[data-turn-id="${id}"]`) as HTMLElement;
    return Math.round(scroller.getBoundingClientRect().top - turnElement.getBoundingClientRect().top);
  }, turnId);
}

describe("Chat panel webview: drafts and the place in the conversation (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("keeps the draft while an earlier message is edited and gives it back on Cancel edit, Escape and after sending the edit", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    const box = page.getByRole("textbox", { name: "Message" });
    const second = page.locator("article[data-turn-id=t2]");
    await box.fill("my unsent draft, half written");
    await second.getByRole("button", { name: "Edit", exact: true }).click();
    assert.equal(await box.inputValue(), "Read my Cargo.toml");
    await box.pressSequentially(" again");
    assert.deepEqual(await savedState(panel), { draft: "my unsent draft, half written", edit: { turnId: "t2", text: "Read my Cargo.toml again" } }, "a reload while editing loses neither");

    await page.getByRole("button", { name: "Cancel edit" }).click();
    assert.equal(await box.inputValue(), "my unsent draft, half written");
    assert.deepEqual(await savedState(panel), { draft: "my unsent draft, half written" });
    // Ctrl+Z in the box goes back through what the edit put there, not to an empty box.
    await box.press("Control+z");
    assert.equal(await box.inputValue(), "Read my Cargo.toml again");
    await box.press("Control+Shift+z");
    assert.equal(await box.inputValue(), "my unsent draft, half written");

    // Editing one message, then another, then Escape: the draft from before the first edit.
    await second.getByRole("button", { name: "Edit", exact: true }).click();
    await page.locator("article[data-turn-id=t1]").getByRole("button", { name: "Edit", exact: true }).click();
    await box.press("Escape");
    assert.equal(await box.inputValue(), "my unsent draft, half written");

    await second.getByRole("button", { name: "Edit", exact: true }).click();
    await box.pressSequentially(" please");
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "editAndResend", turnId: "t2", text: "Read my Cargo.toml please" }]);
    assert.equal(await box.inputValue(), "my unsent draft, half written", "the draft is back after the edit went");
    assert.equal(await page.getByRole("button", { name: "Cancel edit" }).isVisible(), false);
  });

  it("saves where the person is reading, and nothing once they are back at the end", async () => {
    const { page } = panel;
    await panel.sendState(longConversation());
    // As a person does, scroll once the opened conversation shows its end: a scroll before the panel's first
    // frame is indistinguishable from the panel's own move to the end, and the panel would follow to the end.
    await page.waitForFunction(() => {
      const scroller = document.querySelector(".scroller") as HTMLElement;
      return scroller.scrollTop > 0 && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 2;
    });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
    await page.locator('.turn[data-turn-id="t24"]').evaluate((element) => element.scrollIntoView({ block: "start" }));
    await page.locator(".scroller").evaluate((scroller) => scroller.scrollBy(0, 30));
    await page.waitForFunction(() => (window as unknown as { __savedState?: SavedState }).__savedState?.place?.turnId === "t24");
    const place = (await savedState(panel))?.place;
    assert.equal(place?.conversationId, "c1");
    assert.ok(Math.abs((place?.offset ?? 0) - (await offsetInto(panel, "t24"))) <= 1, `the offset into the turn: ${JSON.stringify(place)}`);

    await page.getByRole("button", { name: "Jump to latest" }).click();
    await page.waitForFunction(() => (window as unknown as { __savedState?: SavedState }).__savedState?.place === undefined);
  });

  it("comes back after a reload with the draft, the edit under way and the place, while the brief turns there fill in", async () => {
    const reloaded = await current.harness().open({
      savedState: { draft: "draft kept over the reload", edit: { turnId: "t25", text: "Question number 25, reworded" }, place: { conversationId: "c1", turnId: "t12", offset: 40 } },
    });
    try {
      const { page } = reloaded;
      await reloaded.sendState(longConversation());
      const box = page.getByRole("textbox", { name: "Message" });
      assert.equal(await box.inputValue(), "Question number 25, reworded");
      assert.equal(await page.getByRole("button", { name: "Cancel edit" }).isVisible(), true);
      await page.waitForFunction(() => {
        const scroller = document.querySelector(".scroller") as HTMLElement;
        const turnElement = document.querySelector('.turn[data-turn-id="t12"]') as HTMLElement;
        return Math.abs(scroller.getBoundingClientRect().top - turnElement.getBoundingClientRect().top - 40) <= 1;
      });
      assert.equal(await page.getByRole("button", { name: "Jump to latest" }).isVisible(), true, "the end is one click away");

      // The page asks for the brief turns around the place; as they fill in, the place holds.
      const asked = (await reloaded.waitForPosted("loadTurns")).flatMap((message) => (message.type === "loadTurns" ? message.turnIds : []));
      assert.ok(asked.includes("t12"), `asked for ${asked.join(", ")}`);
      await reloaded.sendPatch(...asked.map((turnId) => ({ kind: "turn" as const, turn: wholeTurn(Number(turnId.slice(1))) })));
      await page.waitForFunction(() => document.querySelector('.turn[data-turn-id="t12"]')?.classList.contains("brief") === false);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.ok(Math.abs((await offsetInto(reloaded, "t12")) - 40) <= 1, `the place held: ${await offsetInto(reloaded, "t12")}`);

      await page.getByRole("button", { name: "Cancel edit" }).click();
      assert.equal(await box.inputValue(), "draft kept over the reload");
    } finally {
      await reloaded.page.close();
    }
  });

  it("starts at the end when the saved place is in another conversation, and drops an edit of a turn no longer there", async () => {
    const reloaded = await current.harness().open({ savedState: { draft: "mine", edit: { turnId: "gone", text: "edited" }, place: { conversationId: "c2", turnId: "t12", offset: 0 } } });
    try {
      const { page } = reloaded;
      await reloaded.sendState(longConversation());
      assert.equal(await page.getByRole("textbox", { name: "Message" }).inputValue(), "mine");
      assert.equal(await page.getByRole("button", { name: "Cancel edit" }).isVisible(), false);
      await page.waitForFunction(() => {
        const scroller = document.querySelector(".scroller") as HTMLElement;
        return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 2;
      });
    } finally {
      await reloaded.page.close();
    }
  });
});
