import type { BodyWriter } from "./bodyWriter";
import { nextTurn } from "./bodyWriter";

export interface ReplayOptions {
  /** "random": 1..64-byte chunks from a seeded generator; a number: fixed size (1 = byte by byte). */
  chunkSizes?: "random" | number;
  seed?: number;
  status?: number;
  /** Response headers to send besides the content type (a capture's own, such as its request id). */
  headers?: Record<string, string>;
}

export interface QueuedReplay {
  body: Buffer;
  options: ReplayOptions;
}

/** mulberry32: tiny, seedable, good enough to vary chunk boundaries reproducibly. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chunk boundaries for a body; byte-level, so UTF-8 sequences and SSE frames get split too. */
export function replayChunks(body: Buffer, options: ReplayOptions): Buffer[] {
  const chunks: Buffer[] = [];
  const chunkSizes = options.chunkSizes ?? "random";
  const random = seededRandom(options.seed ?? 1);
  for (let offset = 0; offset < body.length; ) {
    const size = chunkSizes === "random" ? 1 + Math.floor(random() * 64) : Math.max(1, Math.floor(chunkSizes));
    chunks.push(body.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

export async function writeReplay(writer: BodyWriter, replay: QueuedReplay): Promise<void> {
  for (const chunk of replayChunks(replay.body, replay.options)) {
    if ((await writer.write(chunk)) === "stopped") return;
    await nextTurn();
  }
  writer.end();
}
