import { existsSync } from "node:fs";
import * as vscode from "vscode";

// VS Code restores an open Markdown preview after a reload. When the connection report it shows is gone
// (the extension's storage was cleared, the workspace moved), the restored tab would only show an error:
// such a tab is closed as soon as it appears, at startup or later.

/** Closes previews of `reportFile` while that file does not exist; the returned disposable stops watching. */
export function closeOrphanedReportPreviews(reportFile: string): vscode.Disposable {
  const fileName = reportFile.split(/[\\/]/).pop() ?? reportFile;
  const closeOrphans = () => {
    if (existsSync(reportFile)) return;
    const orphans = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType) && tab.label.includes(fileName));
    if (orphans.length > 0) void vscode.window.tabGroups.close(orphans);
  };
  closeOrphans();
  return vscode.window.tabGroups.onDidChangeTabs((event) => {
    if (event.opened.length > 0 || event.changed.length > 0) closeOrphans();
  });
}
