// `npm run demo -- --screenshot`: the demo checks itself in headless Chromium, as a person would try it, and
// exits. Each step waits for what a person would see (an answer's receipt, the Source Control box, the offer to
// switch to Chat Completions, a thinking model's reasoning and its tool call's answer) and saves a screenshot of
// the workbench to test-results/demo*.png; a step that fails saves what the page showed instead.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromiumArgs, chromiumPath, repoRoot, resultsDir } from "./vscode/paths.mjs";

/** How long a step may take: generous, as the machine may be busy with tests beside the demo. */
const STEP_TIMEOUT_MS = 120_000;
/** The first step also waits for the extension host and the chat view to start. */
const FIRST_STEP_TIMEOUT_MS = 240_000;

/** The panel's words in the demo's display language (the English text itself without a locale). */
function panelTextIn(locale) {
  if (!locale) return (english) => english;
  const bundle = JSON.parse(readFileSync(path.join(repoRoot, "l10n", `bundle.l10n.${locale}.json`), "utf8"));
  return (english) => bundle[english] ?? english;
}

/** A manifest string (package.nls.json) in the demo's display language. */
function manifestText(locale, key) {
  const strings = JSON.parse(readFileSync(path.join(repoRoot, locale ? `package.nls.${locale}.json` : "package.nls.json"), "utf8"));
  return strings[key];
}

/**
 * Opens the workbench in headless Chromium and runs `check({ page, view, screenshot })` on it (view: the chat
 * view's document; screenshot(name) saves test-results/<name>.png).
 */
async function withWorkbench(url, folder, failureName, check) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    // A loaded machine (the tests beside it) can take longer than playwright's 30 s default to serve the workbench.
    await page.goto(`${url}?folder=${encodeURIComponent(folder)}`, { timeout: 120_000 });
    // The walkthrough's step media are webviews too: the chat view is the one from this extension.
    const view = page.frameLocator('iframe.webview.ready[src*="extensionId=relay-chat.relay-chat"]').frameLocator("#active-frame");
    const screenshot = async (name) => {
      // The pointer leaves the activity bar, so no tooltip covers the panel in the picture.
      await page.mouse.move(850, 450);
      await page.locator(".workbench-hover-container, .monaco-hover").first().waitFor({ state: "hidden", timeout: 5_000 }).catch(() => undefined);
      mkdirSync(resultsDir, { recursive: true });
      const file = path.join(resultsDir, `${name}.png`);
      await page.screenshot({ path: file });
      console.log(`Screenshot: ${path.relative(repoRoot, file)}`);
    };
    try {
      await check({ page, view, screenshot });
    } catch (error) {
      // What the page showed when the check gave up says more than the timeout does.
      mkdirSync(resultsDir, { recursive: true });
      await page.screenshot({ path: path.join(resultsDir, `${failureName}-failed.png`) }).catch(() => undefined);
      console.log(`Screenshot of the failure: ${path.relative(repoRoot, path.join(resultsDir, `${failureName}-failed.png`))}`);
      throw error;
    }
  } finally {
    await browser.close();
  }
}

/** Clicks Relay Chat's activity bar entry: the first time, the extension host may still be starting on a busy machine. */
const openRelayChat = (page, timeout = STEP_TIMEOUT_MS) => page.locator('.activitybar .action-label[aria-label^="Relay Chat"]').click({ timeout });

/**
 * The checks of the demo as it starts: one message and its receipt, /commit, the Chat Completions model's offer
 * and the thinking model's tool loop. `models`: { chatCompletions, thinking }, the demo relay's model ids.
 */
