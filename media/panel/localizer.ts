import { formatMoney } from "../../src/relay/moneyFormat";

/**
 * Looks UI strings up in the table the host sends with its snapshot (keyed by their English text, see
 * src/panel/webviewStrings.ts); a missing entry falls back to English so a new string never shows blank.
 * Numbers, plurals and dates follow VS Code's display language.
 */
export class Localizer {
  private readonly plurals: Intl.PluralRules;
  private readonly numbers: Intl.NumberFormat;
  private readonly compactNumbers: Intl.NumberFormat;
  private readonly relative: Intl.RelativeTimeFormat;
  private readonly dates: Intl.DateTimeFormat;

  constructor(
    private readonly strings: Readonly<Record<string, string>>,
    readonly locale = "en",
  ) {
    const supported = Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : "en";
    this.plurals = new Intl.PluralRules(supported);
    this.numbers = new Intl.NumberFormat(supported);
    this.compactNumbers = new Intl.NumberFormat(supported, { notation: "compact", maximumFractionDigits: 1 });
    this.relative = new Intl.RelativeTimeFormat(supported, { numeric: "auto" });
    this.dates = new Intl.DateTimeFormat(supported, { dateStyle: "medium" });
  }

  text(english: string): string {
    const translated = Object.prototype.hasOwnProperty.call(this.strings, english) ? this.strings[english] : undefined;
    return typeof translated === "string" ? translated : english;
  }

  /** `{0}`, `{1}`... placeholders, as vscode.l10n.t uses them. */
  format(english: string, ...values: ReadonlyArray<string | number>): string {
    return this.text(english).replace(/\{(\d+)\}/g, (placeholder, index: string) => {
      const value = values[Number(index)];
      return value === undefined ? placeholder : String(value);
    });
  }

  /** "1 request" / "2 requests": `one` and `other` are English strings with `{0}` for the count. */
  plural(count: number, one: string, other: string): string {
    return this.format(this.plurals.select(count) === "one" ? one : other, this.number(count));
  }

  number(value: number): string {
    return this.numbers.format(value);
  }

  /**
   * "$0.0123", "¥1.20": the one money rule (src/relay/moneyFormat.ts: small amounts keep enough decimals,
   * a short answer costs fractions of a cent); an estimate is marked "≈".
   */
  money(amount: number, currency: string, estimated = false): string {
    const text = formatMoney(amount, currency, this.locale);
    return estimated ? `≈${text}` : text;
  }

  /** 1234 -> "1.2K": for the quiet receipt line; the details show exact figures. */
  compact(value: number): string {
    return this.compactNumbers.format(value);
  }

  /** "5 minutes ago", "yesterday", then a date. */
  relativeTime(timestamp: number, now = Date.now()): string {
    const seconds = Math.round((timestamp - now) / 1000);
    const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
      ["second", 60],
      ["minute", 60],
      ["hour", 24],
      ["day", 7],
    ];
    let value = seconds;
    for (const [unit, size] of steps) {
      if (Math.abs(value) < size) return unit === "second" ? this.relative.format(0, "second") : this.relative.format(value, unit);
      value = Math.round(value / size);
    }
    return this.dates.format(new Date(timestamp));
  }
}
