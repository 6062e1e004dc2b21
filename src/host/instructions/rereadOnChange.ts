// Files read through VS Code and kept current, as the project rules and the prompt files are: read when first
// asked for, again a moment after a change (changes come in bursts: a save, a checkout), one read at a time.
// What was read last stays in use while a new read runs, so asking never waits unless the caller wants it fresh.

const REREAD_DELAY_MS = 300;

export class RereadOnChange<T> {
  private reading: Promise<void> | null = null;
  private stale = true;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly readAll: () => Promise<T>,
    /** The new value, after each read that succeeded. */
    private readonly onRead: (value: T) => void,
    /** A read that failed; the last value stays. */
    private readonly onError: (error: Error) => void,
  ) {}

  /** A read is due or under way: what was read may be out of date. */
  get pending(): boolean {
    return this.stale || this.reading !== null;
  }

  /** Starts a read when one is due (and none runs); never waits for it. */
  readIfStale(): void {
    if (this.stale && this.reading === null) void this.read();
  }

  /** Waits until what was read is current. */
  async fresh(): Promise<void> {
    if (this.stale) await (this.reading ?? this.read());
    else if (this.reading) await this.reading;
  }

  /** Something changed: read again a moment later (a burst of changes makes one read). */
  changed(): void {
    this.stale = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.readWhenDue(), REREAD_DELAY_MS);
  }

  /** Marks it due without scheduling a read (the next ask starts one). */
  markStale(): void {
    this.stale = true;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  /** The delayed read: skipped when a read since the change made it current; after the running read when one runs. */
  private readWhenDue(): void {
    if (this.reading !== null) void this.reading.then(() => this.readIfStale());
    else this.readIfStale();
  }

  private read(): Promise<void> {
    this.stale = false;
    const reading = this.readAll()
      .then((value) => this.onRead(value))
      .catch((error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        if (this.reading === reading) this.reading = null;
      });
    this.reading = reading;
    return reading;
  }
}
