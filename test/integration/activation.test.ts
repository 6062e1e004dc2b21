// The extension as VS Code loads it: present, activates, and registers its commands.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";

const extensionId = "relay-chat.relay-chat";

const declaredCommands = [
  "relayChat.focusChat",
  "relayChat.newChat",
  "relayChat.selectModel",
  "relayChat.setApiKey",
  "relayChat.clearApiKey",
  "relayChat.checkConnection",
  "relayChat.exportConversation",
  "relayChat.exportRequestLog",
  "relayChat.askAboutSelection",
];

describe("activation", () => {
  it("is installed under its published id", () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} not found among ${vscode.extensions.all.map((each) => each.id).join(", ")}`);
  });

  it("activates without throwing", async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it("registers relayChat.focusChat", async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes("relayChat.focusChat"), "relayChat.focusChat is not registered");
  });

  it("registers every command the manifest declares", async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    const manifestCommands: string[] = (extension.packageJSON.contributes?.commands ?? []).map(
      (command: { command: string }) => command.command,
    );
    const commands = new Set(await vscode.commands.getCommands(true));
    const expected = [...new Set([...declaredCommands, ...manifestCommands])];
    const missing = expected.filter((command) => !commands.has(command));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(", ")}`);
  });
});
