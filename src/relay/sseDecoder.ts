import type { EventSourceMessage } from "eventsource-parser";
import { SseFrameReader } from "./sseFrameReader";
import type { RelayEvent } from "./types";

/** Type given to a frame whose data is not a JSON object; accumulate counts it as an unknown event. */
export const UNPARSABLE_FRAME_TYPE = "relay.unparsable_frame";

/** Type given to a Chat Completions chunk found in a Responses stream (a gateway mapped the model wrongly). */
export const CHAT_COMPLETIONS_CHUNK_TYPE = "relay.chat_completions_chunk";

/**
 * Turns response body bytes into service events; SseFrameReader does the framing and the text decoding. Per
 * event the hot path is one JSON.parse and one type check; the unusual cases (`[DONE]`, unreadable or untyped
 * frames) are looked at only when that check fails.
 */
export class SseEventDecoder {
  private readonly frames = new SseFrameReader();
  private batch: RelayEvent[] = [];

  /** Feeds one chunk and returns the events it completed (possibly none). */
  push(chunk: Uint8Array): RelayEvent[] {
    const frames = this.frames.push(chunk);
    for (let index = 0; index < frames.length; index += 1) this.onFrame(frames[index], false);
    return this.takeBatch();
  }

  /**
   * Flushes at the end of the body. Some relays end the body right after the last frame's data line,
   * without the closing blank line: that frame counts when its data is complete JSON. A body cut inside
   * the JSON never yields an event, so a cut can never read as a completed response.
   */
  end(): RelayEvent[] {
    const frames = this.frames.end();
    const last = frames.length - 1;
    for (let index = 0; index <= last; index += 1) this.onFrame(frames[index], index === last && this.frames.endCompletedLastFrame);
    return this.takeBatch();
  }

  private takeBatch(): RelayEvent[] {
    const events = this.batch;
    this.batch = [];
    return events;
  }

  private onFrame(message: EventSourceMessage, atEnd: boolean): void {
    const data = message.data;
    let parsed: RelayEvent | null = null;
    try {
      parsed = JSON.parse(data) as RelayEvent | null;
    } catch {
      parsed = null;
    }
    if (parsed !== null && typeof parsed.type === "string") {
      this.batch.push(parsed);
      return;
    }
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      parsed.type = typeOfUntypedFrame(parsed, message.event);
      this.batch.push(parsed);
      return;
    }
    // `[DONE]` is a transport marker some relays add after the terminal event, never a status.
    if (data === "[DONE]" || data === "" || atEnd) return;
    this.batch.push({ type: UNPARSABLE_FRAME_TYPE, event: message.event ?? null, data: data.slice(0, 500) });
  }
}

/**
 * Frames without a JSON `type`: the `event:` line names it when there is one; a bare `{"error":{...}}`
 * (sent by some relays instead of an `error` event) is an error; a Chat Completions chunk is flagged.
 */
function typeOfUntypedFrame(event: RelayEvent, eventLine: string | undefined): string {
  if (eventLine) return eventLine;
  if (event.error !== undefined && event.error !== null) return "error";
  if (event.object === "chat.completion.chunk" || event.object === "chat.completion") return CHAT_COMPLETIONS_CHUNK_TYPE;
  return "unknown";
}
