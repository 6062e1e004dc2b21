import assert from "node:assert/strict";
import { emptySnapshot } from "../../src/relay/accumulate";
import { CONTENT_WAIT_SHOWN_AFTER_MS, ContentWaitClock } from "../../src/panel/turns/contentWait";
import type { ContentWaitTimers } from "../../src/panel/turns/contentWait";
import { PanelSync } from "../../src/panel/panelSync";
import type { PanelSource } from "../../src/panel/panelSync";
import type { ToWebview } from "../../src/panel/protocol";
import { isToWebview } from "../../src/panel/protocolGuards";

// Issue 36 §4: the panel shows how long the running turn has waited for content, while it waits. The clock runs on
// the host (keep-alives never reach the page), and the page gets a message a second only while the wait is long.

/** A clock whose time and ticks the test moves. */
function manualTimers(): ContentWaitTimers & { advance(ms: number): void; running(): number } {
  let now = 0;
  const ticks = new Set<() => void>();
  return {
    now: () => now,
    every: (_ms, work) => {
      ticks.add(work);
      return { cancel: () => ticks.delete(work) };
    },
    advance(ms) {
      for (let step = 0; step < ms; step += 1000) {
        now += 1000;
        for (const tick of [...ticks]) tick();
      }
    },
    running: () => ticks.size,
  };
}

describe("the running turn's wait for content (issue 36 §4)", () => {
  it("is said after a few seconds without content, each second, and cleared when content comes or the request ends", () => {
    const timers = manualTimers();
    const posted: Array<[string, number | null]> = [];
    const clock = new ContentWaitClock((turnId, seconds) => posted.push([turnId, seconds]), timers);
    clock.requestStarted("t1");
    // A status event (the snapshot's output unchanged) is not content.
    clock.received("t1", emptySnapshot.output);
    timers.advance(CONTENT_WAIT_SHOWN_AFTER_MS - 1000);
    assert.deepEqual(posted, [], "an ordinary pause is not shown");
    timers.advance(3000);
    assert.deepEqual(posted, [["t1", 5], ["t1", 6], ["t1", 7]]);
    clock.received("t1", [{ type: "message" }]);
    assert.deepEqual(posted.pop(), ["t1", null], "content came");
    timers.advance(7000);
    assert.deepEqual(posted.pop(), ["t1", 7]);
    clock.stop();
    assert.deepEqual(posted.pop(), ["t1", null], "the request ended");
    assert.equal(timers.running(), 0, "no timer left running");
  });

  it("a request that ends before the wait is shown posts nothing", () => {
    const timers = manualTimers();
    const posted: unknown[] = [];
    const clock = new ContentWaitClock((...message) => posted.push(message), timers);
    clock.requestStarted("t1");
    timers.advance(2000);
    clock.stop();
    assert.deepEqual(posted, []);
  });

  it("goes to the page as a typed message, only once the page has its snapshot", () => {
    const posted: ToWebview[] = [];
    const source: PanelSource = { fields: () => ({}) as never, turnIds: () => [], turn: () => null, receipt: () => null, approvals: () => [] };
    const sync = new PanelSync(source, (message) => posted.push(message), () => ({}));
    sync.contentWait("t1", 9);
    assert.deepEqual(posted, [], "no page listening yet");
    sync.sendSnapshot();
    posted.length = 0;
    sync.contentWait("t1", 9);
    sync.contentWait("t1", null);
    assert.deepEqual(posted, [
      { type: "contentWait", turnId: "t1", seconds: 9 },
      { type: "contentWait", turnId: "t1", seconds: null },
    ]);
    assert.ok(posted.every(isToWebview));
    assert.equal(isToWebview({ type: "contentWait", turnId: "t1", seconds: "9" }), false);
  });
});
