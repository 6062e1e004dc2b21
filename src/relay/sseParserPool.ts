import { createParser } from "eventsource-parser";
import type { EventSourceMessage, EventSourceParser } from "eventsource-parser";

/** An eventsource-parser and the frames it completed since they were last taken. */
export interface PooledSseParser {
  readonly parser: EventSourceParser;
  readonly completed: EventSourceMessage[];
}

/** Enough for the streams that run at once (a turn and a side request); more are created and dropped. */
const MAX_IDLE = 4;
const idle: PooledSseParser[] = [];

/**
 * A parser for one stream, reset, taken from the idle ones when there is one. A parser is a set of closures
 * (createParser), and V8's optimized code for them does not outlive the closures: after a full garbage
 * collection a new parser runs unoptimized and is compiled again, which costs a 20,000-event answer about as
 * much as framing it does (bench/client: 10 ms against 2 ms for a reused one). A reused parser keeps its code.
 */
export function takeSseParser(): PooledSseParser {
  const pooled = idle.pop();
  if (pooled === undefined) {
    const completed: EventSourceMessage[] = [];
    // Only collects: the frames are read after each feed, so this closure stays small and cheap to compile.
    return { parser: createParser({ onEvent: (message) => completed.push(message) }), completed };
  }
  pooled.parser.reset();
  pooled.completed.length = 0;
  return pooled;
}

/** Gives back a parser whose stream ended cleanly; its owner must not use it again. */
export function returnSseParser(pooled: PooledSseParser): void {
  if (idle.length < MAX_IDLE && !idle.includes(pooled)) idle.push(pooled);
}
