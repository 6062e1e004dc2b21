import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SlashCommandView, ToHost } from "../../src/panel/protocol";
import { panelState } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

// The `/` menu of the message box in real Chromium: it opens on `/` at the start only, filters as one types,
// moves with the arrow keys, puts the picked command in the box (Enter does not send), Escape closes it, and
// it fits a narrow side bar.

/** What the page posted but the draft's command, which it tells the host a moment after typing pauses. */
const withoutDraftCommands = (posted: ToHost[]) => posted.filter((message) => message.type !== "draftCommand");

const COMMANDS: SlashCommandView[] = [
  { name: "new", description: "Start a new conversation", argumentHint: "message (optional)", origin: "builtin" },
  { name: "compact", description: "Summarize earlier turns to free room in the context window", argumentHint: "", origin: "builtin" },
  { name: "plan", description: "Propose a plan without changing files", argumentHint: "what to plan", origin: "builtin" },
  { name: "explain", description: "Explain the code", argumentHint: "what to explain", origin: "builtin" },
  { name: "fix", description: "Find and fix a problem", argumentHint: "the problem", origin: "builtin" },
  { name: "tests", description: "Write tests", argumentHint: "what to test", origin: "builtin" },
  { name: "commit", description: "Write a commit message for the staged changes into Source Control (never commits)", argumentHint: "", origin: "builtin" },
  { name: "security-review", description: "Review the changes for security problems, with a long description that must not push the panel wider", argumentHint: "area=NAME", origin: "workspace" },
  { name: "standup", description: "My standup notes", argumentHint: "", origin: "user" },
];

