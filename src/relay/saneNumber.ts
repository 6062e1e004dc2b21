// One rule for every number a relay (or a file written from one) gives as money: a price, a cost, a
// balance. Relays are other people's servers: a price of "1e303" per token, a ratio of 1e303 or a cost
// of 1e308 would become Infinity or NaN once multiplied, and "0x10" is not what a person would read as
// sixteen. Anything that is not a finite decimal number between 0 and a sane ceiling is unknown (null):
// shown as unknown, never as 0, never added to a total.

/**
 * Money per million tokens: far above any real model's price in any currency (the dearest models cost a
 * few hundred dollars a million, some hundred thousand in won or yen).
 */
export const MAX_PRICE_PER_MILLION = 100_000_000;
/** The cost of one request, in any currency. */
export const MAX_REQUEST_COST = 100_000_000;
/** A balance or an amount spent, in money or in a relay's raw quota units (new-api counts 500 000 a dollar). */
export const MAX_BALANCE = 1e15;
/** A ratio or a price per token before it is scaled (a relay's ratio, dollars per token). */
export const MAX_FACTOR = 1_000_000;

/** A plain decimal as people write it: "12", "0.5", ".5", "1e-6"; never hexadecimal, "Infinity" or blank. */
const DECIMAL_TEXT = /^\+?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export interface SaneNumberOptions {
  /** The largest value believed. */
  max: number;
  /** Accept a decimal string too ("0.000001", as OpenRouter writes prices). Default false. */
  text?: boolean;
}

/** `value` when it is a finite number from 0 to `max` (a decimal string too with `text`); otherwise null. */
export function saneNumber(value: unknown, options: SaneNumberOptions): number | null {
  const number = typeof value === "number" ? value : options.text === true && typeof value === "string" && DECIMAL_TEXT.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(number) && number >= 0 && number <= options.max ? number : null;
}
