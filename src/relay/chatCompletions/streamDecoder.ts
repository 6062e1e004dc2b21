import type { EventSourceMessage } from "eventsource-parser";
import { isObject } from "../outputItems";
import { UNPARSABLE_FRAME_TYPE } from "../sseDecoder";
import { SseFrameReader } from "../sseFrameReader";
import type { RelayEvent } from "../types";
import { ChatChunkTranslator } from "./chunkTranslator";

/**
 * Turns a Chat Completions response body into the Responses events the client reads (see chunkTranslator.ts).
 * SseFrameReader does the framing, as for the Responses wire: CRLF, comment lines (OpenRouter's
 * `: OPENROUTER PROCESSING`), an `event: error` line before the data (Groq). `data: [DONE]` ends the stream; so
 * does the body's clean end.
 */
export class ChatCompletionsStreamDecoder {
  private readonly frames = new SseFrameReader();
  private readonly translator = new ChatChunkTranslator();
  private batch: RelayEvent[] = [];

  /** Feeds one chunk of the body and returns the events it completed (possibly none). */
  push(chunk: Uint8Array): RelayEvent[] {
    const frames = this.frames.push(chunk);
    for (let index = 0; index < frames.length; index += 1) this.onFrame(frames[index], false);
    return this.takeBatch();
  }

  /** The body ended without being cut: a last frame without its blank line still counts when its JSON is whole. */
  end(): RelayEvent[] {
    const frames = this.frames.end();
    const last = frames.length - 1;
    for (let index = 0; index <= last; index += 1) this.onFrame(frames[index], index === last && this.frames.endCompletedLastFrame);
    this.translator.end(this.batch);
    return this.takeBatch();
  }

  private takeBatch(): RelayEvent[] {
    const events = this.batch;
    this.batch = [];
    return events;
  }

  private onFrame(message: EventSourceMessage, atEnd: boolean): void {
    const data = message.data.trim();
    if (data === "") return;
    if (data === "[DONE]") {
      this.translator.end(this.batch);
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
      if (!atEnd) this.batch.push({ type: UNPARSABLE_FRAME_TYPE, event: message.event ?? null, data: data.slice(0, 500) });
      return;
    }
    // An `event: error` frame (Groq) carries its error in the data, like the others; a bare message is wrapped.
    this.translator.chunk(message.event === "error" && parsed.error === undefined ? { error: parsed } : parsed, this.batch);
  }
}
