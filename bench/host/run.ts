// `npm run bench:host -- --json`: host CPU per streamed event, through the whole host pipeline
// (relay on loopback -> RelayClient -> ChatSession -> ChatController -> posted messages), against the
// client-only pipeline (RelayClient alone) on the same stream, for a 6 KB and a 600 KB answer. All
// variants run interleaved in one run, so the ratios compare like with like.
//
// Goals: host CPU per event <= 1.5x the client-only pipeline; the 600 KB answer's cost per event
// <= 1.2x the 6 KB answer's (streaming cost stays flat: no work grows with the answer so far).
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { RequestLedger } from "../../src/chat/requestLedger";
import { ChatController } from "../../src/panel/chatController";
import type { PanelView } from "../../src/panel/panelServices";
import type { ToWebview } from "../../src/panel/protocol";
import { RelayClient } from "../../src/relay/client";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { buildAnswerStream } from "./answerStream";

const SMALL = 6_000;
const LARGE = 600_000;
const smallEvents = buildAnswerStream(SMALL).eventCount;
const largeEvents = buildAnswerStream(LARGE).eventCount;

/** Stands in for the webview: serializes each message as postMessage would, and says when a turn ended. */
class CountingView implements PanelView {
  readonly visible = true;
  messages = 0;
  bytes = 0;
  private waiting: (() => void) | null = null;

  post(message: ToWebview): void {
    this.messages += 1;
    this.bytes += JSON.stringify(message).length;
    if (message.type === "patch" && message.changes.some((change) => change.kind === "fields" && change.fields.busy === false)) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve?.();
    }
  }

  reveal(): void {}

  nextTurnEnd(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

async function startServer(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(__dirname, "answerServer.ts")], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes("\n")) resolve(buffered.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`answer server exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}/v1`, child };
}

interface Pipeline {
  /** Gets ready to stream an answer of `characters` (not measured: a new chat and the model). */
  prepare(characters: number): Promise<void>;
  /** Streams one answer; resolves when it is fully handled. */
  run(characters: number): Promise<void>;
  close(): Promise<void>;
}

