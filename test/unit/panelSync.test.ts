import assert from "node:assert/strict";
import type { PanelSource, PanelSyncTimers } from "../../src/panel/panelSync";
import { PanelSync } from "../../src/panel/panelSync";
import { BRIEF_EVERY_OLDER_TURN_FROM, WHOLE_TURNS_AT_OPEN } from "../../src/panel/turns/briefTurn";
import type { ApprovalView, PanelFields, ReceiptView, ToWebview, TurnView } from "../../src/panel/protocol";
import { receipt, turn } from "../webview/fixtures/panelStates";

// PanelSync on its own: a source made of plain values, timers run by hand, posts recorded.

class ManualTimers implements PanelSyncTimers {
  private soonQueue: Array<() => void> = [];
  private frameQueue: Array<() => void> = [];
  /** The clock, moved by hand (milliseconds). */
  clock = 0;
  now(): number {
    return this.clock;
  }
  soon(work: () => void): void {
    this.soonQueue.push(work);
  }
  /** How long each wait asked for was (undefined: a whole frame). */
  readonly delays: Array<number | undefined> = [];
  afterFrame(work: () => void, delayMs?: number): { cancel(): void } {
    this.delays.push(delayMs);
    this.frameQueue.push(work);
    return { cancel: () => (this.frameQueue = this.frameQueue.filter((queued) => queued !== work)) };
  }
  runSoon(): void {
    for (const work of this.soonQueue.splice(0)) work();
  }
  runFrame(): void {
    for (const work of this.frameQueue.splice(0)) work();
  }
  get pendingFrames(): number {
    return this.frameQueue.length;
  }
}

class PlainSource implements PanelSource {
  values: PanelFields = {
    title: "New chat",
    setup: { hasBaseUrl: true, hasApiKey: true, baseUrl: "https://relay.example/v1" },
    model: "m",
    models: ["m"],
    modelsNote: null,
    relay: "relay.example",
    relayModels: [{ relay: "relay.example", models: ["m"], unlisted: null }],
    conversations: [],
    conversationId: null,
    busy: false,
    attachments: [],
    selectionOffer: null,
    activeFileOffer: null,
    context: null,
    compactionOffer: null,
    imageLimits: { maxLongestSide: 2048, maxBytes: 5 * 1024 * 1024 },
    spendWarning: null,
    totals: null,
    notice: null,
  };
  turns = new Map<string, TurnView>();
  order: string[] = [];
  pending: ApprovalView[] = [];
  turnReads = 0;
  fields(): PanelFields {
    return this.values;
  }
  turnIds(): readonly string[] {
    return this.order;
  }
  turn(turnId: string): TurnView | null {
    this.turnReads += 1;
    return this.turns.get(turnId) ?? null;
  }
  receipt(turnId: string, index: number): ReceiptView | null {
    return this.turns.get(turnId)?.receipts[index] ?? null;
  }
  approvals(): ApprovalView[] {
    return this.pending;
  }
}

function setup() {
  const source = new PlainSource();
  const posted: ToWebview[] = [];
  const timers = new ManualTimers();
  const sync = new PanelSync(source, (message) => posted.push(JSON.parse(JSON.stringify(message)) as ToWebview), () => ({ Send: "Senden" }), timers);
  return { source, posted, timers, sync };
}

