// Issue 29 in the panel: a model on Chat Completions says so in the picker and on each receipt, and a message the
// relay refused as "no Responses interface here" offers the switch as one button that posts one message.
import assert from "node:assert/strict";
import { conversationState, panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";

describe("Chat panel webview: models on Chat Completions (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  it("names a Chat Completions model in the picker, and only that one", async () => {
    const panel = current.panel();
    await panel.sendState({ ...conversationState(), model: "deepseek-chat", models: ["deepseek-chat", "gpt-4o"], relayModels: [{ relay: "relay.example", models: ["deepseek-chat", "gpt-4o"], unlisted: null, chatModels: ["deepseek-chat"] }] });
    const picker = panel.page.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
    const labels = await picker.evaluate((select: HTMLSelectElement) => Array.from(select.options, (option) => option.textContent));
    assert.ok(labels.includes("deepseek-chat · Chat Completions"), JSON.stringify(labels));
    assert.ok(labels.includes("gpt-4o"), JSON.stringify(labels));
  });

  it("says Chat Completions on a receipt of a request sent over it", async () => {
    const panel = current.panel();
    await panel.sendState(panelState({ turns: [turn("t1", { receipts: [receipt({ requestId: "req_chat", model: "deepseek-chat", protocol: "chat" })] }), turn("t2")] }));
    const regions = panel.page.getByRole("region", { name: "Turn details" });
    await regions.nth(0).getByRole("button", { name: "Show request details" }).click();
    assert.match(await regions.nth(0).locator(".receipt-details").innerText(), /Interface\s+Chat Completions/);
    await regions.nth(1).getByRole("button", { name: "Show request details" }).click();
    assert.doesNotMatch(await regions.nth(1).locator(".receipt-details").innerText(), /Chat Completions/);
  });

  it("offers Use Chat Completions for this model on a refused message: one click, one message to the host", async () => {
    const panel = current.panel();
    const refused = turn("t1", { outcome: "http_error", outcomeLabel: "HTTP 500 (convert_request_failed)", explanation: "The relay or its upstream had a server error.", actions: ["useChatCompletions", "retry"] });
    await panel.sendState(panelState({ turns: [refused] }));
    await panel.clearPosted();
    await panel.page.getByRole("button", { name: "Use Chat Completions for this model" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "useChatCompletions", turnId: "t1" }]);
  });

  it("carries the check-up's Chat Completions finding above the message box: one click confirms it, Dismiss only hides it", async () => {
    const panel = current.panel();
    const { page } = panel;
    await panel.sendState({ ...conversationState(), chatCompletionsOffer: { relay: "Split relay", model: "deepseek-chat" } });
    const offer = page.locator(".chat-completions-offer");
    assert.match((await offer.textContent()) ?? "", /check-up found that deepseek-chat on Split relay answers over Chat Completions/);
    await panel.clearPosted();
    await offer.getByRole("button", { name: "Use Chat Completions for this model" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "fix", action: "confirmChatCompletions" }]);
    await offer.getByRole("button", { name: "Dismiss" }).click();
    assert.equal(await offer.count(), 0);
    await panel.sendPatch({ kind: "fields", fields: { chatCompletionsOffer: { relay: "Split relay", model: "gemini-chat" } } });
    assert.equal(await page.locator(".chat-completions-offer").count(), 1, "a new finding is shown again");
    await panel.sendPatch({ kind: "fields", fields: { chatCompletionsOffer: null } });
    assert.equal(await page.locator(".chat-completions-offer").count(), 0, "confirmed elsewhere: gone");
  });
});
