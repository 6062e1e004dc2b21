// VS Code's own inline chat (Ctrl+I in the editor) with the relay's models (issue 40, item 5), in the native-chat run
// (scripts/vscode/runUiTests.mjs --native-chat): whether its model picker offers the models Relay Chat registers,
// and whether a request from it reaches the relay. Screenshot: test-results/ui-native-chat/native-inline-chat-*.png.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { uiEnvironment, waitUntil, workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";
const enabled = process.env.RELAY_CHAT_UI_NATIVE_CHAT === "1" && Boolean(controlUrl);

(enabled ? describe : describe.skip)("VS Code's own inline chat with the relay's models", function () {
  this.timeout(240_000);
  const file = path.join(uiEnvironment().folder, "inline.js");
  before(() => fs.writeFileSync(file, "function add(count, step) {\n  return count + step;\n}\n"));
  const workbench = workbenchForSuite("native-inline-chat");
  after(() => fs.rmSync(file, { force: true }));

  it("offers the relay's models in the inline chat's model picker", async () => {
    const page = workbench().page;
    // The native-chat run starts as a fresh install does: Relay Chat's walkthrough opens by itself a little after load.
    await page.locator(".tabs-container .tab", { hasText: "Welcome" }).waitFor({ timeout: 30_000 }).catch(() => undefined);
    await workbench().runCommand("View: Close All Editors");
    await page.locator(".part.editor").click({ position: { x: 300, y: 300 } });
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill("inline.js");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "inline.js" }).first().waitFor();
    await input.press("Enter");
    await page.locator(".part.editor .view-lines").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Control+I");
    await page.locator(".inline-chat-widget").first().waitFor({ timeout: 60_000 });
    const picker = page.locator(".inline-chat .model-picker-split").first();
    await picker.waitFor({ timeout: 30_000 });
    await picker.click();
    const rows = page.locator(".context-view .action-widget .monaco-list-row");
    await rows.first().waitFor({ timeout: 10_000 });
    // The current model is listed first, the others under a collapsed "Other Models" section a person opens.
    const collapsed = page.locator('.context-view .action-widget .monaco-list-row[aria-expanded="false"]');
    if ((await collapsed.count()) > 0) await collapsed.first().locator(".title").click();
    await waitUntil(async () => (await collapsed.count()) === 0, "Other Models expanded", 10_000);
    const listed = (await rows.evaluateAll((each) => each.map((row) => row.getAttribute("aria-label") ?? row.textContent ?? ""))).join(" | ");
    const relayHost = new URL(uiEnvironment().relayBaseUrl).host;
    for (const model of ["demo", "echo", "tools"]) assert.ok(new RegExp(`\\b${model}, ${relayHost}`).test(listed), `${model} from the relay in the inline chat's picker: ${listed}`);
    await workbench().screenshot("native-inline-chat-01-model-picker");
    await page.keyboard.press("Escape");

    // A request from the inline chat goes to the relay (and so into Relay Chat's request log, as VS Code chat).
    const posts = async () => ((await (await fetch(`${controlUrl}/received`)).json()) as Array<{ method: string; path: string }>).filter((request) => request.method === "POST" && request.path === "/v1/responses").length;
    const before = await posts();
    await page.locator(".inline-chat .interactive-input-part .monaco-editor").first().click();
    await page.keyboard.type("rename count to total");
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await posts()) > before, "a request from the inline chat at the relay", 90_000);
    await page.waitForTimeout(5_000);
    await workbench().screenshot("native-inline-chat-02-answer");
  });
});
