import * as vscode from "vscode";
import type { SessionAllowances } from "../../tools/approvalPolicy";
import type { ReadOnlyDefaultStore } from "./toolSetup";

// "Relay Chat: Session Approvals...": the tools the user let run without asking for this session, in a quick
// pick; picking one revokes it (its next call shows the approval card again), "Revoke All" revokes every one.

interface RevokeItem extends vscode.QuickPickItem {
  revoke?: () => void;
}

export async function showSessionApprovals(allowances: SessionAllowances, readOnlyDefault?: ReadOnlyDefaultStore): Promise<void> {
  const names = allowances.names();
  const readOnlyAlways = readOnlyDefault?.get() === "always";
  if (names.length === 0 && !readOnlyAlways) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No tool is allowed for this session. "Allow for this session" on the approval card of a read-only tool lets it run without asking until the window closes.'),
    );
    return;
  }
  const items: RevokeItem[] = [
    ...names.map((name) => ({ label: `$(tools) ${name}`, description: vscode.l10n.t("runs without asking"), revoke: () => allowances.revoke(name) })),
    // Not only for this session: the first-use answer is remembered until it is taken back here.
    ...(readOnlyAlways
      ? [{ label: `$(eye) ${vscode.l10n.t("All read-only tools")}`, description: vscode.l10n.t("run without asking (your first-use choice, kept across sessions)"), revoke: () => readOnlyDefault?.set("ask") }]
      : []),
    { label: "", kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(close-all) ${vscode.l10n.t("Revoke All")}`,
      revoke: () => {
        allowances.clear();
        if (readOnlyAlways) readOnlyDefault?.set("ask");
      },
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Tools allowed for this session"),
    placeHolder: vscode.l10n.t("Pick a tool to be asked again before each of its calls"),
  });
  picked?.revoke?.();
}