async function hostPipeline(baseUrl: string): Promise<Pipeline & { view: CountingView }> {
  const folder = await mkdtemp(path.join(tmpdir(), "relay-chat-bench-host-"));
  const storage = new FileStorage(folder);
  const client = new RelayClient({ baseUrl, apiKey: "bench-key" });
  const view = new CountingView();
  const tools = { registry: new ToolRegistry([]), availability: () => ({ trusted: true, disabledToolNames: new Set<string>() }), approve: async () => "deny" as const, maxResultChars: 1000 };
  let model = "";
  const store = new HistoryStore(storage);
  const controller = new ChatController({
    relay: { current: () => client, relayNames: () => ["bench"], activeRelay: "bench", clientFor: async () => client, select: async () => undefined, settings: { baseUrl, model: "", stream: true, maxOutputTokens: null, toolRoundCap: 10, historyWarningTokens: 0 }, hasKey: true, missing: () => null, secret: "bench-key" },
    store,
    ledger: new RequestLedger(storage),
    log: { info: () => undefined, error: () => undefined },
    // Built once, as the extension's ToolSetup does; each session gets the same registry.
    tools: () => tools,
    modelMemory: { get: () => model, set: async (_relay, value) => void (model = value ?? "") },
    editor: {
      copyToClipboard: async () => undefined,
      confirmAndOpenLink: async () => undefined,
      openFile: async () => undefined,
      insertCode: async () => false,
      openCode: async () => undefined,
      applyCode: async () => undefined,
      runFix: async () => undefined,
      activeSelection: () => null,
      activeFile: () => null,
      pickAttachment: async () => null,
      showInformation: () => undefined,
    },
    conversationUi: {
      askForTitle: async () => undefined,
      confirmDelete: async () => false,
      chooseExportFile: async () => undefined,
      writeFile: async () => undefined,
      writeBinaryFile: async () => undefined,
      showInformation: () => undefined,
      showWarning: () => undefined,
      showExported: () => undefined,
    },
    strings: () => ({}),
  });
  controller.attach(view);
  // As the extension does: the history folder is watched for other windows' changes.
  const historyWatch = store.watch((change) => void controller.conversations.onHistoryChanged(change));
  await historyWatch.ready;
  controller.handle({ type: "ready" });
  return {
    view,
    async prepare(characters) {
      // A new conversation each time: the measured turn sends no history.
      await controller.newChat();
      await controller.setModel(`answer-${characters}`);
      await new Promise((resolve) => setImmediate(resolve));
    },
    async run() {
      const ended = view.nextTurnEnd();
      controller.handle({ type: "send", text: "go" });
      await ended;
    },
    async close() {
      historyWatch.dispose();
      store.dispose();
      await client.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

function clientPipeline(baseUrl: string): Pipeline {
  const client = new RelayClient({ baseUrl, apiKey: "bench-key" });
  return {
    prepare: async () => undefined,
    async run(characters) {
      const result = await client.send(buildResponseRequest({ model: `answer-${characters}`, input: [userMessage("go")], stream: true }));
      if (result.outcome.kind !== "completed") throw new Error(`client: ${result.outcome.kind}`);
    },
    close: () => client.close(),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU microseconds per event of `turns` answers of `characters`. */
async function cpuPerEvent(pipeline: Pipeline, characters: number, turns: number, events: number): Promise<number> {
  let microseconds = 0;
  for (let turn = 0; turn < turns; turn += 1) {
    await pipeline.prepare(characters);
    global.gc?.();
    const before = process.cpuUsage();
    await pipeline.run(characters);
    const used = process.cpuUsage(before);
    microseconds += used.user + used.system;
  }
  return microseconds / (events * turns);
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const roundsArgument = process.argv.find((argument) => argument.startsWith("--rounds="));
  const rounds = roundsArgument ? Number(roundsArgument.split("=")[1]) : 7;
  const smallTurns = 25;
  console.log(
    `bench:host — answers of ${SMALL.toLocaleString("en-US")} characters (${smallEvents} events, ${smallTurns} turns per sample) and ${LARGE.toLocaleString("en-US")} characters (${largeEvents} events), ${rounds} rounds, median CPU µs/event (Node ${process.version})`,
  );
  const { baseUrl, child } = await startServer();
  const host = await hostPipeline(baseUrl);
  const client = clientPipeline(baseUrl);
  const samples: Record<string, number[]> = { host6: [], client6: [], host600: [], client600: [] };
  try {
    // Warm-up: JIT, connections, the first history write.
    for (const pipeline of [client, host]) {
      for (const size of [SMALL, LARGE]) {
        await pipeline.prepare(size);
        await pipeline.run(size);
      }
    }
    const steps: Array<[string, () => Promise<number>]> = [
      ["client6", () => cpuPerEvent(client, SMALL, smallTurns, smallEvents)],
      ["host6", () => cpuPerEvent(host, SMALL, smallTurns, smallEvents)],
      ["client600", () => cpuPerEvent(client, LARGE, 1, largeEvents)],
      ["host600", () => cpuPerEvent(host, LARGE, 1, largeEvents)],
    ];
    for (let round = 0; round < rounds; round += 1) {
      // Rotate the order each round so no variant always follows the same neighbour.
      for (let index = 0; index < steps.length; index += 1) {
        const [name, measure] = steps[(index + round) % steps.length];
        samples[name].push(await measure());
      }
    }
  } finally {
    await host.close();
    await client.close();
    child.kill("SIGTERM");
  }
  const figure = (name: string) => Number(median(samples[name]).toFixed(3));
  const summary = {
    rounds,
    events6KB: smallEvents,
    events600KB: largeEvents,
    hostCpuUsPerEvent6KB: figure("host6"),
    hostCpuUsPerEvent600KB: figure("host600"),
    clientCpuUsPerEvent: figure("client600"),
    clientCpuUsPerEvent6KB: figure("client6"),
    hostVsClient600KB: Number((figure("host600") / figure("client600")).toFixed(3)),
    hostVsClient6KB: Number((figure("host6") / figure("client6")).toFixed(3)),
    host600KBVs6KB: Number((figure("host600") / figure("host6")).toFixed(3)),
    // What the host adds to the client: per event while streaming, and per turn (history and ledger
    // writes, request building, patches), which a short answer spreads over few events.
    hostExtraUsPerEvent600KB: Number((figure("host600") - figure("client600")).toFixed(3)),
    hostExtraMsPerTurn6KB: Number((((figure("host6") - figure("client6")) * smallEvents) / 1000).toFixed(2)),
    postedMessagesPerLargeAnswer: Math.round(host.view.messages / (rounds * (smallTurns + 1) + 2)),
    goals: { hostVsClientAtMost: 1.5, host600KBVs6KBAtMost: 1.2 },
  };
  if (!json) {
    console.log(`samples: ${JSON.stringify(samples)}`);
    console.log(`host/client: ${summary.hostVsClient600KB} at 600 KB, ${summary.hostVsClient6KB} at 6 KB (goal <= 1.5); host 600 KB / 6 KB: ${summary.host600KBVs6KB} (goal <= 1.2)`);
  }
  console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
