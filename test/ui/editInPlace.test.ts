// Edit with Relay Chat as a person uses it (issue 40): lines selected in a real file, Ctrl+Alt+E, the instruction in
// the quick input, the answer streaming into the editor in place (new lines above the lines they replace), then
// Keep / Undo above each change; Escape while it streams leaves the file as it was. The receipt (tokens, cost,
// request id) is in the status bar. `#` in the quick input offers context; run again on the pending change, it takes
// a follow-up that refines it. Screenshots: test-results/ui/edit-in-place-*.png.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { uiEnvironment, waitUntil, workbenchForSuite } from "./workbench";

const controlUrl = process.env.RELAY_CHAT_UI_EMULATOR_CONTROL ?? "";
const enabled = Boolean(controlUrl) && process.env.RELAY_CHAT_UI_CHAT !== "0" && process.env.RELAY_CHAT_UI_NATIVE_CHAT !== "1";

const SOURCE = ["import x from 'x';", "", "function add(count, step) {", "  const next = count + step;", "  log(next);", "  log('step');", "  return count + next;", "}", "", "export { add };", ""].join("\n");

async function queueFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/faults`, { method: "POST", body: JSON.stringify(fault) });
  assert.equal(response.status, 200);
}

(enabled ? describe : describe.skip)("Edit in place: Edit with Relay Chat from the editor", function () {
  this.timeout(180_000);
  const file = path.join(uiEnvironment().folder, "adder.js");
  const second = path.join(uiEnvironment().folder, "subtract.js");
  const third = path.join(uiEnvironment().folder, "multiply.js");

  before(() => {
    fs.writeFileSync(file, SOURCE);
    fs.writeFileSync(second, SOURCE);
    fs.writeFileSync(third, SOURCE);
  });
  const workbench = workbenchForSuite("edit-in-place");

  before(async () => {
    // The panel's model is the one an edit uses unless relayChat.editModel names another.
    const chat = await workbench().openRelayChat();
    await chat.getByRole("combobox", { name: "Model" }).selectOption("echo");
  });

  after(() => {
    fs.rmSync(file, { force: true });
    fs.rmSync(second, { force: true });
    fs.rmSync(third, { force: true });
  });

  const page = () => workbench().page;
  // Without any whitespace: Monaco draws the spaces of selected text as dots.
  const editorLines = async () => (await page().locator(".part.editor .view-lines").innerText()).replace(/[\s\u00a0\u00b7]/g, "");

  /** Opens the file by Quick Open and selects lines 3-8 (the function) with the keyboard. */
  async function selectFunction(name = "adder.js"): Promise<void> {
    await page().locator(".part.editor").click({ position: { x: 300, y: 300 } });
    await page().keyboard.press("Control+P");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(name);
    await page().locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor();
    await input.press("Enter");
    await page().locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: 10_000 });
    await page().locator(".part.editor .view-lines").click();
    await page().keyboard.press("Control+Home");
    await page().keyboard.press("ArrowDown");
    await page().keyboard.press("ArrowDown");
    for (let line = 0; line < 6; line++) await page().keyboard.press("Shift+ArrowDown");
  }

  /** Ctrl+Alt+E, then the instruction in the quick input. */
  async function askForEdit(instruction: string): Promise<void> {
    await page().keyboard.press("Control+Alt+E");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ timeout: 10_000 });
    await page().locator(".quick-input-widget", { hasText: "lines 3-8" }).waitFor({ timeout: 10_000 });
    await input.fill(instruction);
    await input.press("Enter");
  }

  it("streams the change into the editor in place, then Keep and Undo each change; the receipt is in the status bar", async () => {
    await selectFunction();
    await queueFault({ kind: "drip", intervalMs: 120 });
    await askForEdit("rename count to total");
    // While it streams: a new line stands above the old ones, which are still there, struck through.
    await waitUntil(async () => {
      const text = await editorLines();
      return text.includes("functionadd(total,step){") && text.includes("functionadd(count,step){");
    }, "the first streamed line above the lines it replaces", 60_000);
    await workbench().screenshot("edit-in-place-01-streaming");

    const keep = page().locator(".codelens-decoration a", { hasText: "Keep" });
    await keep.first().waitFor({ timeout: 60_000 });
    await waitUntil(async () => (await keep.count()) === 2, "Keep over each of the two changes");
    await waitUntil(async () => !(await editorLines()).includes("count"), "the whole change in the editor");
    const status = page().locator(".part.statusbar", { hasText: "Edit with Relay Chat: 2 changes to review" });
    await status.waitFor({ timeout: 10_000 });
    assert.match(await status.innerText(), /echo · \d+ in · \d+ out · .* · request id req_\w+/);
    await workbench().screenshot("edit-in-place-02-review");

    await keep.first().click();
    await waitUntil(async () => (await keep.count()) === 1, "the first change kept");
    await page().locator(".codelens-decoration a", { hasText: "Undo" }).first().click();
    const kept = SOURCE.replace("function add(count, step) {\n  const next = count + step;", "function add(total, step) {\n  const next = total + step;");
    await waitUntil(() => fs.readFileSync(file, "utf8") === kept, "the kept change saved, the undone one not");
    await page().locator(".tabs-container .tab.dirty", { hasText: "adder.js" }).waitFor({ state: "detached", timeout: 10_000 });
  });

  it("Escape while the change streams leaves the file exactly as it was", async () => {
    await selectFunction("subtract.js");
    await queueFault({ kind: "drip", intervalMs: 250 });
    await askForEdit("rename count to total");
    await waitUntil(async () => (await editorLines()).includes("functionadd(total,step){"), "the first streamed line", 60_000);
    await page().keyboard.press("Escape");
    await waitUntil(async () => !(await editorLines()).includes("total"), "the streamed lines gone");
    await page().locator(".part.statusbar", { hasText: "Edit cancelled: the file is as it was." }).waitFor({ timeout: 10_000 });
    await page().locator(".tabs-container .tab.dirty", { hasText: "subtract.js" }).waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await page().locator(".codelens-decoration a", { hasText: "Keep" }).count(), 0);
    assert.equal(fs.readFileSync(second, "utf8"), SOURCE);
  });

  it("`#` in the quick input offers context to add; run again on the pending change, a follow-up refines it and Undo brings back the original", async () => {
    await selectFunction("multiply.js");
    await page().keyboard.press("Control+Alt+E");
    const input = page().locator(".quick-input-widget input");
    await page().locator(".quick-input-widget", { hasText: "lines 3-8" }).waitFor({ timeout: 10_000 });
    await input.fill("rename count to total #prob");
    await page().locator(".quick-input-list .monaco-list-row", { hasText: "#problems" }).waitFor({ timeout: 10_000 });
    await input.press("Enter");
    await waitUntil(async () => (await input.inputValue()) === "rename count to total #problems ", "the picked context's word in the instruction");
    await input.fill("rename count to total #problems #adder");
    await page().locator(".quick-input-list .monaco-list-row", { hasText: "adder.js" }).waitFor({ timeout: 10_000 });
    await workbench().screenshot("edit-in-place-03-context");
    await input.press("Enter");
    await waitUntil(async () => (await input.inputValue()) === "rename count to total #problems #adder.js ", "the picked file's word in the instruction");
    await input.press("Enter");
    const keep = page().locator(".codelens-decoration a", { hasText: "Keep" });
    await waitUntil(async () => (await keep.count()) === 2, "Keep over each of the two changes", 60_000);
    const received = (await (await fetch(`${controlUrl}/received`)).json()) as Array<{ path: string; body: { input?: Array<{ role?: string; content?: unknown }> } }>;
    const message = String(received.filter((request) => request.path === "/v1/responses").at(-1)?.body.input?.filter((item) => item.role === "user").at(-1)?.content);
    assert.match(message, /<attachment kind="problems" label="Problems in multiply\.js">/);
    assert.match(message, /<attachment kind="file" label="adder\.js">/);

    // The cursor is still in the change: the command refines it.
    await page().keyboard.press("Control+Alt+E");
    await page().locator(".quick-input-widget", { hasText: "Refine the pending change" }).waitFor({ timeout: 10_000 });
    await queueFault({ kind: "drip", intervalMs: 120 });
    await input.fill("rename total to sum");
    await input.press("Enter");
    await waitUntil(async () => {
      const text = await editorLines();
      return text.includes("functionadd(sum,step){") && !text.includes("total");
    }, "the refined change in place of the first one", 60_000);
    // The run has ended (the review was held while the follow-up streamed): its receipt is in the status bar.
    await page().locator(".part.statusbar", { hasText: "Edit with Relay Chat: 2 changes to review" }).waitFor({ timeout: 30_000 });
    await waitUntil(async () => (await keep.count()) === 2, "Keep over each refined change", 30_000);
    await workbench().screenshot("edit-in-place-04-refined");
    const undo = page().locator(".codelens-decoration a", { hasText: "Undo" });
    await undo.first().click();
    await waitUntil(async () => (await undo.count()) === 1, "the first change undone");
    await undo.first().click();
    await waitUntil(() => fs.readFileSync(third, "utf8") === SOURCE && !fs.readFileSync(third, "utf8").includes("total"), "the original back");
    await waitUntil(async () => (await editorLines()).includes("functionadd(count,step){"), "the original in the editor");
  });
});
