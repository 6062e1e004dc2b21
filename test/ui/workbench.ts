// Opens the code-server workbench that scripts/vscode/runUiTests.mjs started, in headless Debian
// Chromium, and gives tests the handles a person would use: the activity bar, the chat webview,
// the notification center, and screenshots saved to test-results/ui/.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium } from "playwright-core";
import type { BrowserContext, FrameLocator, Locator, Page } from "playwright-core";
import chromiumLaunch from "../support/chromiumLaunch.json";

export interface UiEnvironment {
  /** code-server's address, for example http://127.0.0.1:PORT/ */
  url: string;
  /** the folder the workbench opens */
  folder: string;
  /** the relay emulator (the extension gets it through RELAY_CHAT_BASE_URL) */
  relayBaseUrl: string;
  /** where screenshots go */
  resultsDir: string;
}

export function uiEnvironment(): UiEnvironment {
  const url = process.env.RELAY_CHAT_UI_URL;
  const folder = process.env.RELAY_CHAT_UI_FOLDER;
  if (!url || !folder) {
    throw new Error("UI tests run under scripts/vscode/runUiTests.mjs, which starts code-server and sets RELAY_CHAT_UI_URL/RELAY_CHAT_UI_FOLDER");
  }
  return {
    url,
    folder,
    relayBaseUrl: process.env.RELAY_CHAT_UI_RELAY_URL ?? "",
    resultsDir: process.env.RELAY_CHAT_UI_RESULTS ?? path.resolve(__dirname, "..", "..", "test-results", "ui"),
  };
}


/**
 * A suite's workbench: opened before its tests, a failed test's screen saved as
 * failed-<prefix>-<test title>.png, closed after them. Called inside a describe: its hooks run in the
 * order of registration among the suite's own, so a `before` registered earlier runs before the workbench
 * opens, and `after` hooks registered later run once it is closed. `beforeClose` runs while it is still
 * open, for undoing what the suite changed in the shared profile.
 */