describe("Chat panel webview: the / menu (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  const menuOptions = () => panel.page.getByRole("listbox", { name: "Slash commands" }).getByRole("option");
  const activeOption = async () => panel.page.locator(`[id="${await panel.page.getByLabel("Message", { exact: true }).getAttribute("aria-activedescendant")}"]`).innerText();

  it("lists the commands on / at the start, filters as one types, and Enter puts the command in the box without sending", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ slashCommands: COMMANDS }));
    const box = page.getByLabel("Message", { exact: true });
    const list = page.getByRole("listbox", { name: "Slash commands" });
    await box.pressSequentially("see /");
    assert.equal(await list.isVisible(), false, "a / later in the text is text");
    await box.fill("");
    await box.pressSequentially("/");
    assert.equal(await list.isVisible(), true);
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    assert.equal(await menuOptions().count(), COMMANDS.length);
    assert.match(await menuOptions().nth(7).innerText(), /\/security-review.*area=NAME.*Review the changes.*Workspace prompt file/s);
    assert.match(await menuOptions().nth(8).innerText(), /\/standup.*Your prompt file/s);

    await box.pressSequentially("co");
    const names = await menuOptions().allInnerTexts().then((texts) => texts.map((text) => text.split(/\s/)[0]));
    assert.deepEqual(names.slice(0, 2), ["/compact", "/commit"], "names that start with it first");
    assert.ok(names.includes("/new"), "then ones whose description contains it (conversation)");
    assert.equal(names.includes("/standup"), false);
    await box.press("Backspace");
    await box.press("Backspace");
    await box.pressSequentially("e");
    assert.match(await activeOption(), /^\/explain/);
    await box.press("ArrowDown");
    assert.match(await activeOption(), /^\/new/, "then names and descriptions that contain it");
    await box.press("ArrowUp");
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(withoutDraftCommands(await panel.posted()), [], "Enter picks, it does not send");
    assert.equal(await box.inputValue(), "/explain ");
    assert.equal(await list.isVisible(), false);
    await box.pressSequentially("the parser");
    await box.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "send", text: "/explain the parser" });
  });

  it("says whose command it is: a prompt file in the built-in's place, or a built-in that leaves a prompt file of its name unused (280 px)", async () => {
    const page = await current.harness().open({ width: 280, height: 600 });
    try {
      const commands: SlashCommandView[] = COMMANDS.map((command) =>
        command.name === "fix"
          ? { name: "fix", description: "Fix it our way", argumentHint: "the problem", origin: "workspace", replacesBuiltin: true }
          : command.name === "commit"
            ? { ...command, ignoredFile: ".github/prompts/commit.prompt.md" }
            : command,
      );
      await page.sendState(panelState({ slashCommands: commands }));
      await page.page.getByLabel("Message", { exact: true }).pressSequentially("/");
      const options = page.page.getByRole("listbox", { name: "Slash commands" }).getByRole("option");
      assert.match(await options.nth(4).innerText(), /\/fix.*Fix it our way.*Workspace prompt file, in place of the built-in/s);
      assert.match(await options.nth(6).innerText(), /\/commit.*\.github\/prompts\/commit\.prompt\.md is not used: \/commit is Relay Chat's own/s);
      assert.deepEqual(await page.page.evaluate(panelLayoutProblems), []);
      const overflow = await page.page.evaluate(() => Array.from(document.querySelectorAll(".slash-option *")).filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length);
      assert.equal(overflow, 0, "the notes wrap inside the menu");
      assert.deepEqual(page.pageErrors, []);
    } finally {
      await page.page.close();
    }
  });

  it("Escape closes the menu and keeps the text; a click picks; Tab picks too; nothing matching shows nothing", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ slashCommands: COMMANDS }));
    const box = page.getByLabel("Message", { exact: true });
    const list = page.getByRole("listbox", { name: "Slash commands" });
    await box.pressSequentially("/sec");
    assert.equal(await list.isVisible(), true);
    await box.press("Escape");
    assert.equal(await list.isVisible(), false);
    assert.equal(await box.inputValue(), "/sec");
    await box.pressSequentially("u");
    assert.equal(await list.isVisible(), true, "typing on opens it again");
    await menuOptions().first().click();
    assert.equal(await box.inputValue(), "/security-review ");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message", "the box keeps focus");
    await box.fill("");
    await box.pressSequentially("/st");
    await box.press("Tab");
    assert.equal(await box.inputValue(), "/standup ");
    await box.fill("");
    await box.pressSequentially("/zzz");
    assert.equal(await list.isVisible(), false);
    await panel.clearPosted();
    await box.press("Enter");
    assert.deepEqual(withoutDraftCommands(await panel.posted()), [{ type: "send", text: "/zzz" }], "an unknown command is sent as text");
  });

  it("sends the draft with What the model is told, so the command's prompt is shown too", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ slashCommands: COMMANDS }));
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("/fix the crash");
    await panel.clearPosted();
    await page.getByRole("button", { name: "What the model is told" }).click();
    assert.deepEqual((await panel.posted()).filter((message) => message.type === "showInstructions"), [{ type: "showInstructions", draft: "/fix the crash" }]);
  });

  it("tells the host the draft's command as it is typed (the host's meter and Rules chip count its prompt), and once when it is gone", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ slashCommands: COMMANDS, context: { estimatedTokens: 1000, windowTokens: 100_000, tokensPerImage: 765 } }));
    const box = page.getByLabel("Message", { exact: true });
    const meter = page.getByRole("meter");
    await panel.clearPosted();
    await box.fill("/explain it");
    await new Promise((resolve) => setTimeout(resolve, 400));
    const told = (await panel.posted()).filter((message) => message.type === "draftCommand");
    assert.deepEqual(told, [{ type: "draftCommand", text: "/explain it" }]);
    // The meter adds the draft's own characters only: the prompt is in the host's estimate.
    assert.equal(Number(await meter.getAttribute("aria-valuenow")), 1000 + Math.ceil("/explain it".length / 4));
    await panel.clearPosted();
    await box.fill("plain text");
    await box.fill("plain text again");
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual((await panel.posted()).filter((message) => message.type === "draftCommand"), [{ type: "draftCommand", text: "" }]);
  });

  it("says in the empty state that # attaches context and / offers commands and prompt files, in Chinese too", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ slashCommands: COMMANDS }));
    const hint = page.locator(".empty-state .empty-hint");
    assert.match(await hint.innerText(), /Type # to attach .*\/ for commands and prompt files/);
    const chinese = JSON.parse(readFileSync(join(__dirname, "../../l10n/bundle.l10n.zh-cn.json"), "utf8")) as Record<string, string>;
    await panel.sendState(panelState({ slashCommands: COMMANDS }), chinese, "zh-cn");
    assert.match(await hint.innerText(), /输入 # .*输入 \/ .*提示文件/);
  });
  for (const width of [260, 420]) {
    it(`fits the side bar at ${width} px`, async () => {
      const page = await current.harness().open({ width, height: 600 });
      try {
        await page.sendState(panelState({ slashCommands: COMMANDS }));
        await page.page.getByLabel("Message", { exact: true }).pressSequentially("/");
        assert.equal(await page.page.getByRole("listbox", { name: "Slash commands" }).isVisible(), true);
        assert.deepEqual(await page.page.evaluate(panelLayoutProblems), []);
        const screenshots = join(__dirname, "../../test-results/webview");
        mkdirSync(screenshots, { recursive: true });
        await page.page.screenshot({ path: join(screenshots, `slash-menu-${width}.png`) });
      } finally {
        await page.page.close();
      }
    });
  }
});
