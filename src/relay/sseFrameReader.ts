import { StringDecoder } from "node:string_decoder";
import { createParser } from "eventsource-parser";
import type { EventSourceMessage, EventSourceParser } from "eventsource-parser";

/**
 * Called once per frame: `message.data` holds its data lines joined, `message.event` its `event:` line.
 * `atEnd` is true for a frame that only the end of the body completed (its closing blank line never came):
 * a reader keeps it when its data is whole, and drops it when the body was cut inside it.
 */
export type SseFrameHandler = (message: EventSourceMessage, atEnd: boolean) => void;

const BYTE_ORDER_MARK = 0xfeff;

/**
 * The one SSE frame reader of both wires (the Responses events and the Chat Completions chunks): body bytes in,
 * frames out. eventsource-parser does the framing (CRLF, comments such as `: PING`, multi-line data, `event:`
 * lines). Node's streaming StringDecoder turns the bytes into text, joining characters split across chunks; it
 * costs a fraction of TextDecoder per chunk, which matters when every answer is thousands of small frames.
 */
export class SseFrameReader {
  private readonly textDecoder = new StringDecoder("utf8");
  private readonly parser: EventSourceParser;
  /** True until the first character: a leading byte order mark is dropped, as TextDecoder would. */
  private atStart = true;
  private flushing = false;

  constructor(private readonly onFrame: SseFrameHandler) {
    this.parser = createParser({ onEvent: (message) => this.onFrame(message, this.flushing) });
  }

  /** Feeds one chunk of the body; the handler is called for each frame it completes. */
  push(chunk: Uint8Array): void {
    this.feed(this.textDecoder.write(chunk));
  }

  /**
   * The body ended. A last frame without its closing blank line (some relays end the body right after its
   * data line) is completed here, with `atEnd` set; a character cut by the end reads as U+FFFD.
   */
  end(): void {
    this.feed(this.textDecoder.end());
    this.flushing = true;
    try {
      this.parser.feed("\n\n");
    } finally {
      this.flushing = false;
    }
  }

  private feed(text: string): void {
    if (text === "") return;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    }
    this.parser.feed(text);
  }
}