export function selfCheck({ url, folder, locale, models }) {
  const text = panelTextIn(locale);
  const newChatLabel = manifestText(locale, "command.newChat.title");
  return withWorkbench(url, folder, "demo", async ({ page, view, screenshot }) => {
    await openRelayChat(page, FIRST_STEP_TIMEOUT_MS);
    const message = view.getByLabel(text("Message"), { exact: true });
    await message.fill("Hello! What can you do?", { timeout: FIRST_STEP_TIMEOUT_MS });
    await message.press("Enter");
    // The check passes only when the answer completed: its receipt comes when the request has ended.
    await lastTurnCompleted(view, text);
    // The demo workspace's AGENTS.md goes with every message: the Rules chip in the message box says so.
    await view.locator(".rules-chip").waitFor({ timeout: STEP_TIMEOUT_MS });
    await commitCheck(page, view, message, text);
    await screenshot("demo");

    await newChat(page, view, message, newChatLabel);
    await pickModel(view, text, models.chatCompletions);
    await message.fill("Hello!");
    await message.press("Enter");
    const offer = view.getByRole("button", { name: text("Use Chat Completions for this model") });
    await offer.waitFor({ timeout: STEP_TIMEOUT_MS });
    await offer.click();
    await lastTurnCompleted(view, text, text("Chat Completions"));
    console.log(`${models.chatCompletions}: the panel offered Chat Completions and the answer came over it`);
    await screenshot("demo-chat-completions");

    await newChat(page, view, message, newChatLabel);
    await pickModel(view, text, models.thinking);
    await message.fill("Explain hello.ts");
    await message.press("Enter");
    await view.getByRole("button", { name: text("Approve"), exact: true }).click({ timeout: STEP_TIMEOUT_MS });
    await lastTurnCompleted(view, text, text("Chat Completions"));
    // The relay refuses a follow-up without the reasoning (HTTP 400): completed means it went back with the call.
    if (!/greet/.test(await view.locator(".turn").last().innerText())) throw new Error("The thinking model's answer does not explain hello.ts after reading it.");
    const reasoning = view.locator(".reasoning-note").last();
    await reasoning.locator("summary").click();
    const thought = await reasoning.innerText();
    if (!/The user wrote "Explain hello\.ts"[\s\S]*The tool answered/.test(thought)) throw new Error(`The thinking model's reasoning is not shown for both requests: ${thought}`);
    console.log(`${models.thinking}: its reasoning shown, the read_file call approved and answered over Chat Completions`);
    await screenshot("demo-thinking");
  });
}

/**
 * Waits until the last turn on screen has completed (its receipt says so: a receipt comes when a request has
 * ended), opens its request details and checks they name `mustSay` when given. Returns the receipt's text.
 */
async function lastTurnCompleted(view, text, mustSay) {
  const receipt = view.getByRole("region", { name: text("Turn details") }).last();
  await receipt.waitFor({ timeout: STEP_TIMEOUT_MS });
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let shown = await receipt.innerText();
  while (!shown.includes(text("completed")) || (await view.locator(".turn-progress:visible").count()) > 0) {
    if (Date.now() > deadline) throw new Error(`The answer did not complete; its receipt says: ${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    shown = await receipt.innerText();
  }
  await receipt.getByRole("button", { name: text("Show request details") }).click();
  shown = await receipt.innerText();
  if (mustSay && !shown.includes(mustSay)) throw new Error(`The receipt does not say "${mustSay}": ${shown}`);
  return shown;
}

/** Picks a model of the demo relay in the panel's picker (an option's value joins relay and model). */
async function pickModel(view, text, model) {
  const picker = view.locator(".composer-toolbar").getByRole("combobox", { name: text("Model") });
  const option = picker.locator("option", { hasText: model }).first();
  await option.waitFor({ state: "attached", timeout: STEP_TIMEOUT_MS });
  await picker.selectOption((await option.getAttribute("value")) ?? model);
}

/** The view's New Chat; the message box gets the focus once the extension has handled it. */
async function newChat(page, view, message, label) {
  await message.evaluate((box) => box.blur());
  await page.locator(`.part.sidebar .title-actions .action-label[aria-label^="${label}"]`).click({ timeout: STEP_TIMEOUT_MS });
  await view.locator(".turn").first().waitFor({ state: "detached", timeout: STEP_TIMEOUT_MS });
}

/**
 * /commit: the demo project is its own git repository with a staged change, so the demo model's message for it
 * lands in the Source Control box: a short summary line of that change, not the demo's help text.
 */
async function commitCheck(page, view, message, text) {
  await message.fill("/commit");
  await message.press("Enter");
  // The first Enter may pick /commit in the / menu (the box then reads "/commit "): the next one sends it.
  if ((await message.inputValue()).trim() !== "") await message.press("Enter");
  // The message lands in the Source Control box, and Source Control takes the side bar from the chat.
  const box = page.locator(".scm-editor .view-lines").first();
  await box.getByText(/\S/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  const written = (await box.innerText()).trim();
  if (!/farewell/i.test(written.split("\n")[0]) || written.length > 300) throw new Error(`/commit put this in the Source Control box, not a message for the staged change: ${written}`);
  console.log(`/commit wrote: ${written.split("\n")[0]}`);
  // Back to the chat: its receipt, and the screenshot.
  await openRelayChat(page);
  await lastTurnCompleted(view, text);
}

/** --fresh --screenshot: the walkthrough opened by itself and the panel says what is missing. */
export function freshSelfCheck({ url, folder, locale }) {
  const text = panelTextIn(locale);
  return withWorkbench(url, folder, "demo-fresh", async ({ page, view, screenshot }) => {
    await page.locator(".gettingStartedContainer").getByText(manifestText(locale, "walkthrough.step.addRelay.title")).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await openRelayChat(page);
    await view.getByText(text("No relay address is set.")).waitFor({ timeout: STEP_TIMEOUT_MS });
    await screenshot("demo-fresh");
  });
}
