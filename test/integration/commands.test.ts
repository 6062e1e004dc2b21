// Commands run in the real extension host against the relay emulator that the runner started
// (RELAY_CHAT_BASE_URL / RELAY_CHAT_API_KEY / RELAY_CHAT_MODEL reach the extension through the
// environment, as a user's would).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";

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
    // Reports open as untitled documents: revert them so closing never asks to save.
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
  });

  (emulatorUrl ? describe : describe.skip)("against the relay emulator", () => {
    it("the extension host reaches the emulator (harness check)", async () => {
      const response = await fetch(`${emulatorUrl}/v1/models`, { headers: { authorization: `Bearer ${emulatorKey}` } });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: { id: string }[] };
      assert.ok(body.data.some((model) => model.id === "echo"));
    });

    it("relayChat.checkConnection reports a usable relay and never shows the key", async () => {
      await vscode.commands.executeCommand("relayChat.checkConnection");
      const document = await waitFor(
        () => vscode.workspace.textDocuments.find((each) => each.getText().includes("Relay check")),
        "the connection report",
        20_000,
      );
      const report = document.getText();
      assert.match(report, /Relay check: usable/, report);
      assert.ok(report.includes(String(emulatorUrl)), `the report names the relay: ${report}`);
      assert.ok(emulatorKey && !report.includes(emulatorKey), "the report contains the API key");
    });
  });
});
