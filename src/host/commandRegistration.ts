import * as vscode from "vscode";

// A command can be what activates the extension: it runs once the relay settings and key were read, so no
// command sees the connection half-built.

export type RegisterCommand = (id: string, handler: () => unknown) => vscode.Disposable;

export function commandsAfter(ready: Promise<unknown>): RegisterCommand {
  return (id, handler) =>
    vscode.commands.registerCommand(id, async () => {
      await ready;
      return handler();
    });
}
