// `npm run bench:panel -- --json`: a saved conversation of 200 turns (about 2 MB) opened in the panel,
// host and webview together, and one streaming update while it is open; the same for 10 turns, so the
// update's cost can be compared across conversation sizes in one run.
//
// Host: the real ChatController opens the conversation from a HistoryStore on disk and posts its patch
// (timed from the request to the post, including reading and parsing the file and serializing the
// message as postMessage would). Webview: the real bundle (media/main.ts) in headless Chromium under the
// panel's CSP, 420 px wide; each message is dispatched and the layout forced inside the page, timed there.
// An update is one answer delta through the host's streaming path (StreamForwarder -> PanelSync -> post)
// and the webview appending it.
//
// The open sends the older turns brief (src/panel/turns/briefTurn.ts); a fill is the page's request for the
// next batch of them (the 8 newest brief turns, as the page asks when idle), timed like the open: the
// host from the request to the posted patch, then the page applying it.
//
// Goals: open <= 150 ms, at 200 turns <= 1.3x at 10 turns; one update <= 2 ms (host + webview); update
// at 200 turns <= 1.3x at 10 turns.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Conversation, Turn } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { RequestLedger } from "../../src/chat/requestLedger";
import { ChatController } from "../../src/panel/chatController";
import { PanelPresenter } from "../../src/panel/panelPresenter";
import type { PanelSource, PanelSyncTimers } from "../../src/panel/panelSync";
import { PanelSync } from "../../src/panel/panelSync";
import type { ToWebview } from "../../src/panel/protocol";
import { DEFAULT_IMAGE_LIMITS } from "../../src/panel/protocol";
import { StreamForwarder } from "../../src/panel/turns/streamForwarder";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { answeredConversation } from "../../test/fixtures/chat/sampleConversations";
import { RecordingEditor, ScriptedConversationUi } from "../../test/fixtures/panel/panelHostHarness";
import { generateRichMarkdownDocument } from "../../test/webview/fixtures/richMarkdownDocument";
import { PanelHarness } from "../../test/webview/support/panelHarness";
import type { PanelPage } from "../../test/webview/support/panelHarness";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/chat/compaction";

const UPDATES = 300;
const tools = new ToolRegistry([]);

function savedConversation(id: string, turnCount: number, answerCharacters: number): Conversation {
  const conversation = answeredConversation(id, turnCount, (index) => ({
    id: `turn_${index}`,
    userText: `Question ${index}: explain the next part of the design, with code.`,
    answer: generateRichMarkdownDocument(answerCharacters, 2, index + 1).text,
    model: "bench-model",
    idSuffix: String(index),
    receipt: { usage: { input_tokens: 1000 + index, input_tokens_details: { cached_tokens: 512 }, output_tokens: 900, output_tokens_details: { reasoning_tokens: 0 } }, firstByteMs: 300, totalMs: 4000 },
  }));
  conversation.title = `${turnCount} turns`;
  return conversation;
}

/** Where an open's time goes, in the host and in the page. */
interface OpenParts {
  /** The controller, from the request to the posted patch (includes `storeOpenMs` and building the views). */
  hostMs: number;
  /** The host's CPU time over `hostMs` (user + system): what the open costs, without the waits a loaded machine adds. */
  hostCpuMs: number;
  /** Reading and parsing the conversation alone (HistoryStore.open of the same conversation, just before). */
  storeOpenMs: number;
  /** Serializing the message as postMessage would. */
  serializeMs: number;
  messageBytes: number;
}

/** Runs a controller over the saved conversations; returns the patch that opening one posts, and how long that took. */
async function openInHost(controller: ChatController, store: HistoryStore, posted: ToWebview[], conversationId: string): Promise<{ message: ToWebview } & OpenParts> {
  global.gc?.();
  const storeStarted = performance.now();
  await store.open(conversationId);
  const storeOpenMs = performance.now() - storeStarted;
  const before = posted.length;
  // Garbage from the previous page and run is collected first, so it is not charged to this open.
  global.gc?.();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  controller.handle({ type: "switchConversation", conversationId });
  const opened = () => posted.slice(before).find((message) => message.type === "patch" && message.changes.some((change) => change.kind === "turnOrder"));
  // A deadline, not a count of turns of the event loop: a loaded machine may stall the process for a while.
  for (const deadline = Date.now() + 10_000; !opened(); ) {
    if (Date.now() > deadline) throw new Error("the controller posted no patch for the opened conversation");
    await new Promise((resolve) => setImmediate(resolve));
  }
  const postedMs = performance.now() - started;
  const message = opened()!;
  // The message crosses to the webview as a copy, as postMessage makes one.
  const serializeStarted = performance.now();
  const messageBytes = JSON.stringify(message).length;
  const serializeMs = performance.now() - serializeStarted;
  const cpu = process.cpuUsage(cpuBefore);
  return { message, hostMs: postedMs + serializeMs, hostCpuMs: (cpu.user + cpu.system) / 1000, storeOpenMs, serializeMs, messageBytes };
}

