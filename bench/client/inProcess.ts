import { createParser } from "eventsource-parser";
import { ChatCompletionsStreamDecoder } from "../../src/relay/chatCompletions/streamDecoder";
import { Exchange } from "../../src/relay/exchange";
import { SseEventDecoder } from "../../src/relay/sseDecoder";
import type { RelayEvent } from "../../src/relay/types";
import { buildBenchStream, seededRandom } from "./benchStream";
import { buildChatBenchStream } from "./chatBenchStream";

// `node --require tsx/cjs bench/client/inProcess.ts`: the stream reading of bench:client without HTTP, in one
// process, so a change to the decoders shows above the noise of a shared machine. Both wires' bodies, cut as
// bench:client's server cuts them (random 1-4 KB), are read by the client's decoder and Exchange (events
// accumulated into the snapshot) and by the floor (TextDecoder + eventsource-parser + JSON.parse per frame).
// CPU per event (per chunk for Chat Completions), median of 31 interleaved rounds, rotating order.

function cutLikeTheServer(bytes: Buffer): Buffer[] {
  const random = seededRandom(7);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = Math.min(bytes.length, start + 1024 + Math.floor(random() * 3072));
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  return pieces;
}

const responses = buildBenchStream();
const chat = buildChatBenchStream();
const responsesPieces = cutLikeTheServer(responses.bytes);
const chatPieces = cutLikeTheServer(chat.bytes);
const settings = { apiKey: "bench-key", requestIdHeaders: [], streamed: true, extraHeaders: {}, timeoutMs: 60_000 };

function floor(pieces: readonly Buffer[]): void {
  const parser = createParser({
    onEvent(message) {
      if (message.data !== "[DONE]") JSON.parse(message.data);
    },
  });
  const decoder = new TextDecoder();
  for (const piece of pieces) parser.feed(decoder.decode(piece, { stream: true }));
}

function client(pieces: readonly Buffer[], decoder: { push(chunk: Uint8Array): RelayEvent[]; end(): RelayEvent[] }): void {
  const exchange = new Exchange(settings);
  for (const piece of pieces) exchange.acceptEvents(decoder.push(piece));
  exchange.acceptEvents(decoder.end());
  if (exchange.snapshot.terminal !== "completed") throw new Error("the stream did not complete");
}

const variants: Record<string, { events: number; run: () => void }> = {
  responsesClient: { events: responses.eventCount, run: () => client(responsesPieces, new SseEventDecoder()) },
  responsesFloor: { events: responses.eventCount, run: () => floor(responsesPieces) },
  chatClient: { events: chat.chunkCount, run: () => client(chatPieces, new ChatCompletionsStreamDecoder()) },
  chatFloor: { events: chat.chunkCount, run: () => floor(chatPieces) },
};

const names = Object.keys(variants);
for (let warmUp = 0; warmUp < 5; warmUp += 1) for (const name of names) variants[name].run();
const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < 31; round += 1) {
  for (let index = 0; index < names.length; index += 1) {
    const name = names[(index + round) % names.length];
    const before = process.cpuUsage();
    variants[name].run();
    const used = process.cpuUsage(before);
    samples[name].push((used.user + used.system) / variants[name].events);
  }
}
const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const us = Object.fromEntries(names.map((name) => [name, Number(median(samples[name]).toFixed(3))]));
console.log(
  JSON.stringify({
    responses: { clientCpuUsPerEvent: us.responsesClient, floorCpuUsPerEvent: us.responsesFloor, clientVsFloor: Number((us.responsesClient / us.responsesFloor).toFixed(3)) },
    chatCompletions: { clientCpuUsPerChunk: us.chatClient, floorCpuUsPerChunk: us.chatFloor, clientVsFloor: Number((us.chatClient / us.chatFloor).toFixed(3)) },
  }),
);
