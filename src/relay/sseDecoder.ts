import { createParser } from "eventsource-parser";
import type { EventSourceMessage, EventSourceParser } from "eventsource-parser";
import type { RelayEvent } from "./types";

/** Type given to a frame whose data is not a JSON object; accumulate keeps it as an unknown event. */
export const UNPARSABLE_FRAME_TYPE = "relay.unparsable_frame";

/**
 * Turns response body bytes into service events. eventsource-parser does the SSE framing (CRLF,
 * comments, multi-line data); TextDecoder in stream mode joins characters split across chunks and
 * drops a leading BOM.
 */
export class SseEventDecoder {
  private readonly textDecoder = new TextDecoder("utf-8");
  private readonly parser: EventSourceParser;
  private batch: RelayEvent[] = [];
  /** Whether a `data: [DONE]` sentinel arrived; it is a transport marker, never a terminal status. */
  sawDoneMarker = false;

  constructor() {
    this.parser = createParser({ onEvent: (message) => this.onMessage(message) });
  }

  /** Feeds one chunk and returns the events it completed (possibly none). */
  push(chunk: Uint8Array): RelayEvent[] {
    this.parser.feed(this.textDecoder.decode(chunk, { stream: true }));
    return this.takeBatch();
  }

  /**
   * Flushes at end of body. A last frame without its closing blank line is dropped, as the SSE standard
   * says: a body cut inside the final frame must never read as a completed response.
   */
  end(): RelayEvent[] {
    const rest = this.textDecoder.decode();
    if (rest) this.parser.feed(rest);
    return this.takeBatch();
  }

  private takeBatch(): RelayEvent[] {
    const events = this.batch;
    this.batch = [];
    return events;
  }

  private onMessage(message: EventSourceMessage): void {
    const data = message.data;
    if (data === "[DONE]") {
      this.sawDoneMarker = true;
      return;
    }
    if (data === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.batch.push({ type: UNPARSABLE_FRAME_TYPE, event: message.event ?? null, data: data.slice(0, 500) });
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.batch.push({ type: UNPARSABLE_FRAME_TYPE, event: message.event ?? null, data: data.slice(0, 500) });
      return;
    }
    const event = parsed as RelayEvent;
    // Frames without a JSON `type` take it from the `event:` line; some relays send only one of the two.
    if (typeof event.type !== "string") event.type = message.event ?? "unknown";
    this.batch.push(event);
  }
}
