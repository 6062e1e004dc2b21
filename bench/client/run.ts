import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import { VERSION as OPENAI_PACKAGE_VERSION } from "openai/version";
import { Agent, fetch as undiciFetch } from "undici";
import { outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildBenchStream } from "./benchStream";
import { chatVariants } from "./chatVariants";

// `npm run bench:client -- --json`: client CPU per SSE event on one 20,008-event stream served by a
// separate process on loopback. All variants run interleaved in ONE run so their ratios are comparable.

interface Variant {
  name: string;
  /** The events (chunks) the workload holds for this variant; default the Responses stream's. */
  events?: number;
  run: (baseUrl: string) => Promise<number>;
}

const { eventCount, text: expectedText } = buildBenchStream();
const OPENAI_VERSION = OPENAI_PACKAGE_VERSION;
const requestBody = { model: "bench-model", input: [{ role: "user", content: "go" }], stream: true, store: false };

const variants: Variant[] = [
  {
    name: "client",
    async run(baseUrl) {
      const client = new RelayClient({ baseUrl, apiKey: "bench-key", dispatcher: new Agent() });
      const result = await client.send({ model: "bench-model", input: [{ role: "user", content: "go" }], stream: true, store: false });
      await client.close();
      if (result.outcome.kind !== "completed" || outputTextOf(result.snapshot.output) !== expectedText) throw new Error(`client: ${result.outcome.kind}`);
      return result.eventsReceived;
    },
  },
  {
    name: "floor",
    async run(baseUrl) {
      const dispatcher = new Agent();
      const response = await undiciFetch(`${baseUrl}/v1/responses`, {
        method: "POST",
        headers: { authorization: "Bearer bench-key", "content-type": "application/json" },
        body: JSON.stringify(requestBody),
        dispatcher,
      });
      let events = 0;
      const parser = createParser({
        onEvent(message) {
          JSON.parse(message.data);
          events += 1;
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
      await dispatcher.close();
      return events;
    },
  },
  {
    name: "openaiCreate",
    async run(baseUrl) {
      const openai = new OpenAI({ apiKey: "bench-key", baseURL: `${baseUrl}/v1`, maxRetries: 0 });
      const stream = await openai.responses.create({ model: "bench-model", input: "go", stream: true });
      let events = 0;
      for await (const event of stream) if (event.type) events += 1;
      return events;
    },
  },
  {
    name: "openaiStream",
    async run(baseUrl) {
      const openai = new OpenAI({ apiKey: "bench-key", baseURL: `${baseUrl}/v1`, maxRetries: 0 });
      const stream = openai.responses.stream({ model: "bench-model", input: "go" });
      let events = 0;
      stream.on("event", () => {
        events += 1;
      });
      const final = await stream.finalResponse();
      if (final.output_text !== expectedText) throw new Error("openaiStream: wrong text");
      return events;
    },
  },
  ...chatVariants,
];

async function startServer(chunking: string): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(__dirname, "streamServer.ts"), chunking], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes("\n")) resolve(buffered.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`stream server exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, child };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function measure(chunking: string, rounds: number, names: string[]): Promise<Record<string, number>> {
  const { baseUrl, child } = await startServer(chunking);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  try {
    const selected = variants.filter((variant) => names.includes(variant.name));
    for (const variant of selected) await variant.run(baseUrl); // warm-up: JIT and connection setup
    for (let round = 0; round < rounds; round += 1) {
      // Rotate the order each round so no variant always runs right after the same neighbour.
      const ordered = selected.map((_, index) => selected[(index + round) % selected.length]);
      for (const variant of ordered) {
        global.gc?.();
        const before = process.cpuUsage();
        const events = await variant.run(baseUrl);
        const used = process.cpuUsage(before);
        const expected = variant.events ?? eventCount;
        if (events < expected) throw new Error(`${variant.name} saw ${events} of ${expected} events`);
        samples[variant.name].push((used.user + used.system) / expected);
      }
    }
  } finally {
    child.kill("SIGTERM");
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, Number(median(values).toFixed(3))]));
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const roundsArgument = process.argv.find((argument) => argument.startsWith("--rounds="));
  const rounds = roundsArgument ? Number(roundsArgument.split("=")[1]) : 9;
  const all = variants.map((variant) => variant.name);
  console.log(`bench:client — ${eventCount} events, ${(buildBenchStream().bytes.length / 1e6).toFixed(2)} MB, ${rounds} rounds, median client CPU µs/event (Node ${process.version})`);
  const main = await measure("random-1-4k", rounds, all);
  console.log(`random 1-4 KB writes: ${JSON.stringify(main)}`);
  const frame = await measure("frame", Math.max(3, Math.ceil(rounds / 2)), ["client", "floor"]);
  console.log(`one frame per write:  ${JSON.stringify(frame)}`);
  const large = await measure("64k", Math.max(3, Math.ceil(rounds / 2)), ["client", "floor"]);
  console.log(`64 KB writes:         ${JSON.stringify(large)}`);
  const summary = {
    eventCount,
    rounds,
    clientCpuUsPerEvent: main.client,
    floorCpuUsPerEvent: main.floor,
    openaiCreateCpuUsPerEvent: main.openaiCreate,
    openaiStreamCpuUsPerEvent: main.openaiStream,
    clientVsFloor: Number((main.client / main.floor).toFixed(3)),
    openaiStreamVsClient: Number((main.openaiStream / main.client).toFixed(2)),
    peer: `openai ${OPENAI_VERSION}`,
    goals: { clientVsFloorAtMost: 1.3 },
    frameChunking: { clientCpuUsPerEvent: frame.client, floorCpuUsPerEvent: frame.floor, clientVsFloor: Number((frame.client / frame.floor).toFixed(3)) },
    chunk64k: { clientCpuUsPerEvent: large.client, floorCpuUsPerEvent: large.floor, clientVsFloor: Number((large.client / large.floor).toFixed(3)) },
    // The same answer over Chat Completions, against its own floor, per chunk.
    chatCompletions: { clientCpuUsPerChunk: main.chatClient, floorCpuUsPerChunk: main.chatFloor, clientVsFloor: Number((main.chatClient / main.chatFloor).toFixed(3)), goalAtMost: 1.3 },
  };
  if (!json) console.log(`client/floor ${summary.clientVsFloor} (goal <= 1.3); openai ${OPENAI_VERSION} accumulating stream / client ${summary.openaiStreamVsClient}`);
  console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
