// How an amount of money is written, everywhere it is shown (the panel's receipts and totals, the
// status bar's balance): whole amounts with two decimals, small ones with enough digits to show two
// significant ones, so a short answer's $0.0016 is not rounded to "$0.00" and real spending never
// disappears. Plain code with no dependency, so the webview and the extension host share it.

/** The most decimals shown, for amounts below a millionth of a unit. */
const MAX_DECIMALS = 8;

/** Decimals for `amount`: 2 from 1 up; below 1 at least 4, and enough for two significant digits. */
export function moneyDecimals(amount: number): number {
  const size = Math.abs(amount);
  if (!Number.isFinite(size) || size === 0 || size >= 1) return 2;
  const zerosAfterPoint = Math.floor(-Math.log10(size));
  return Math.min(MAX_DECIMALS, Math.max(4, zerosAfterPoint + 2));
}

/** "$0.0016", "$12.34", "¥1.20" (in `locale`); "12.3400 XYZ" for a code Intl does not know. */
export function formatMoney(amount: number, currency: string, locale = "en-US"): string {
  const decimals = moneyDecimals(amount);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: decimals }).format(amount);
  } catch {
    return `${amount.toFixed(decimals)} ${currency}`;
  }
}

/**
 * A balance or an amount spent in a relay's unit: money by the rule above for a currency code, a relay's
 * raw quota ("quota", when its money unit is unknown) as a whole number.
 */
export function amountText(amount: number, unit: string | null, locale = "en-US"): string {
  if (unit !== null && /^[A-Z]{3}$/.test(unit)) return formatMoney(amount, unit, locale);
  return `${Math.round(amount).toLocaleString(locale)} ${unit ?? ""}`.trim();
}
