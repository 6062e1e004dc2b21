// A value per key that is loaded at most once per interval: prices once per relay (an hour), a balance
// at most once a minute. `peek` never loads, so the send path can read what is there without waiting
// for the network; `get` loads when the value is missing or stale, sharing one load among callers.

export interface TimedCacheOptions {
  /** How long a loaded value stays fresh, in ms. */
  freshForMs: number;
  /** Epoch ms; injectable for tests. Default Date.now. */
  now?: () => number;
}

interface Entry<T> {
  value: T | undefined;
  loadedAt: number | null;
  loading: Promise<T> | null;
}

export class TimedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly now: () => number;

  constructor(
    private readonly load: (key: string) => Promise<T>,
    private readonly options: TimedCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The last loaded value (fresh or stale), without loading; undefined when none was loaded yet. */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  /** True when a value is there and younger than the interval. */
  isFresh(key: string): boolean {
    const loadedAt = this.entries.get(key)?.loadedAt;
    return loadedAt !== null && loadedAt !== undefined && this.now() - loadedAt < this.options.freshForMs;
  }

  /** The value, loading it first when missing or stale; concurrent callers share one load. A failed load keeps the old value and rejects. */
  async get(key: string): Promise<T> {
    const entry = this.entries.get(key) ?? { value: undefined, loadedAt: null, loading: null };
    this.entries.set(key, entry);
    if (this.isFresh(key)) return entry.value as T;
    entry.loading ??= this.load(key).then(
      (value) => {
        entry.value = value;
        entry.loadedAt = this.now();
        entry.loading = null;
        return value;
      },
      (error: unknown) => {
        entry.loading = null;
        throw error;
      },
    );
    return entry.loading;
  }

  /** Forgets a key (a relay removed or its address changed). */
  delete(key: string): void {
    this.entries.delete(key);
  }
}