export function workbenchForSuite(prefix: string, options: { beforeClose?: (workbench: Workbench) => Promise<void> } = {}): () => Workbench {
  let workbench: Workbench | undefined;
  before(async () => {
    workbench = await Workbench.open();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed" && workbench) {
      const safeName = (this.currentTest.title || "failure").replace(/[^a-z0-9]+/gi, "-").toLowerCase();
      await workbench.screenshot(`failed-${prefix}-${safeName}`).catch(() => undefined);
    }
  });
  after(async () => {
    if (workbench === undefined) return;
    try {
      await options.beforeClose?.(workbench);
    } finally {
      await workbench.close();
    }
  });
  return () => {
    if (workbench === undefined) throw new Error("the workbench opens in a before hook of the suite");
    return workbench;
  };
}

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly profile: string,
    private readonly environment: UiEnvironment,
  ) {}

  static async open(environment = uiEnvironment()): Promise<Workbench> {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "relay-chat-ui-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath,
      headless: !process.env.RELAY_CHAT_HEADED,
      args: chromiumLaunch.args,
      viewport: { width: 1400, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const address = new URL(environment.url);
    address.searchParams.set("folder", environment.folder);
    // The page's first load is the slowest step on a loaded machine (CI's 2 cores); the workbench check below
    // is what the tests rely on, so loading gets as long as it does.
    await page.goto(address.toString(), { timeout: 120_000 });
    await page.locator(".monaco-workbench").waitFor({ timeout: 120_000 });
    return new Workbench(page, context, profile, environment);
  }

  /** The activity-bar entry of a view container, by its title. */
  activityBarEntry(title: string): Locator {
    return this.page.locator(`.activitybar .action-label[aria-label^="${title}"]`);
  }

  /** Opens the Relay Chat view from the activity bar and waits for its message box (named `messageLabel`). */
  async openRelayChat(messageLabel = "Message"): Promise<FrameLocator> {
    await this.activityBarEntry("Relay Chat").click({ timeout: 120_000 });
    const chat = this.webview();
    await chat.getByRole("textbox", { name: messageLabel }).waitFor({ timeout: 60_000 });
    return chat;
  }

  /** An action in the side bar's title (the view's New Chat, History, ...), by the start of its label. */
  viewAction(label: string): Locator {
    return this.page.locator(`.part.sidebar .title-actions .action-label[aria-label^="${label}"]`);
  }

  /**
   * Clicks the view's New Chat and waits until the extension has handled it: it gives the message box
   * the focus last, so a message typed before that would be cleared by the new chat.
   */
  async newChat(labels: { newChat: string; message: string } = { newChat: "New Chat", message: "Message" }): Promise<void> {
    const message = this.webview().getByRole("textbox", { name: labels.message });
    // Only the extension's answer to New Chat may give the box the focus: if it already had it (clicking the
    // view's action does not always take it), the wait below would end before New Chat was handled, and a
    // message sent then would be stopped and cleared by the new chat arriving later on a loaded machine.
    await message.evaluate((box) => box.blur());
    await this.viewAction(labels.newChat).click();
    const deadline = Date.now() + 30_000;
    while (!(await message.evaluate((box) => document.hasFocus() && document.activeElement === box))) {
      if (Date.now() > deadline) throw new Error("the message box did not get the focus after New Chat");
      await this.page.waitForTimeout(50);
    }
  }

  /** Drags the side bar's edge until the chat view is `width` px wide, as a person would. */
  async setSidebarWidth(width: number): Promise<void> {
    const sidebar = this.page.locator(".part.sidebar");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const box = await sidebar.boundingBox();
      if (!box) throw new Error("no side bar");
      if (Math.abs(box.width - width) <= 1) return;
      // The sash is the vertical splitter whose middle is the side bar's right edge.
      const edge = box.x + box.width;
      const sashes = await this.page.locator(".monaco-sash.vertical").evaluateAll((nodes) =>
        nodes.map((node) => {
          const rect = node.getBoundingClientRect();
          return { x: rect.x + rect.width / 2, width: rect.width, height: rect.height };
        }),
      );
      const sash = sashes.filter((candidate) => candidate.height > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
      const x = sash ? sash.x : edge;
      const y = box.y + box.height / 2;
      await this.page.mouse.move(x, y);
      await this.page.mouse.down();
      await this.page.mouse.move(x + (width - box.width) / 2, y, { steps: 4 });
      await this.page.mouse.move(x + (width - box.width), y, { steps: 4 });
      await this.page.mouse.up();
      await this.page.waitForTimeout(300);
    }
  }

  /** The document inside a webview view: VS Code nests it in two iframes. */
  webview(): FrameLocator {
    // Relay Chat's own view: the walkthrough's step media and the check-up's report view are webviews too.
    return this.page.frameLocator('iframe.webview.ready[src*="extensionId=relay-chat.relay-chat"][src*="purpose=webviewView"]').frameLocator("#active-frame");
  }

  /** The document inside Relay Chat's webview editor tab (the check-up's report view). */
  editorWebview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready[src*="extensionId=relay-chat.relay-chat"]:not([src*="purpose="])').frameLocator("#active-frame");
  }

  /** Answers the open quick input (input box or password box) with `text` and Enter. */
  async answerInput(text: string): Promise<void> {
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(text);
    await input.press("Enter");
  }

  /** Reloads the window, as "Developer: Reload Window" does: a new extension host, the same profile. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  }

  /** Runs a command through the command palette, as a person would. */
  async runCommand(title: string): Promise<void> {
    // Keys pressed while a webview has focus do not reach the workbench: focus the editor area first.
    // The palette closes when something takes focus as it opens (a view that just asked for its message
    // box's focus): then it is opened again, as a person would.
    const input = this.page.locator(".quick-input-widget input");
    for (let attempt = 1; ; attempt += 1) {
      await this.focusWorkbench();
      await this.page.keyboard.press("F1");
      try {
        await input.waitFor({ timeout: 10_000 });
        await input.fill(`>${title}`, { timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await this.page.locator(".quick-input-list .monaco-list-row").first().waitFor();
    // The first row need not be the command typed (after a reload a VS Code chat command came first, and Enter
    // opened VS Code's own chat setup): the row that names the command is picked, as a person reads before
    // pressing Enter; a title that names none (a part of one) takes the first row.
    const rows = this.page.locator(".quick-input-list .monaco-list-row");
    const found = await rows.filter({ hasText: title }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
    const focusedIsNamed = async () => ((await rows.and(this.page.locator(".focused")).first().textContent({ timeout: 2_000 }).catch(() => "")) ?? "").toLowerCase().includes(title.toLowerCase());
    for (let step = 0; found && step < 10 && !(await focusedIsNamed()); step += 1) await input.press("ArrowDown");
    await input.press("Enter");
  }

  private async focusWorkbench(): Promise<void> {
    await this.page.locator(".part.editor").click({ position: { x: 200, y: 200 } });
  }

  /** Switches the color theme with the theme picker (Ctrl+K Ctrl+T), as a person would. */
  async setColorTheme(label: string): Promise<void> {
    await this.focusWorkbench();
    await this.page.keyboard.press("Control+K");
    await this.page.keyboard.press("Control+T");
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(label);
    await this.page.locator(".quick-input-list .monaco-list-row", { hasText: label }).first().waitFor();
    await input.press("Enter");
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** Notification messages. With the smoke-test driver toasts are hidden: read the Notification Center. */
  async notificationMessages(): Promise<string[]> {
    const center = this.page.locator(".notifications-center");
    if (!(await center.isVisible())) await this.page.locator('[id="status.notifications"]').click();
    return this.page.locator(".notifications-center .notification-list-item-message").allInnerTexts();
  }

  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(this.environment.resultsDir, { recursive: true });
    // Park the pointer so no hover tooltip covers what the screenshot is for.
    await this.page.mouse.move(900, 600);
    const file = path.join(this.environment.resultsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** A screenshot of the activity bar and the side bar only: the panel as a person sees it. */
  async panelScreenshot(name: string): Promise<string> {
    fs.mkdirSync(this.environment.resultsDir, { recursive: true });
    await this.page.mouse.move(900, 600);
    const box = await this.page.locator(".part.sidebar").boundingBox();
    const file = path.join(this.environment.resultsDir, `${name}.png`);
    const viewport = this.page.viewportSize() ?? { width: 1400, height: 900 };
    await this.page.screenshot({ path: file, clip: { x: 0, y: 0, width: box ? Math.min(viewport.width, box.x + box.width + 4) : viewport.width, height: viewport.height } });
    return file;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

/** Polls `condition` until it holds, for what the workbench or the disk shows a moment later. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
