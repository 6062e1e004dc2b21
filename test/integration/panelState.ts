// Helpers for in-host tests that drive the real extension through its API (the webview's own messages)
// and read the state the webview renders.
import { isDeepStrictEqual } from "node:util";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";
import type { PanelState, TurnView } from "../../src/panel/protocol";

export const extensionId = "relay-chat.relay-chat";

export async function activateRelayChat(): Promise<RelayChatApi> {
  const api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
  await vscode.commands.executeCommand("relayChat.focusChat");
  return api;
}

export async function waitForState(api: RelayChatApi, test: (state: PanelState) => boolean, what: string, timeoutMs = 20_000): Promise<PanelState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = api.state();
    if (test(state)) return state;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify(state).slice(0, 1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const lastTurn = (state: PanelState): TurnView | undefined => state.turns[state.turns.length - 1];
export const settled = (state: PanelState): boolean => !state.busy && lastTurn(state) !== undefined && lastTurn(state)!.outcome !== "in_progress";

/** Starts a new chat with the given model and waits until the panel shows it empty. */
export async function newChatWith(api: RelayChatApi, model: string): Promise<void> {
  api.handle({ type: "selectModel", model });
  api.handle({ type: "newChat" });
  await waitForState(api, (state) => state.turns.length === 0 && !state.busy && state.model === model, `a new chat with ${model}`);
}

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Accepts the first item of the quick pick that `shown` (a command's promise) opens, once it is open: accepting
 * before it shows does nothing, so this accepts again until the command settles, for at most `timeoutMs`,
 * instead of guessing when the picker is there (later on a loaded machine).
 */
export async function acceptQuickPickOf(shown: Thenable<unknown>, what: string, timeoutMs = 20_000): Promise<void> {
  let settledCommand = false;
  const done = Promise.resolve(shown).finally(() => (settledCommand = true));
  const deadline = Date.now() + timeoutMs;
  while (!settledCommand) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} to open and take its first item`);
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  await done;
}

async function modelListsReceived(): Promise<number> {
  const received = (await (await fetch(`${process.env.RELAY_CHAT_TEST_EMULATOR_CONTROL}/received`)).json()) as Array<{ method: string; path: string }>;
  return received.filter((request) => request.method === "GET" && request.path === "/v1/models").length;
}

/**
 * Sets one relayChat setting in the User settings and waits until the extension has read it: its connection
 * refresh ends by listing the relay's models again, a GET /v1/models the emulator records. (A fixed pause guessed
 * at this; on a loaded machine the refresh can take longer.) Setting the value it already has changes nothing.
 */
export async function setRelaySetting(key: string, value: unknown, timeoutMs = 20_000): Promise<void> {
  const config = vscode.workspace.getConfiguration("relayChat");
  if (isDeepStrictEqual(config.inspect(key)?.globalValue, value)) return;
  const before = await modelListsReceived();
  await config.update(key, value, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + timeoutMs;
  while ((await modelListsReceived()) <= before) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for the extension to read relayChat.${key}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
