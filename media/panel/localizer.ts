/**
 * Looks UI strings up in the table the host sends with every state (keyed by their English text, see
 * src/panel/webviewStrings.ts); a missing entry falls back to English so a new string never shows blank.
 */
export class Localizer {
  constructor(private readonly strings: Readonly<Record<string, string>>) {}

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
}