/** The page's idle request for the next brief turns (the newest first), answered by the host and applied there. */
async function fillBatch(controller: ChatController, posted: ToWebview[], panel: PanelPage, opened: ToWebview, conversationId: string): Promise<{ briefTurns: number; fillMs: number; fillBytes: number }> {
  const brief = opened.type === "patch" ? opened.changes.flatMap((change) => (change.kind === "turn" && change.turn.brief !== undefined ? [change.turn.id] : [])) : [];
  if (brief.length === 0) return { briefTurns: 0, fillMs: 0, fillBytes: 0 };
  const before = posted.length;
  global.gc?.();
  const started = performance.now();
  controller.handle({ type: "loadTurns", conversationId, turnIds: brief.slice(-8).reverse() });
  for (const deadline = Date.now() + 10_000; posted.length === before; ) {
    if (Date.now() > deadline) throw new Error("the controller posted no patch for the turns asked for");
    await new Promise((resolve) => setImmediate(resolve));
  }
  const message = posted[before];
  const fillBytes = JSON.stringify(message).length;
  const hostMs = performance.now() - started;
  return { briefTurns: brief.length, fillMs: hostMs + (await deliver(panel, message)), fillBytes };
}

/** Dispatches `message` in the page as the host's postMessage arrives, forces layout; the ms it took there. */
function deliver(panel: PanelPage, message: ToWebview): Promise<number> {
  return deliverInParts(panel, message).then((parts) => parts.totalMs);
}

/** The same, split: the page's script handling the message, then the layout it forced. */
function deliverInParts(panel: PanelPage, message: ToWebview): Promise<{ scriptMs: number; layoutMs: number; totalMs: number }> {
  return panel.page.evaluate((data) => {
    const started = performance.now();
    window.dispatchEvent(new MessageEvent("message", { data }));
    const handled = performance.now();
    void (document.querySelector(".scroller") as HTMLElement | null)?.scrollHeight;
    const laidOut = performance.now();
    return { scriptMs: handled - started, layoutMs: laidOut - handled, totalMs: laidOut - started };
  }, message);
}

class ManualTimers implements PanelSyncTimers {
  private frames: Array<() => void> = [];
  private soonQueue: Array<() => void> = [];
  soon(work: () => void): void {
    this.soonQueue.push(work);
  }
  afterFrame(work: () => void) {
    this.frames.push(work);
    return { cancel: () => (this.frames = this.frames.filter((queued) => queued !== work)) };
  }
  now(): number {
    return performance.now();
  }
  run(): void {
    for (const work of this.soonQueue.splice(0)) work();
    for (const work of this.frames.splice(0)) work();
  }
}

