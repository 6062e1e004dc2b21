import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Several relays through the panel's controller on Node, each relay an emulator of its own: the picker
// lists every relay's models grouped by relay, picking a model of another relay sends the next request
// there, and a model is remembered per relay, so an id typed for one relay never follows to another.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1]!;
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

function posts(harness: PanelHostHarness, relay: string): number {
  const emulator = relay === "emulator" ? harness.emulator : harness.otherRelays.get(relay)!;
  return emulator.received.filter((request) => request.method === "POST" && request.path === "/v1/responses").length;
}

describe("several relays in the panel (Node, two relay emulators)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  it("lists each relay's models in its own group and sends to the relay whose model was picked", async () => {
    harness = await startPanelHostHarness({ otherRelays: [{ name: "Cheap relay", emulator: { profile: "new-api", models: ["echo", "cheap-mini"] } }] });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    await controller.refreshModels();
    let state = controller.state();
    assert.deepEqual(state.relayModels.map((entry) => entry.relay), ["emulator", "Cheap relay"]);
    assert.deepEqual(state.relayModels[1]!.models, ["cheap-mini", "echo"]);
    assert.equal(state.relay, "emulator");

    controller.handle({ type: "selectModel", relay: "Cheap relay", model: "echo" });
    state = await harness.waitFor((candidate) => candidate.relay === "Cheap relay", "the other relay to be active");
    assert.equal(state.model, "echo");
    assert.deepEqual(state.models, ["cheap-mini", "echo"], "the active relay's own list");
    controller.handle({ type: "send", text: "which relay answers?" });
    state = await harness.waitFor(settled, "the answer");
    assert.equal(lastTurn(state).outcome, "completed", lastTurn(state).explanation ?? "");
    assert.equal(posts(harness, "Cheap relay"), 1, "the picked relay received the request");
    assert.equal(posts(harness, "emulator"), 0, "the other relay received nothing");
    assert.equal(harness.view.mirror.state?.relay, "Cheap relay", "the webview knows which relay is active");
  });

  it("remembers a model per relay: an id typed for one relay does not follow to another, and a model the relay no longer lists is marked", async () => {
    harness = await startPanelHostHarness({ otherRelays: [{ name: "Official", emulator: { models: ["echo", "gpt-official"] } }] });
    const { controller } = harness;
    await controller.refreshModels();
    await controller.setModel("typed-for-emulator");
    assert.equal(controller.model(), "typed-for-emulator");
    await controller.setModel("gpt-official", "Official");
    assert.equal(controller.state().relay, "Official");
    assert.equal(controller.model(), "gpt-official", "the other relay's own model, not the id typed for the first");
    await controller.setModel("echo", "emulator");
    assert.equal(controller.model(), "echo");
    await controller.setModel("typed-for-emulator", "emulator");
    const marked = controller.state().relayModels.find((entry) => entry.relay === "emulator")!;
    assert.equal(marked.unlisted, "typed-for-emulator", "the remembered model is not in the relay's list");
    assert.equal(controller.state().relayModels.find((entry) => entry.relay === "Official")!.unlisted, null);
  });
});

describe("cost on receipts and in the title line (Node, relay emulators)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    assert.deepEqual(harness?.view.mirror.problems ?? [], []);
    await harness?.close();
  });

  it("shows what the relay billed (OpenRouter's usage.cost) beside the estimate, per request and for the conversation", async () => {
    const price = { inputPerMillion: 1, cachedInputPerMillion: null, outputPerMillion: 2, currency: "USD" };
    harness = await startPanelHostHarness({ emulator: { profile: "openrouter" }, priceOf: (_relay, model) => (model === "echo" ? price : null) });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "what did this cost?" });
    let state = await harness.waitFor(settled, "the answer");
    const receipt = lastTurn(state).receipts[0]!;
    assert.equal(receipt.relay, "emulator");
    assert.ok(receipt.cost, "a cost on the receipt");
    assert.equal(receipt.cost.estimated, false, "the billed figure is preferred");
    assert.equal(receipt.cost.currency, "USD");
    assert.ok(receipt.cost.amount > 0);
    assert.equal(typeof receipt.cost.estimatedAmount, "number", "the estimate is kept beside it");
    controller.handle({ type: "send", text: "and now?" });
    state = await harness.waitFor((candidate) => settled(candidate) && candidate.turns.length === 2, "the second answer");
    const total = state.totals?.cost;
    assert.ok(total, "the title line has the conversation's cost");
    const sum = state.turns.reduce((amount, turn) => amount + (turn.receipts[0]?.cost?.amount ?? 0), 0);
    assert.ok(Math.abs(total.amount - sum) < 1e-12, `${total.amount} is the sum ${sum}`);
    assert.equal(state.totals?.requestsWithoutCost, 0);
  });

  it("marks an estimate from prices as one, and shows no cost (never 0) for a model without a price", async () => {
    const price = { inputPerMillion: 3, cachedInputPerMillion: null, outputPerMillion: 15, currency: "USD" };
    harness = await startPanelHostHarness({ priceOf: (_relay, model) => (model === "echo" ? price : null) });
    const { controller } = harness;
    controller.handle({ type: "send", text: "priced" });
    let state = await harness.waitFor(settled, "the answer");
    const usage = lastTurn(state).receipts[0]!.usage!;
    const expected = ((usage.inputTokens ?? 0) * 3 + (usage.outputTokens ?? 0) * 15) / 1_000_000;
    assert.deepEqual(lastTurn(state).receipts[0]!.cost, { amount: expected, currency: "USD", estimated: true, estimatedAmount: null });
    await controller.setModel("demo");
    controller.handle({ type: "send", text: "unpriced" });
    state = await harness.waitFor((candidate) => settled(candidate) && candidate.turns.length === 2, "the second answer");
    assert.equal(lastTurn(state).receipts[0]!.cost, null, "unknown, not 0");
    assert.equal(state.totals?.requestsWithoutCost, 1, "the total says a request's cost is unknown");
    assert.equal(state.totals?.cost?.estimated, true);
  });

  it("prices a request with a price list that arrived while it ran (read in the background when first asked for)", async () => {
    const price = { inputPerMillion: 3, cachedInputPerMillion: null, outputPerMillion: 15, currency: "USD" };
    let listed = false;
    harness = await startPanelHostHarness({ settings: { model: "demo" }, priceOf: () => (listed ? price : null) });
    const { controller } = harness;
    controller.handle({ type: "send", text: "Hello! What can you do?" });
    // The demo model streams at a reading pace: the list "arrives" once the answer has started.
    await harness.waitFor((state) => state.turns.length > 0 && lastTurn(state).answerText.length > 0 && state.busy, "the answer to start");
    listed = true;
    const state = await harness.waitFor(settled, "the answer");
    assert.equal(lastTurn(state).outcome, "completed");
    assert.ok(lastTurn(state).receipts[0]!.cost, "priced with the list known when the request ended");
  });
});