describe("panel sync: snapshot, then patches and deltas", () => {
  it("posts nothing before the snapshot, and the snapshot carries the strings once", () => {
    const { source, posted, timers, sync } = setup();
    source.values = { ...source.values, busy: true };
    sync.changed();
    sync.answerDelta("t1", "x");
    timers.runSoon();
    timers.runFrame();
    assert.equal(posted.length, 0);
    source.order = ["t1"];
    source.turns.set("t1", turn("t1"));
    sync.sendSnapshot();
    assert.equal(posted.length, 1);
    assert.equal(posted[0].type, "snapshot");
    assert.deepEqual(posted[0].type === "snapshot" && posted[0].strings, { Send: "Senden" });
    assert.equal(posted[0].type === "snapshot" && posted[0].state.busy, true);
    sync.changed();
    timers.runSoon();
    assert.equal(posted.length, 1, "nothing changed since the snapshot: no patch");
  });

  it("sends only the fields that changed, several changes in one patch", () => {
    const { source, posted, timers, sync } = setup();
    sync.sendSnapshot();
    source.values = { ...source.values, busy: true, models: ["m"] };
    sync.changed();
    source.values = { ...source.values, notice: "hello" };
    sync.changed();
    timers.runSoon();
    assert.deepEqual(posted.slice(1), [{ type: "patch", changes: [{ kind: "fields", fields: { busy: true, notice: "hello" } }] }], "an equal new list is not resent");
  });

  it("holds a receipt and a turn's end for up to a frame, to post them with the patch that follows (one patch ends a turn)", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["t1"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "Hel" }));
    sync.sendSnapshot();
    source.turns.set("t1", turn("t1", { answerText: "Hello", receipts: [receipt()] }));
    sync.receiptAdded("t1", 0, "withinFrame");
    sync.turnChanged("t1", "withinFrame");
    timers.runSoon();
    assert.equal(posted.length, 1, "nothing yet: the busy flag follows");
    source.values = { ...source.values, busy: false, notice: "done" };
    sync.changed();
    timers.runSoon();
    assert.deepEqual(
      posted.slice(1).map((message) => (message.type === "patch" ? message.changes.map((change) => change.kind) : message.type)),
      [["fields", "turn", "receipt"]],
      "the fields, the settled turn and its receipt in one patch",
    );
    timers.runFrame();
    assert.equal(posted.length, 2, "and not again when the frame passes");

    source.turns.set("t1", turn("t1", { answerText: "Hello", receipts: [receipt(), receipt({ requestId: "second" })] }));
    sync.receiptAdded("t1", 1, "withinFrame");
    timers.runSoon();
    assert.equal(posted.length, 2);
    timers.runFrame();
    assert.deepEqual(posted.at(-1), { type: "patch", changes: [{ kind: "receipt", turnId: "t1", index: 1, receipt: receipt({ requestId: "second" }) }] }, "alone after a frame when nothing follows");
  });

  it("posts pending deltas before a patch, whose turn then carries the text those deltas built", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["t1"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "Hel" }));
    sync.sendSnapshot();
    sync.answerDelta("t1", "lo");
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "Hello", toolCalls: [{ callId: "c", name: "f", argumentsJson: "{}", status: "ready", output: "ok" }] }));
    sync.turnChanged("t1");
    sync.answerDelta("t1", " world");
    timers.runSoon();
    assert.deepEqual(
      posted.slice(1).map((message) => message.type),
      ["answerDelta", "patch"],
      "the delta first, and the later delta is part of the turn patch, not posted again",
    );
    assert.equal(posted[1].type === "answerDelta" && posted[1].text, "lo");
    timers.runFrame();
    assert.equal(posted.length, 3, "the delta that arrived while the turn was waiting to be sent is not posted");
  });

  it("posts a turn's first delta at once and batches the deltas that follow within the frame", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["t1"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "" }));
    sync.sendSnapshot();
    for (const piece of ["a", "b", "c"]) sync.answerDelta("t1", piece);
    assert.deepEqual(posted.slice(1), [{ type: "answerDelta", turnId: "t1", text: "a" }], "the first words do not wait for a frame");
    timers.clock = 16;
    timers.runFrame();
    assert.deepEqual(posted.slice(2), [{ type: "answerDelta", turnId: "t1", text: "bc" }], "what came within the frame, in one message");
    timers.clock = 20;
    sync.answerDelta("t1", "d");
    assert.equal(posted.length, 3, "within a frame of the last post: batched");
    assert.deepEqual(timers.delays, [16, 12], "a batch waits for the end of the frame since the last post, not a frame more");
    timers.clock = 32;
    timers.runFrame();
    assert.deepEqual(posted.at(-1), { type: "answerDelta", turnId: "t1", text: "d" });
  });

  it("posts at once again after a frame without text, and for another turn's first delta", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["t1", "t2"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "" }));
    source.turns.set("t2", turn("t2", { streaming: true, answerText: "" }));
    sync.sendSnapshot();
    sync.answerDelta("t1", "a");
    timers.clock = 40;
    sync.answerDelta("t1", "b");
    timers.clock = 41;
    sync.answerDelta("t2", "x");
    assert.deepEqual(
      posted.slice(1).map((message) => message.type === "answerDelta" && message.text),
      ["a", "b", "x"],
      "a pause of a frame, then a new turn: each posted without waiting",
    );
    assert.equal(timers.pendingFrames, 0, "nothing left waiting for a frame");
  });

  it("sends a turn the webview does not have whole, with its new order, instead of its delta", () => {
    const { source, posted, timers, sync } = setup();
    sync.sendSnapshot();
    source.order = ["t1"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "first words" }));
    sync.answerDelta("t1", "first words");
    timers.runSoon();
    timers.runFrame();
    assert.deepEqual(posted.slice(1), [
      {
        type: "patch",
        changes: [
          { kind: "turn", turn: turn("t1", { streaming: true, answerText: "first words" }) },
          { kind: "turnOrder", turnIds: ["t1"] },
        ],
      },
    ]);
  });

  it("reads only the turns it sends: a change to one turn of many costs one turn", () => {
    const { source, posted, timers, sync } = setup();
    source.order = Array.from({ length: 200 }, (_, index) => `t${index}`);
    for (const id of source.order) source.turns.set(id, turn(id));
    sync.sendSnapshot();
    source.turnReads = 0;
    source.turns.set("t199", turn("t199", { receipts: [receipt(), receipt({ requestId: "second" })] }));
    sync.receiptAdded("t199", 1);
    timers.runSoon();
    assert.equal(source.turnReads, 0, "a receipt is sent on its own");
    assert.deepEqual(posted.at(-1), { type: "patch", changes: [{ kind: "receipt", turnId: "t199", index: 1, receipt: receipt({ requestId: "second" }) }] });
    sync.turnChanged("t150");
    timers.runSoon();
    assert.equal(source.turnReads, 1);
  });

  it("drops turns that left the screen and sends approvals when they change", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["a", "b"];
    source.turns.set("a", turn("a"));
    source.turns.set("b", turn("b"));
    sync.sendSnapshot();
    source.order = ["a", "c"];
    source.turns.set("c", turn("c"));
    source.pending = [{ callId: "call", toolName: "read_file", toolDescription: "d", risk: "read", argumentsJson: "{}", canAllowForSession: true }];
    sync.changed();
    timers.runSoon();
    const patch = posted.at(-1);
    assert.equal(patch?.type, "patch");
    assert.deepEqual(patch?.type === "patch" && patch.changes.map((change) => change.kind), ["turn", "turnOrder", "approvals"]);
    sync.answerDelta("b", "stale");
    timers.runSoon();
    timers.runFrame();
    assert.notEqual(posted.at(-1)?.type, "answerDelta", "a turn that left the screen gets no delta");
  });

  it("a new snapshot (a reloaded webview) replaces whatever was pending", () => {
    const { source, posted, timers, sync } = setup();
    source.order = ["t1"];
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "so far" }));
    sync.sendSnapshot();
    sync.answerDelta("t1", " more");
    sync.answerDelta("t1", " and more");
    source.turns.set("t1", turn("t1", { streaming: true, answerText: "so far more and more" }));
    sync.sendSnapshot();
    timers.runFrame();
    timers.runSoon();
    assert.deepEqual(
      posted.map((message) => message.type === "answerDelta" ? message.text : message.type),
      ["snapshot", " more", "snapshot"],
      "the first delta went at once; the one waiting for its frame is dropped (the new snapshot has its text)",
    );
  });
});

