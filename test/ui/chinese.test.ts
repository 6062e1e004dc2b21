// Relay Chat in a VS Code whose display language is Chinese (Simplified): the view, the composer, a
// receipt and an error's explanation and fix come from Relay Chat's own bundles (l10n/bundle.l10n.zh-cn.json,
// package.nls.zh-cn.json). Runs only under `runUiTests.mjs --locale zh-cn`, which installs the stand-in
// language pack (test/fixtures/zhLanguagePack). Screenshots: test-results/ui-zh-cn/.
import * as assert from "node:assert/strict";
import type { FrameLocator } from "playwright-core";
import { workbenchForSuite } from "./workbench";

const enabled = process.env.RELAY_CHAT_UI_LOCALE === "zh-cn";
const labels = { newChat: "新建聊天", message: "消息" };

(enabled ? describe : describe.skip)("the panel in Chinese (Simplified)", function () {
  this.timeout(120_000);
  const workbench = workbenchForSuite("zh-cn");
  let chat: FrameLocator;

  before(async () => {
    chat = await workbench().openRelayChat(labels.message);
  });

  async function send(text: string): Promise<void> {
    const message = chat.getByRole("textbox", { name: labels.message });
    await message.fill(text);
    await message.press("Enter");
  }

  it("names the view, the composer and an answer's receipt in Chinese", async () => {
    assert.match(await workbench().page.locator(".part.sidebar .title-label").innerText(), /聊天/, "the view's name from package.nls.zh-cn.json");
    await workbench().newChat(labels);
    await chat.locator(".composer-toolbar").getByRole("combobox", { name: "模型" }).selectOption("echo");
    // The hint names `/` too when the side bar is wide enough for it on one line.
    assert.match((await chat.getByRole("textbox", { name: labels.message }).getAttribute("placeholder")) ?? "", /^输入任何问题，输入 # 附加文件(，输入 \/ 使用命令)?$/);
    await send("你好");
    const receipt = chat.getByRole("region", { name: "轮次详情" }).last();
    await receipt.filter({ hasText: "已完成" }).waitFor({ timeout: 60_000 });
    assert.equal(await receipt.getByRole("button", { name: "复制请求 ID" }).count(), 1);
    await workbench().panelScreenshot("zh-cn-1-answer");
  });

  it("explains an error in Chinese, with the fix that fits", async () => {
    await workbench().newChat(labels);
    await workbench().runCommand("Relay Chat: 选择模型");
    await workbench().answerInput("no-such-model");
    await chat.locator(".composer-toolbar").getByRole("combobox", { name: "模型" }).locator("option", { hasText: "no-such-model" }).waitFor({ state: "attached", timeout: 30_000 });
    await send("哪个模型回答？");
    const state = chat.locator(".turn-state.tone-error").last();
    await state.waitFor({ timeout: 60_000 });
    const text = await state.innerText();
    assert.match(text, /HTTP 404/);
    assert.match(text, /请检查模型/, `the advice from the relay client, translated: ${text}`);
    assert.ok(await state.getByRole("button", { name: "选择其他模型" }).isVisible());
    await workbench().panelScreenshot("zh-cn-2-error");
  });
});
