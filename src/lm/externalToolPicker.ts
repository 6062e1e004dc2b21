import * as vscode from "vscode";
import { ALLOW_FOR_SESSION_SETTING, ENABLED_SETTING } from "./externalTools";

// "Relay Chat: Choose Tools from Other Extensions": which of VS Code's tools (vscode.lm.tools: other
// extensions', started MCP servers') the panel's model may be offered. Writes relayChat.externalTools.enabled
// in the user settings; nothing is offered until the user picks it here or in the settings.

interface ToolItem extends vscode.QuickPickItem {
  toolName: string;
}

export async function chooseExternalTools(): Promise<void> {
  const config = vscode.workspace.getConfiguration("relayChat");
  const enabled = new Set(config.get<string[]>(ENABLED_SETTING, []));
  const optedIn = new Set(config.get<string[]>(ALLOW_FOR_SESSION_SETTING, []));
  const tools = [...vscode.lm.tools].sort((a, b) => a.name.localeCompare(b.name));
  if (tools.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t("No extension or MCP server offers a tool right now. An MCP server's tools appear once the server has started."),
    );
    return;
  }
  const items: ToolItem[] = tools.map((tool) => ({
    toolName: tool.name,
    label: tool.name,
    description: optedIn.has(tool.name) ? vscode.l10n.t("may be allowed for the session") : tool.tags.join(", "),
    detail: tool.description,
    picked: enabled.has(tool.name),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    title: vscode.l10n.t("Tools from other extensions and MCP servers for Relay Chat's model"),
    placeHolder: vscode.workspace.isTrusted
      ? vscode.l10n.t("Every call shows the approval card first; none is offered unless picked here")
      : vscode.l10n.t("This workspace is not trusted: picked tools are offered only once you trust it"),
  });
  if (!picked) return;
  // Names picked earlier whose tool is not running now (an MCP server not started) stay chosen.
  const available = new Set(tools.map((tool) => tool.name));
  const chosen = [...[...enabled].filter((name) => !available.has(name)), ...picked.map((item) => item.toolName)];
  await config.update(ENABLED_SETTING, chosen, vscode.ConfigurationTarget.Global);
}