describe("panel sync: a long conversation's older turns go brief", () => {
  function longSource() {
    const setupParts = setup();
    const answer = "A long answer.\n".repeat(100);
    setupParts.source.order = Array.from({ length: WHOLE_TURNS_AT_OPEN + 2 }, (_, index) => `t${index}`);
    for (const id of setupParts.source.order) setupParts.source.turns.set(id, turn(id, { answerText: answer }));
    return { ...setupParts, answer };
  }

  it("sends the snapshot's older turns brief, and whole when the page asks for them, once", () => {
    const { source, posted, timers, sync, answer } = longSource();
    sync.sendSnapshot();
    const snapshot = posted[0].type === "snapshot" ? posted[0].state.turns : [];
    assert.deepEqual(snapshot.filter((view) => view.brief !== undefined).map((view) => view.id), ["t0", "t1"]);
    assert.deepEqual(snapshot[0].brief, { answerChars: answer.length, answerLines: 101, toolCalls: 0, receipts: 1 });
    assert.equal(snapshot[0].answerText, "");
    sync.loadTurns(["t0", "t5", "unknown"]);
    timers.runSoon();
    assert.deepEqual(posted.slice(1), [{ type: "patch", changes: [{ kind: "turn", turn: source.turns.get("t0") }] }], "only the brief turn, whole");
    sync.loadTurns(["t0"]);
    timers.runSoon();
    assert.equal(posted.length, 2, "a turn already whole is not sent again");
  });

  it("sends every older turn of a conversation of 200 turns or more brief, short ones too", () => {
    const setupParts = setup();
    const count = BRIEF_EVERY_OLDER_TURN_FROM;
    setupParts.source.order = Array.from({ length: count }, (_, index) => `t${index}`);
    for (const id of setupParts.source.order) setupParts.source.turns.set(id, turn(id, { answerText: "A short answer." }));
    setupParts.sync.sendSnapshot();
    const snapshot = setupParts.posted[0].type === "snapshot" ? setupParts.posted[0].state.turns : [];
    assert.equal(snapshot.filter((view) => view.brief !== undefined).length, count - WHOLE_TURNS_AT_OPEN);
    assert.deepEqual(snapshot[0].brief, { answerChars: "A short answer.".length, answerLines: 1, toolCalls: 0, receipts: 1 });
    // One turn fewer: short turns go whole, as before.
    const shorter = setup();
    shorter.source.order = setupParts.source.order.slice(1);
    for (const id of shorter.source.order) shorter.source.turns.set(id, turn(id, { answerText: "A short answer." }));
    shorter.sync.sendSnapshot();
    assert.equal(shorter.posted[0].type === "snapshot" ? shorter.posted[0].state.turns.filter((view) => view.brief !== undefined).length : -1, 0);
  });

  it("sends a brief turn whole instead of a receipt or a delta for it", () => {
    const { source, posted, timers, sync } = longSource();
    sync.sendSnapshot();
    sync.receiptAdded("t1", 0);
    timers.runSoon();
    assert.equal(posted.length, 1, "no receipt for a turn the page has brief");
    sync.answerDelta("t1", "more");
    timers.runSoon();
    timers.runFrame();
    assert.deepEqual(posted.slice(1), [{ type: "patch", changes: [{ kind: "turn", turn: source.turns.get("t1") }] }]);
  });
});
