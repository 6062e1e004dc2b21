import * as l10n from "@vscode/l10n";

// What the person types into Model settings… for a number, read or refused with a sentence saying what fits.
// Empty means "not set": the field is removed and the request leaves it to the relay (or relayChat.maxOutputTokens).

export type TypedValue = { ok: true; value: number | undefined } | { ok: false; problem: string };

export function readTemperature(text: string): TypedValue {
  const typed = text.trim();
  if (typed === "") return { ok: true, value: undefined };
  const value = Number(typed);
  return Number.isFinite(value) && value >= 0 && value <= 2 ? { ok: true, value } : { ok: false, problem: l10n.t("Type a number from 0 to 2, or nothing to leave it to the model.") };
}

export function readMaxOutputTokens(text: string): TypedValue {
  const typed = text.trim().replace(/[,_\s]/g, "");
  if (typed === "") return { ok: true, value: undefined };
  const value = Number(typed);
  return Number.isInteger(value) && value > 0 ? { ok: true, value } : { ok: false, problem: l10n.t("Type a whole number above 0, or nothing to use relayChat.maxOutputTokens.") };
}
