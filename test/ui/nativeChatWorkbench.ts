// VS Code's OWN chat, driven as a person drives it, in whatever state the workbench is in: the model picker
// may open before the models have arrived (then it lists only "Auto"), may hold the relay's models under a
// collapsed "Other Models" section, and may close when something else takes the focus (a walkthrough opening
// 10-15 s after load). So every step checks that it reached what it wanted and tries again if not, within a
// bound, and `closeOverlays` closes whatever was left open, so one failure does not block the next test's
// clicks ("context-view-block intercepts pointer events").
import type { Locator, Page } from "playwright-core";
import type { Workbench } from "./workbench";

export class NativeChat {
  constructor(private readonly workbench: () => Workbench) {}

  private get page(): Page {
    return this.workbench().page;
  }

  /** The chat's model picker button, which shows the current model's name. */
  pickerButton(): Locator {
    return this.page.locator(".interactive-input-part .model-picker-split").first();
  }

  private input(): Locator {
    return this.page.locator(".interactive-input-part .monaco-editor").first();
  }

  /** The open picker's rows (models, separators, section toggles such as "Other Models"). */
  private rows(): Locator {
    return this.page.locator(".context-view .action-widget .monaco-list-row");
  }

  /** Opens the chat view and waits for its picker, reopening the view if something closed it meanwhile. */
  async open(): Promise<void> {
    await retry("VS Code's chat to open with its model picker", 90_000, async () => {
      if (!(await this.pickerButton().isVisible())) await this.workbench().runCommand("Chat: Open Chat");
      await this.pickerButton().waitFor({ timeout: 15_000 });
    });
  }

  /**
   * Opens the picker with every section expanded and returns its rows as "name description" lines, once it lists
   * `expected` (the models may arrive after the picker first opens: then it is closed and opened again). Leaves
   * the picker open.
   */
  async listModels(expected: string): Promise<string[]> {
    return retry(`the model picker to list ${expected}`, 90_000, async () => {
      await this.openPicker();
      await this.expandSections();
      const listed = await this.rows().evaluateAll((rows) => rows.map((row) => row.getAttribute("aria-label") ?? row.textContent ?? ""));
      if (!(await this.modelRow(expected).isVisible())) {
        await this.closeOverlays();
        throw new Error(`the picker lists ${JSON.stringify(listed)}`);
      }
      return listed;
    });
  }

  /** Picks `model` in the picker (wherever it is listed) and waits until the chat shows it as its model. */
  async pickModel(model: string): Promise<void> {
    await retry(`${model} to become the chat's model`, 90_000, async () => {
      if (new RegExp(`\\b${model}\\b`).test(await this.pickerButton().innerText())) return;
      await this.listModels(model);
      await this.modelRow(model).click({ timeout: 5_000 });
      await waitFor(async () => new RegExp(`\\b${model}\\b`).test(await this.pickerButton().innerText()), 10_000);
    });
    await this.closeOverlays();
  }

  /**
   * Types a message into the chat's input and sends it. If the focus went elsewhere while typing, clicks the input
   * again; Enter is pressed again only while the message is still in the input (the chat empties it once it took
   * the message), so a message is never sent twice.
   */
  async send(text: string): Promise<void> {
    await this.closeOverlays();
    await retry("the message to be typed into the chat's input", 60_000, async () => {
      await this.input().click({ timeout: 10_000 });
      await this.page.keyboard.press("Control+A");
      await this.page.keyboard.press("Delete");
      await this.page.keyboard.type(text);
      if (!(await this.inputText()).includes(text)) throw new Error(`the input holds ${JSON.stringify(await this.inputText())}`);
    });
    for (let attempt = 1; ; attempt += 1) {
      await this.page.keyboard.press("Enter");
      try {
        await waitFor(async () => !(await this.inputText()).includes(text), 15_000);
        return;
      } catch (error) {
        if (attempt === 3) throw new Error(`the chat did not take the message: ${String(error)}`);
        await this.input().click({ timeout: 10_000 });
        await this.page.keyboard.press("Control+End");
      }
    }
  }

  /** Closes the model picker, or any other context view or quick input left open, with Escape as a person would. */
  async closeOverlays(): Promise<void> {
    const open = this.page.locator(".context-view-block, .context-view .action-widget, .quick-input-widget:visible");
    for (let attempt = 0; attempt < 5 && (await open.count()) > 0 && (await open.first().isVisible()); attempt += 1) {
      await this.page.keyboard.press("Escape");
      await open.first().waitFor({ state: "hidden", timeout: 2_000 }).catch(() => undefined);
    }
  }

  private async openPicker(): Promise<void> {
    if (await this.rows().first().isVisible()) return;
    await this.closeOverlays();
    await this.pickerButton().click({ timeout: 10_000 });
    await this.rows().first().waitFor({ timeout: 10_000 });
  }

  /** Expands every collapsed section of the open picker ("Other Models"). */
  private async expandSections(): Promise<void> {
    const collapsed = this.page.locator('.context-view .action-widget .monaco-list-row[aria-expanded="false"]');
    for (let expanded = 0; expanded < 5 && (await collapsed.count()) > 0; expanded += 1) {
      const before = await collapsed.count();
      // The title, not the row's middle: the row also holds a gear button (Manage Language Models).
      await collapsed.first().locator(".title").click({ timeout: 5_000 });
      await waitFor(async () => (await collapsed.count()) < before, 5_000);
    }
  }

  private modelRow(model: string): Locator {
    return this.rows().filter({ has: this.page.locator(".title", { hasText: new RegExp(`^${model}$`) }) }).first();
  }

  private async inputText(): Promise<string> {
    return (await this.input().locator(".view-lines").innerText()).replace(/\u00a0/g, " ");
  }
}

/** Runs `attempt` until it succeeds, for at most `timeoutMs`; the last error says what was seen. */
async function retry<T>(what: string, timeoutMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${error instanceof Error ? error.message : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
