import * as vscode from "vscode";

// Relay Chat: Select Model, the palette's way to the panel's model picker.

/** The listed models, and whatever is typed as a model id of its own (a relay may serve unlisted ids). */
export function pickModel(models: readonly string[], current: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick();
    pick.placeholder = vscode.l10n.t("Pick a model, or type a model ID (a listed model may still lack a feature)");
    const listed = models.map((model) => ({ label: model, description: model === current ? vscode.l10n.t("current") : undefined }));
    pick.items = listed;
    pick.onDidChangeValue((value) => {
      const typed = value.trim();
      pick.items = typed && !models.includes(typed) ? [{ label: typed, description: vscode.l10n.t("use this model ID") }, ...listed] : listed;
    });
    let chosen: string | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.label ?? (pick.value.trim() || undefined);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}
