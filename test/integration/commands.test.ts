// Commands run in the real extension host against the relay emulator that the runner started
// (RELAY_CHAT_BASE_URL / RELAY_CHAT_API_KEY / RELAY_CHAT_MODEL reach the extension through the
// environment, as a user's would).
import * as assert from "node:assert/strict";
import { readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { RelayChatApi } from "../../src/extension";

const extensionId = "relay-chat.relay-chat";
const emulatorUrl = process.env.RELAY_CHAT_TEST_EMULATOR_URL;
const emulatorKey = process.env.RELAY_CHAT_TEST_EMULATOR_KEY;

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("commands", () => {
  before(async () => {
    await vscode.extensions.getExtension(extensionId)?.activate();
  });

  afterEach(async () => {
    // Close what a test opened (the report preview, documents); revert so closing never asks to save.
    for (let open = 0; open < 20 && vscode.window.activeTextEditor; open += 1) {
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("relayChat.focusChat reveals the chat view without throwing", async () => {
    await vscode.commands.executeCommand("relayChat.focusChat");
  });

  it("contributes its settings with the documented defaults", () => {
    const config = vscode.workspace.getConfiguration("relayChat");
    assert.equal(config.inspect<boolean>("stream")?.defaultValue, true);
    assert.equal(config.inspect<number>("idleTimeoutSeconds")?.defaultValue, 120);
    assert.equal(config.inspect<number>("toolRoundCap")?.defaultValue, 10);
    assert.deepEqual(config.inspect<string[]>("tools.disabled")?.defaultValue, []);
    assert.equal(config.inspect<number>("nonStreamTimeoutSeconds")?.defaultValue, 600);
    assert.equal(config.inspect<number>("maxStreamMegabytes")?.defaultValue, 64);
    assert.deepEqual(config.inspect<Record<string, string>>("extraHeaders")?.defaultValue, {});
    assert.deepEqual(config.inspect<string[]>("requestIdHeaders")?.defaultValue, ["x-oneapi-request-id", "x-service-request-id", "x-request-id"]);
  });

  (emulatorUrl ? describe : describe.skip)("against the relay emulator", () => {
    it("the extension host reaches the emulator (harness check)", async () => {
      const response = await fetch(`${emulatorUrl}/v1/models`, { headers: { authorization: `Bearer ${emulatorKey}` } });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: { id: string }[] };
      assert.ok(body.data.some((model) => model.id === "echo"));
    });

    it("relayChat.checkConnection shows a readable report: a report view of its own and a Markdown file in the extension's storage, never an untitled buffer, never the key", async () => {
      const api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
      const reportFile = path.join(api.storageFolder, "connection-check.md");
      const startedAt = Date.now();
      await vscode.commands.executeCommand("relayChat.checkConnection");
      const report = await waitFor(
        () => {
          try {
            return statSync(reportFile).mtimeMs >= startedAt - 1000 ? readFileSync(reportFile, "utf8") : undefined;
          } catch {
            return undefined;
          }
        },
        "the connection report file",
        30_000,
      );
      assert.match(report, /^# Relay check: usable/, report);
      assert.match(report, /may bill each of them/, "it says that it sends small, possibly billed requests");
      assert.match(report, /\| Function calls \| \*\*ok\*\* \|/, report);
      assert.ok(report.includes(String(emulatorUrl)), `the report names the relay: ${report}`);
      assert.ok(emulatorKey && !report.includes(emulatorKey), "the report contains the API key");
      // A webview of its own (VS Code's Markdown preview runs no command links, and the report may carry one).
      const view = await waitFor(
        () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputWebview && /relayChat\.connectionReport/.test(tab.input.viewType)),
        "the report view",
        20_000,
      );
      assert.match(view.label, /^Relay Check: /);
      const untitled = vscode.workspace.textDocuments.filter((document) => document.isUntitled && document.getText().includes("Relay check"));
      assert.deepEqual(untitled.map((document) => document.uri.toString()), [], "no unsaved Untitled buffer");
    });

    it("does not keep a preview of a connection report whose file is gone (as a reload would restore it)", async () => {
      const api = (await vscode.extensions.getExtension<RelayChatApi>(extensionId)!.activate()) as RelayChatApi;
      const reportFile = path.join(api.storageFolder, "connection-check.md");
      const previews = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType));
      await vscode.window.tabGroups.close(previews());
      rmSync(reportFile, { force: true });
      let opened = 0;
      const watching = vscode.window.tabGroups.onDidChangeTabs((event) => (opened += event.opened.filter((tab) => tab.label.includes("connection-check")).length));
      try {
        await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(reportFile));
        await waitFor(() => (opened > 0 ? true : undefined), "a preview of the missing report opened", 10_000);
        await waitFor(() => (previews().length === 0 ? true : undefined), "the orphaned preview closed", 10_000);
      } finally {
        watching.dispose();
      }
    });
  });
});
