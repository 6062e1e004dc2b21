import { StringDecoder } from "node:string_decoder";
import type { EventSourceMessage } from "eventsource-parser";
import { returnSseParser, takeSseParser } from "./sseParserPool";
import type { PooledSseParser } from "./sseParserPool";

const BYTE_ORDER_MARK = 0xfeff;
const NO_FRAMES: readonly EventSourceMessage[] = Object.freeze([]);

/**
 * The one SSE frame reader of both wires (the Responses events and the Chat Completions chunks): body bytes in,
 * frames out (`message.data` holds a frame's data lines joined, `message.event` its `event:` line).
 * eventsource-parser does the framing (CRLF, comments such as `: PING`, multi-line data, `event:` lines); its
 * parser is reused from stream to stream (sseParserPool.ts). Node's streaming StringDecoder turns the bytes into
 * text, joining characters split across chunks; it costs a fraction of TextDecoder per chunk, which matters when
 * every answer is thousands of small frames. The frames are returned, not called back for, so the caller reads
 * them in its own loop.
 */
export class SseFrameReader {
  private readonly textDecoder = new StringDecoder("utf8");
  /** Null once the body ended: the parser went back to the pool and may be another stream's now. */
  private pooled: PooledSseParser | null = takeSseParser();
  /** True until the first character: a leading byte order mark is dropped, as TextDecoder would. */
  private atStart = true;
  private lastCompletedByEnd = false;

  /** Feeds one chunk of the body; returns the frames it completed, valid until the next call. */
  push(chunk: Uint8Array): readonly EventSourceMessage[] {
    return this.feed(this.parserInUse(), this.textDecoder.write(chunk));
  }

  /**
   * The body ended: returns the frames its last bytes completed. A last frame without its closing blank line
   * (some relays end the body right after its data line) is completed here, and `lastCompletedByEnd` says so:
   * a reader keeps it when its data is whole, and drops it when the body was cut inside it. A character cut by
   * the end reads as U+FFFD.
   */
  end(): readonly EventSourceMessage[] {
    const pooled = this.parserInUse();
    this.feed(pooled, this.textDecoder.end());
    const completed = pooled.completed.length;
    pooled.parser.feed("\n\n");
    this.lastCompletedByEnd = pooled.completed.length > completed;
    const frames = pooled.completed.slice();
    this.pooled = null;
    returnSseParser(pooled);
    return frames;
  }

  /** True when the last frame `end()` returned was completed by the body's end, not by its blank line. */
  get endCompletedLastFrame(): boolean {
    return this.lastCompletedByEnd;
  }

  private parserInUse(): PooledSseParser {
    if (this.pooled === null) throw new Error("SseFrameReader: the body already ended; this is a bug in Relay Chat.");
    return this.pooled;
  }

  private feed(pooled: PooledSseParser, text: string): readonly EventSourceMessage[] {
    pooled.completed.length = 0;
    if (text === "") return NO_FRAMES;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    }
    pooled.parser.feed(text);
    return pooled.completed;
  }
}
