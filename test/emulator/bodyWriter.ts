import type { ServerResponse } from "node:http";

/** Transport-level misbehaviour, counted in body bytes (headers and chunk framing excluded). */
export interface TransportPlan {
  disconnectAfterBytes?: number;
  stallAfterBytes?: number;
}

export type WriteResult = "written" | "stopped";

/**
 * Writes a response body piece by piece while honouring disconnect/stall limits and noticing
 * when the client goes away, so generators can simply stop when told.
 */
export class BodyWriter {
  private bytesWritten = 0;
  private stopped = false;
  private readonly closed: Promise<void>;

  constructor(
    private readonly response: ServerResponse,
    private readonly plan: TransportPlan,
  ) {
    this.closed = new Promise((resolve) => response.once("close", () => {
      this.stopped = true;
      resolve();
    }));
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  get bodyBytesWritten(): number {
    return this.bytesWritten;
  }

  async write(chunk: string | Buffer): Promise<WriteResult> {
    if (this.stopped) return "stopped";
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    const limit = Math.min(this.plan.disconnectAfterBytes ?? Infinity, this.plan.stallAfterBytes ?? Infinity);
    if (this.bytesWritten + bytes.length >= limit && limit !== Infinity) {
      const partial = bytes.subarray(0, Math.max(0, limit - this.bytesWritten));
      await this.writeRaw(partial);
      if (this.plan.disconnectAfterBytes !== undefined && this.plan.disconnectAfterBytes <= (this.plan.stallAfterBytes ?? Infinity)) {
        this.disconnect();
      } else {
        this.stall();
      }
      return "stopped";
    }
    await this.writeRaw(bytes);
    return this.stopped ? "stopped" : "written";
  }

  /** Stops writing for good but leaves the connection open, like a hung upstream; close() ends it. */
  stall(): void {
    this.stopped = true;
    this.response.flushHeaders();
  }

  end(): void {
    if (!this.stopped) this.response.end();
    this.stopped = true;
  }

  private disconnect(): void {
    this.stopped = true;
    this.response.flushHeaders();
    const socket = this.response.socket;
    if (!socket) return;
    // A graceful FIN after the partial bytes are flushed: the client sees a body cut short
    // (no terminating chunk), never a reset that could drop the bytes it was promised.
    socket.end();
    setTimeout(() => socket.destroy(), 100).unref();
  }

  private async writeRaw(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    this.bytesWritten += bytes.length;
    const flushed = new Promise<void>((resolve) => this.response.write(bytes, () => resolve()));
    await Promise.race([flushed, this.closed]);
  }
}

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
