import * as vscode from "vscode";

// A command can be what activates the extension: it runs once the relay settings and key were read, so no
// command sees the connection half-built.

/** `argument`: what a caller passed (a fix button, a command link); untrusted, each handler checks it. */
export type RegisterCommand = (id: string, handler: (argument?: unknown) => unknown) => vscode.Disposable;

export function commandsAfter(ready: Promise<unknown>): RegisterCommand {
  return (id, handler) =>
    vscode.commands.registerCommand(id, async (argument?: unknown) => {
      await ready;
      return handler(argument);
    });
}
