import * as vscode from "vscode";
import type { SessionAllowances } from "../tools/approvalPolicy";

// "Relay Chat: Session Approvals...": the tools the user let run without asking for this session, in a quick
// pick; picking one revokes it (its next call shows the approval card again), "Revoke All" revokes every one.

interface RevokeItem extends vscode.QuickPickItem {
  revoke?: () => void;
}

export async function showSessionApprovals(allowances: SessionAllowances): Promise<void> {
  const names = allowances.names();
  if (names.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No tool is allowed for this session. "Allow for this session" on the approval card of a read-only tool lets it run without asking until the window closes.'),
    );
    return;
  }
  const items: RevokeItem[] = [
    ...names.map((name) => ({ label: `$(tools) ${name}`, description: vscode.l10n.t("runs without asking"), revoke: () => allowances.revoke(name) })),
    { label: "", kind: vscode.QuickPickItemKind.Separator },
    { label: `$(close-all) ${vscode.l10n.t("Revoke All")}`, revoke: () => allowances.clear() },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Tools allowed for this session"),
    placeHolder: vscode.l10n.t("Pick a tool to be asked again before each of its calls"),
  });
  picked?.revoke?.();
}