describe("history resent to another relay (Node, two relay emulators)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("leaves out reasoning items another relay produced and says so on the receipt; back on their own relay nothing is left out", async () => {
    harness = await startPanelHostHarness({ settings: { model: "reasoning" }, otherRelays: [{ name: "Other", emulator: {} }] });
    const { controller } = harness;
    controller.handle({ type: "send", text: "think first" });
    await harness.waitFor(settled, "the first answer");
    assert.ok(harness.controller.state().turns[0]!.hasReasoning, "the first relay produced reasoning");
    await controller.setModel("echo", "Other");
    controller.handle({ type: "send", text: "now the other relay" });
    const state = await harness.waitFor((candidate) => settled(candidate) && candidate.turns.length === 2, "the second answer");
    const sent = harness.otherRelays.get("Other")!.received.filter((request) => request.method === "POST").at(-1)!.body as { input: Array<{ type: string }> };
    assert.equal(sent.input.filter((item) => item.type === "reasoning").length, 0, "no reasoning item of the first relay");
    assert.ok(sent.input.some((item) => item.type === "message"), "the conversation itself was resent");
    assert.match(lastTurn(state).receipts[0]!.note ?? "", /reasoning items? from another relay (was|were) left out/);
    await controller.setModel("reasoning", "emulator");
    controller.handle({ type: "send", text: "back to the first relay" });
    const back = await harness.waitFor((candidate) => settled(candidate) && candidate.turns.length === 3, "the third answer");
    assert.doesNotMatch(lastTurn(back).receipts[0]!.note ?? "", /another relay/, "the first relay's own reasoning is its own");
  });
});

describe("the spend warning in money (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("asks before a request whose input would cost more than relayChat.spendWarning at the model's price, and sends nothing until confirmed", async () => {
    const price = { inputPerMillion: 1_000_000, cachedInputPerMillion: null, outputPerMillion: 1, currency: "USD" };
    harness = await startPanelHostHarness({ settings: { spendWarningAmount: 0.5 }, priceOf: () => price });
    const { controller } = harness;
    controller.handle({ type: "send", text: "a message whose input costs more than fifty cents at this price" });
    const asking = await harness.waitFor((state) => state.spendWarning !== null, "the spend warning");
    assert.match(asking.spendWarning!.text, /USD of input at the model's price \(an estimate\), above your warning of 0\.5 USD/);
    assert.equal(harness.emulator.received.filter((request) => request.method === "POST").length, 0, "nothing sent before the answer");
    controller.handle({ type: "confirmSend", confirmed: true });
    const state = await harness.waitFor(settled, "the answer");
    assert.equal(lastTurn(state).outcome, "completed");
  });

  it("does not ask when the price is unknown or the input costs less", async () => {
    harness = await startPanelHostHarness({ settings: { spendWarningAmount: 0.5 }, priceOf: () => null });
    harness.controller.handle({ type: "send", text: "no price known" });
    const state = await harness.waitFor(settled, "the answer");
    assert.equal(lastTurn(state).outcome, "completed");
    assert.equal(state.spendWarning, null);
  });
});

describe("balance in the panel (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("a quota error says the balance the relay reports, and the title line's tooltip has it", async () => {
    const note = "Balance left on emulator: $0.00.";
    harness = await startPanelHostHarness({ emulator: { balance: 0 }, balanceNote: () => note });
    harness.controller.handle({ type: "send", text: "no money left" });
    const state = await harness.waitFor(settled, "the refusal");
    assert.notEqual(lastTurn(state).outcome, "completed");
    assert.ok((lastTurn(state).explanation ?? "").endsWith(note), lastTurn(state).explanation ?? "");
    assert.equal(state.balance, note);
  });
});
