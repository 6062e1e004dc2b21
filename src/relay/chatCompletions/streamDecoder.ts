import { createParser } from "eventsource-parser";
import type { EventSourceMessage, EventSourceParser } from "eventsource-parser";
import { isObject } from "../outputItems";
import { UNPARSABLE_FRAME_TYPE } from "../sseDecoder";
import type { RelayEvent } from "../types";
import { ChatChunkTranslator } from "./chunkTranslator";

/**
 * Turns a Chat Completions response body into the Responses events the client reads (see chunkTranslator.ts).
 * eventsource-parser does the SSE framing: CRLF, comment lines (OpenRouter's `: OPENROUTER PROCESSING`), an
 * `event: error` line before the data (Groq). `data: [DONE]` ends the stream; so does the body's clean end.
 */
export class ChatCompletionsStreamDecoder {
  private readonly textDecoder = new TextDecoder("utf-8");
  private readonly parser: EventSourceParser;
  private readonly translator = new ChatChunkTranslator();
  private batch: RelayEvent[] = [];
  /** Set while the end of the body is flushed: a frame completed only by that flush counts if its JSON is whole. */
  private flushing = false;

  constructor() {
    this.parser = createParser({ onEvent: (message) => this.onMessage(message) });
  }

  /** Feeds one chunk of the body and returns the events it completed (possibly none). */
  push(chunk: Uint8Array): RelayEvent[] {
    this.parser.feed(this.textDecoder.decode(chunk, { stream: true }));
    return this.takeBatch();
  }

  /** The body ended without being cut: a last frame without its blank line still counts when its JSON is whole. */
  end(): RelayEvent[] {
    const rest = this.textDecoder.decode();
    if (rest) this.parser.feed(rest);
    this.flushing = true;
    this.parser.feed("\n\n");
    this.flushing = false;
    this.batch.push(...this.translator.end());
    return this.takeBatch();
  }

  private takeBatch(): RelayEvent[] {
    const events = this.batch;
    this.batch = [];
    return events;
  }

  private onMessage(message: EventSourceMessage): void {
    const data = message.data.trim();
    if (data === "") return;
    if (data === "[DONE]") {
      this.batch.push(...this.translator.end());
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    if (!isObject(parsed)) {
      // A frame cut by the body's end is not an event; one the relay sent broken is counted as unreadable.
      if (!this.flushing) this.batch.push({ type: UNPARSABLE_FRAME_TYPE, event: message.event ?? null, data: data.slice(0, 500) });
      return;
    }
    // An `event: error` frame (Groq) carries its error in the data, like the others; a bare message is wrapped.
    const chunk = message.event === "error" && parsed.error === undefined ? { error: parsed } : parsed;
    this.batch.push(...this.translator.chunk(chunk));
  }
}