/** The host's streaming path over the open conversation, with a new turn streaming at its end. */
function streamingHost(conversation: Conversation) {
  const presenter = new PanelPresenter();
  const timers = new ManualTimers();
  const posted: ToWebview[] = [];
  const turn: Turn = { ...conversation.turns[0], id: "turn_streaming", parentId: conversation.activeTurnId, requests: [], outcome: { kind: "in_progress" }, userText: "And now?" };
  conversation.turns.push(turn);
  conversation.activeTurnId = turn.id;
  let forwarder: StreamForwarder;
  const inputs = () => ({ conversation, streamingTurnId: forwarder.streamingTurnId, liveText: forwarder.liveText(turn.id), consoleConfigured: false });
  const source: PanelSource = {
    fields: () =>
      presenter.fields({
        ...inputs(),
        setup: { hasBaseUrl: true, hasApiKey: true, baseUrl: null },
        notice: null,
        model: "bench-model",
        models: [],
        modelsNote: null,
        relay: null,
        relayModels: [],
        conversations: [],
        busy: true,
        attachments: [],
        imageLimits: DEFAULT_IMAGE_LIMITS,
        selectionOffer: null,
        activeFileOffer: null,
        context: null,
        compaction: DEFAULT_COMPACTION_SETTINGS,
        spendEstimate: null,
      }),
    turnIds: () => presenter.turnIds(conversation),
    turn: (turnId) => presenter.turn(inputs(), turnId),
    receipt: (turnId, index) => presenter.receipt(conversation, turnId, index),
    approvals: () => [],
  };
  const sync = new PanelSync(source, (message) => posted.push(message), () => ({}), timers);
  forwarder = new StreamForwarder(sync);
  sync.sendSnapshot();
  forwarder.start(turn.id);
  sync.turnChanged(turn.id);
  timers.run();
  const startPatch = posted[posted.length - 1];
  return {
    startPatch,
    /** One update: the forwarder gets a piece of text and PanelSync posts it; returns the message and the host ms. */
    update(text: string): { message: ToWebview; hostMs: number } {
      const started = performance.now();
      forwarder.forward(turn.id, text);
      timers.run();
      const message = posted[posted.length - 1];
      JSON.stringify(message);
      return { message, hostMs: performance.now() - started };
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

interface Measured {
  openHostMs: number;
  openHostCpuMs: number;
  openStoreMs: number;
  openSerializeMs: number;
  openMessageBytes: number;
  openWebviewMs: number;
  openWebviewScriptMs: number;
  openWebviewLayoutMs: number;
  /** Turns the open sent brief. */
  briefTurns: number;
  /** One batch of brief turns filled in (host + webview); 0 when the open sent none brief. */
  fillMs: number;
  fillBytes: number;
  updateHostMs: number;
  updateWebviewMs: number;
  characters: number;
}

async function measure(harness: PanelHarness, store: HistoryStore, folder: string, conversation: Conversation): Promise<Measured> {
  const storage = new FileStorage(folder);
  const posted: ToWebview[] = [];
  const controller = new ChatController({
    relay: { current: () => null, relayNames: () => [], activeRelay: null, clientFor: async () => null, select: async () => undefined, settings: { baseUrl: "", model: "bench-model", stream: true, maxOutputTokens: null, toolRoundCap: 10, historyWarningTokens: 0 }, hasKey: false, missing: () => null, secret: null },
    store,
    ledger: new RequestLedger(storage),
    log: { info: () => undefined, error: () => undefined },
    tools: () => ({ registry: tools, availability: () => ({ trusted: true, disabledToolNames: new Set<string>() }), approve: async () => "deny" as const, maxResultChars: 1000 }),
    modelMemory: { get: () => "bench-model", set: async () => undefined },
    editor: new RecordingEditor(),
    conversationUi: new ScriptedConversationUi(),
    strings: () => ({}),
  });
  controller.attach({ post: (message) => posted.push(message), visible: true, reveal: () => undefined });
  controller.handle({ type: "ready" });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const panel = await harness.open();
  try {
    await deliver(panel, posted.find((message) => message.type === "snapshot")!);
    const open = await openInHost(controller, store, posted, conversation.id);
    const inPage = await deliverInParts(panel, open.message);
    // Let the page settle (deferred work, the scroll to the end) before streaming into it.
    await panel.page.waitForTimeout(300);
    const fill = await fillBatch(controller, posted, panel, open.message, conversation.id);
    const opened = (await store.open(conversation.id)) as { ok: true; conversation: Conversation };
    const host = streamingHost(opened.conversation);
    await deliver(panel, host.startPatch);
    const hostSamples: number[] = [];
    const webviewSamples: number[] = [];
    const sentence = "The relay streams this answer in small pieces, and the panel appends each one. ";
    for (let index = 0; index < UPDATES; index += 1) {
      const text = index % 25 === 24 ? "\n\n" : sentence.slice((index * 7) % 40, ((index * 7) % 40) + 40);
      const { message, hostMs } = host.update(text);
      hostSamples.push(hostMs);
      webviewSamples.push(await deliver(panel, message));
    }
    if (panel.pageErrors.length > 0) throw new Error(`page errors: ${panel.pageErrors.join("; ")}`);
    const characters = conversation.turns.reduce((total, turn) => total + JSON.stringify(turn).length, 0);
    return {
      openHostMs: open.hostMs,
      openHostCpuMs: open.hostCpuMs,
      openStoreMs: open.storeOpenMs,
      openSerializeMs: open.serializeMs,
      openMessageBytes: open.messageBytes,
      openWebviewMs: inPage.totalMs,
      openWebviewScriptMs: inPage.scriptMs,
      openWebviewLayoutMs: inPage.layoutMs,
      ...fill,
      updateHostMs: median(hostSamples), updateWebviewMs: median(webviewSamples), characters };
  } finally {
    await panel.page.close();
  }
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const folder = await mkdtemp(path.join(tmpdir(), "relay-chat-bench-panel-"));
  const store = new HistoryStore(new FileStorage(folder));
  const large = savedConversation("conv_large", 200, 10_000);
  const small = savedConversation("conv_small", 10, 10_000);
  await store.save(large);
  await store.save(small);
  const harness = await PanelHarness.start();
  try {
    // Warm-up: the page's code paths and the host's, once each.
    await measure(harness, store, folder, small);
    const runsArgument = process.argv.find((argument) => argument.startsWith("--runs="));
    const runs = runsArgument ? Number(runsArgument.split("=")[1]) : 5;
    const largeRuns: Measured[] = [];
    const smallRuns: Measured[] = [];
    for (let run = 0; run < runs; run += 1) {
      largeRuns.push(await measure(harness, store, folder, large));
      smallRuns.push(await measure(harness, store, folder, small));
    }
    const pick = (runsOf: Measured[], field: keyof Measured) => Number(median(runsOf.map((each) => each[field])).toFixed(3));
    const parts = (runsOf: Measured[]) => ({
      hostMs: pick(runsOf, "openHostMs"),
      hostCpuMs: pick(runsOf, "openHostCpuMs"),
      hostStoreOpenMs: pick(runsOf, "openStoreMs"),
      hostSerializeMs: pick(runsOf, "openSerializeMs"),
      messageBytes: pick(runsOf, "openMessageBytes"),
      webviewScriptMs: pick(runsOf, "openWebviewScriptMs"),
      webviewLayoutMs: pick(runsOf, "openWebviewLayoutMs"),
      briefTurns: pick(runsOf, "briefTurns"),
    });
    const summary = {
      runs,
      conversationBytes200Turns: pick(largeRuns, "characters"),
      openMs200Turns: Number((pick(largeRuns, "openHostMs") + pick(largeRuns, "openWebviewMs")).toFixed(1)),
      openHostMs200Turns: pick(largeRuns, "openHostMs"),
      openWebviewMs200Turns: pick(largeRuns, "openWebviewMs"),
      openMs10Turns: Number((pick(smallRuns, "openHostMs") + pick(smallRuns, "openWebviewMs")).toFixed(1)),
      // Where an open goes: the host (of which reading the conversation and serializing the message), the
      // message's size, and the page (its script, then the layout).
      openParts200Turns: parts(largeRuns),
      openParts10Turns: parts(smallRuns),
      // The page then asks for the brief turns in batches: one batch of 8, host and page, and its size.
      fillBatchMs200Turns: pick(largeRuns, "fillMs"),
      fillBatchBytes200Turns: pick(largeRuns, "fillBytes"),
      updateMs200Turns: Number((pick(largeRuns, "updateHostMs") + pick(largeRuns, "updateWebviewMs")).toFixed(3)),
      updateMs10Turns: Number((pick(smallRuns, "updateHostMs") + pick(smallRuns, "updateWebviewMs")).toFixed(3)),
      updateHostMs200Turns: pick(largeRuns, "updateHostMs"),
      updateWebviewMs200Turns: pick(largeRuns, "updateWebviewMs"),
      goals: { openMsAtMost: 150, updateMsAtMost: 2, update200VsUpdate10AtMost: 1.3, open200VsOpen10AtMost: 1.3 },
    };
    const ratio = Number((summary.updateMs200Turns / summary.updateMs10Turns).toFixed(3));
    if (!json) {
      console.log(`open 200 turns: ${summary.openMs200Turns} ms (host ${summary.openHostMs200Turns}, webview ${summary.openWebviewMs200Turns}); 10 turns: ${summary.openMs10Turns} ms`);
      console.log(`one update: ${summary.updateMs200Turns} ms at 200 turns, ${summary.updateMs10Turns} ms at 10 turns (ratio ${ratio})`);
    }
    const open200VsOpen10 = Number((summary.openMs200Turns / summary.openMs10Turns).toFixed(3));
    console.log(JSON.stringify({ ...summary, update200VsUpdate10: ratio, open200VsOpen10 }));
  } finally {
    await harness.close();
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
