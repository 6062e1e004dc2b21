import type { LedgerRow } from "./requestLedger";

// CSV as RFC 4180 reads it: comma-separated, CRLF line ends, and any field holding a comma, quote or line
// break wrapped in quotes with inner quotes doubled. Columns follow LedgerRow, so a spreadsheet lines up
// with the relay console's usage log by request id.

// The instruction sources stay in the ledger file only (a list per row).
const COLUMNS: ReadonlyArray<Exclude<keyof LedgerRow, "entryId" | "instructionSources" | "instructionsHash">> = [
  "time",
  "conversationId",
  "turnId",
  "purpose",
  "model",
  "streamed",
  "outcome",
  "httpStatus",
  "requestId",
  "requestIds",
  "responseId",
  "inputTokens",
  "cachedTokens",
  "outputTokens",
  "reasoningTokens",
  "firstByteMs",
  "totalMs",
  "bytesReceived",
  "relay",
  "estimatedCost",
  "billedCost",
  "costCurrency",
];

export function ledgerToCsv(rows: readonly LedgerRow[]): string {
  const lines = [COLUMNS.join(",")];
  for (const row of rows) lines.push(COLUMNS.map((column) => csvField(column === "requestIds" ? (row.requestIds ?? []).join(" ") : row[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  // A text field starting with = + - @ would run as a formula in a spreadsheet; a leading apostrophe
  // keeps it text. Numbers are written as they are.
  const text = typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
