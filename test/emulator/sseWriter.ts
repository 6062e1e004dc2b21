import type { WireEvent } from "./responseEvents";
import type { BodyWriter } from "./bodyWriter";
import { delay, nextTurn } from "./bodyWriter";

export const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

/** How a relay frames its events. The real service: `event:` lines and sequence numbers, no comments. */
export interface SseFraming {
  eventLines: boolean;
  sequenceNumbers: boolean;
  /** Write a `: PING` keep-alive comment before the first event and after every N events; null for none. */
  pingEvery: number | null;
}

export const SERVICE_FRAMING: SseFraming = { eventLines: true, sequenceNumbers: true, pingEvery: null };

/**
 * `event: <type>\ndata: <json>\n\n`, with `sequence_number` right after `type` as the service orders it.
 * An event whose type is "" is written as a bare data frame without a `type` (a typeless error frame).
 */
export function formatSseFrame(event: WireEvent, sequenceNumber: number, framing: SseFraming = SERVICE_FRAMING): string {
  const { type, ...rest } = event;
  if (type === "") return `data: ${JSON.stringify(rest)}\n\n`;
  const data = framing.sequenceNumbers ? { type, sequence_number: sequenceNumber, ...rest } : { type, ...rest };
  return `${framing.eventLines ? `event: ${type}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

export interface StreamPacing {
  /** Wait this long before each delta event. */
  deltaIntervalMs?: number;
  /** Stop writing (socket kept open) once the first delta has been sent. */
  stallAfterFirstDelta?: boolean;
}

function isDelta(event: WireEvent): boolean {
  return event.type.endsWith(".delta");
}

/** Writes the events as SSE frames, one write per frame, yielding between frames so they arrive apart. */
export async function writeSseEvents(writer: BodyWriter, events: readonly WireEvent[], pacing: StreamPacing = {}, framing: SseFraming = SERVICE_FRAMING): Promise<void> {
  for (const [sequenceNumber, event] of events.entries()) {
    if (framing.pingEvery !== null && sequenceNumber % framing.pingEvery === 0 && (await writer.write(": PING\n\n")) === "stopped") return;
    if (isDelta(event) && pacing.deltaIntervalMs !== undefined) await delay(pacing.deltaIntervalMs);
    if ((await writer.write(formatSseFrame(event, sequenceNumber, framing))) === "stopped") return;
    if (isDelta(event) && pacing.stallAfterFirstDelta) {
      writer.stall();
      return;
    }
    await nextTurn();
  }
  writer.end();
}
