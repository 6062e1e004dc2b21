import { randomUUID } from "node:crypto";

// Time and identity are passed in, so tests and the benchmark can pin them.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export type IdFactory = (prefix: string) => string;

/** Ids are also file names (`conv_<uuid>.json`), so they use only letters, digits, "_" and "-". */
export const randomIds: IdFactory = (prefix) => `${prefix}_${randomUUID()}`;
