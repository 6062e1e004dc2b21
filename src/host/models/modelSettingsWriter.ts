import * as vscode from "vscode";
import { withModelSettings } from "../../chat/modelSettings";
import type { ModelSettings } from "../../chat/modelSettings";

/**
 * Writes what the person confirmed for one model on one relay into User settings (relayChat.modelSettings), where
 * they can read and change it; never into a workspace. A field given as undefined is removed.
 */
export async function saveModelSettings(relay: string, model: string, changes: Partial<Record<keyof ModelSettings, unknown>>): Promise<void> {
  const config = vscode.workspace.getConfiguration("relayChat");
  const current = config.inspect<unknown>("modelSettings")?.globalValue;
  await config.update("modelSettings", withModelSettings(current, relay, model, changes), vscode.ConfigurationTarget.Global);
}
