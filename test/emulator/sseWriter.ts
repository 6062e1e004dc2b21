import type { WireEvent } from "./responseEvents";
import type { BodyWriter } from "./bodyWriter";
import { delay, nextTurn } from "./bodyWriter";

export const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

/** `event: <type>\ndata: <json>\n\n`, with `sequence_number` right after `type` as the service orders it. */
export function formatSseFrame(event: WireEvent, sequenceNumber: number): string {
  const { type, ...rest } = event;
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequenceNumber, ...rest })}\n\n`;
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
export async function writeSseEvents(writer: BodyWriter, events: readonly WireEvent[], pacing: StreamPacing = {}): Promise<void> {
  for (const [sequenceNumber, event] of events.entries()) {
    if (isDelta(event) && pacing.deltaIntervalMs !== undefined) await delay(pacing.deltaIntervalMs);
    if ((await writer.write(formatSseFrame(event, sequenceNumber))) === "stopped") return;
    if (isDelta(event) && pacing.stallAfterFirstDelta) {
      writer.stall();
      return;
    }
    await nextTurn();
  }
  writer.end();
}
