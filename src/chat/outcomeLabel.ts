import type { RequestState, TurnOutcome } from "./conversation";

// The one wording of an outcome, for the panel's turns and receipts, the Markdown export and the CLI's
// receipt line. The caller passes its localize function (vscode.l10n.t in the extension, `englishText`
// elsewhere), so the Chinese translation pass finds every string here.

export type Localize = (english: string, ...args: Array<string | number>) => string;

/** Fills `{0}`, `{1}`... without translating: the CLI and tests read English. */
export const englishText: Localize = (english, ...args) => english.replace(/\{(\d+)\}/g, (match, index: string) => (args[Number(index)] === undefined ? match : String(args[Number(index)])));

export function outcomeLabel(outcome: TurnOutcome | RequestState, localize: Localize): string {
  switch (outcome.kind) {
    case "completed":
      return localize("completed");
    case "incomplete":
      return localize("incomplete ({0})", outcome.reason ?? localize("no reason given"));
    case "failed":
      return localize("failed ({0})", outcome.code ?? localize("no code"));
    case "error_event":
      return localize("error ({0})", outcome.code ?? localize("no code"));
    case "interrupted":
      if (outcome.reason === "client_stopped") return localize("interrupted (Relay Chat stopped during this request)");
      if (outcome.reason === "size_limit") return localize("interrupted (stream size limit reached)");
      return localize("interrupted");
    case "timed_out":
      return localize("timed out");
    case "cancelled":
      return localize("cancelled");
    case "http_error":
      return outcome.code ? localize("HTTP {0} ({1})", outcome.status, outcome.code) : localize("HTTP {0}", outcome.status);
    case "network_error":
      return localize("network error ({0})", outcome.code ?? localize("no code"));
    case "in_progress":
      return localize("in progress");
    case "tool_round_limit":
      return localize("stopped after {0} tool rounds", outcome.rounds);
    case "not_finished":
      return localize("not finished (the editor stopped during this turn)");
  }
}
