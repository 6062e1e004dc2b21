import * as vscode from "vscode";
import type { LedgerRow, RequestLedger } from "../chat/requestLedger";
import { tokenCount } from "../relay/usage";
import { requestLogIcon } from "./requestLogIcon";

// "Relay Chat: Show Request Log": the newest ledger rows, from the panel and from VS Code's chat alike,
// each with its outcome, tokens, latency and request id. Picking a row copies its request id, the key
// to the relay console's usage log.

const ROWS_SHOWN = 200;

interface RowItem extends vscode.QuickPickItem {
  row: LedgerRow;
}

export async function showRequestLog(ledger: RequestLedger): Promise<void> {
  const rows = (await ledger.rows()).slice(-ROWS_SHOWN).reverse();
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("The request log is empty: no request has been sent yet."));
    return;
  }
  const picked = await vscode.window.showQuickPick(rows.map(rowItem), {
    title: vscode.l10n.t("Relay Chat request log (newest first, {0} shown)", rows.length),
    placeHolder: vscode.l10n.t("Pick a request to copy its request id"),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return;
  if (!picked.row.requestId) {
    void vscode.window.showWarningMessage(vscode.l10n.t("This request has no request id: the relay sent none."));
    return;
  }
  await vscode.env.clipboard.writeText(picked.row.requestId);
  void vscode.window.showInformationMessage(vscode.l10n.t("Request id {0} copied.", picked.row.requestId));
}

export function rowItem(row: LedgerRow): RowItem {
  // Rows written before usage was checked (usage.ts) may hold figures that cannot be believed: unknown here too.
  const input = tokenCount(row.inputTokens);
  const output = tokenCount(row.outputTokens);
  const tokens = input === null && output === null ? vscode.l10n.t("no usage reported") : vscode.l10n.t("{0} in / {1} out tokens", input ?? "?", output ?? "?");
  return {
    row,
    label: `${requestLogIcon(row.outcome)} ${purposeLabel(row.purpose)} · ${row.model}`,
    description: `${row.outcome}${row.httpStatus !== null && row.httpStatus !== 200 ? ` · HTTP ${row.httpStatus}` : ""} · ${tokens} · ${(row.totalMs / 1000).toFixed(1)} s`,
    detail: `${new Date(row.time).toLocaleString()} · ${vscode.l10n.t("request id")} ${row.requestId ?? vscode.l10n.t("none")}`,
  };
}

export function purposeLabel(purpose: LedgerRow["purpose"]): string {
  switch (purpose) {
    case "send":
      return vscode.l10n.t("Panel: message");
    case "tool_follow_up":
      return vscode.l10n.t("Panel: after tool calls");
    case "continue":
      return vscode.l10n.t("Panel: continue");
    case "retry_larger":
      return vscode.l10n.t("Panel: retry with a larger budget");
    case "summarize":
      return vscode.l10n.t("Panel: summary of earlier turns");
    case "vscode_chat":
      return vscode.l10n.t("VS Code chat");
    case "edit_in_place":
      return vscode.l10n.t("Edit in place");
    default: {
      // Rows written by a newer version may carry purposes this one does not know.
      const unknown: never = purpose;
      return String(unknown);
    }
  }
}
