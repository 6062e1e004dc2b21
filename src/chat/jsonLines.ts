// Append-only JSON-lines files (the ledger, conversation journals, the list's lines). Each line starts
// with a line break, so a line torn by a crash or a full disk never swallows the next one; reading skips
// torn lines.

/** The text to append for one value. */
export function jsonLine(value: unknown): string {
  return `\n${JSON.stringify(value)}`;
}

/** The objects of a JSON-lines text, in order; blank and torn lines are skipped. */
export function readJsonLines(text: string): Array<Record<string, unknown>> {
  const values: Array<Record<string, unknown>> = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) values.push(value as Record<string, unknown>);
    } catch {
      // A torn line: the write it belonged to never finished.
    }
  }
  return values;
}
