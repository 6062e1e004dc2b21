import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import { rejectedParameterOf } from "../../src/relay/rejectedParameter";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// A 400 for a parameter the model refuses (a reasoning effort on a model without reasoning, an effort it does not
// take) fails the same way on Retry: the turn offers Model settings… for the model that turn used, at that setting,
// and names it. The emulator answers as OpenAI does (`unsupported_parameter` / `unsupported_value`, `param`).

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (state: PanelState) => !state.busy && state.turns.length > 0 && lastTurn(state).outcome !== "in_progress";

describe("panel: a setting the model refuses", () => {
  let harness: PanelHostHarness;
  afterEach(async () => harness?.close());

  it('a reasoning effort on a model without reasoning: Model settings… for that model, at "Reasoning effort", named; after the change Retry works', async () => {
    harness = await startPanelHostHarness({ settings: { model: "echo", modelSettings: [{ relay: "emulator", model: "echo", reasoningEffort: "low" }] } });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "hello" });
    const failed = lastTurn(await harness.waitFor(settled, "the refused message"));
    assert.equal(failed.outcome, "http_error");
    assert.deepEqual(failed.fixes, ["modelSettings", "selectModel"]);
    assert.deepEqual(failed.actions, ["retry"]);
    assert.match(failed.explanation ?? "", /echo refuses "Reasoning effort" as sent: change it in Model settings… for echo/);

    // The person picks another model in the panel first: the button still opens the model the turn used.
    controller.handle({ type: "selectModel", model: "demo" });
    await harness.waitFor((state) => state.model === "demo", "the other model");
    controller.handle({ type: "fix", action: "modelSettings", turnId: failed.id });
    await harness.waitFor(() => harness.editor.fixesRun.length === 1, "the fix");
    assert.deepEqual(harness.editor.fixesRun, [{ action: "modelSettings", target: { relay: "emulator", model: "echo", field: "reasoningEffort" } }]);

    // Model settings… removes the effort (the setting read again); Retry now goes through.
    harness.settings.modelSettings = [];
    controller.handle({ type: "selectModel", model: "echo" });
    await harness.waitFor((state) => state.model === "echo", "back to echo");
    controller.handle({ type: "retry", turnId: failed.id });
    await harness.waitFor((state) => settled(state) && lastTurn(state).outcome === "completed", "the retried message");
  });

  it("an effort value the model does not take is named with the value", async () => {
    harness = await startPanelHostHarness({ settings: { model: "thinker", modelSettings: [{ relay: "emulator", model: "thinker", reasoningEffort: "low" }] } });
    // As OpenAI words it for a model that takes only some efforts.
    harness.emulator.queueFault({ kind: "status", status: 400, code: "unsupported_value", message: "Unsupported value: 'reasoning.effort' does not support 'low' with this model. Supported values are: 'medium'." });
    const { controller } = harness;
    controller.handle({ type: "ready" });
    controller.handle({ type: "send", text: "think" });
    const failed = lastTurn(await harness.waitFor(settled, "the refused message"));
    assert.deepEqual(failed.fixes, ["modelSettings", "selectModel"]);
    assert.match(failed.explanation ?? "", /thinker refuses "Reasoning effort" set to "low"/);
  });

  it("any other 400 offers no Model settings…", async () => {
    harness = await startPanelHostHarness({ settings: { model: "echo" } });
    harness.emulator.queueFault({ kind: "status", status: 400, code: "invalid_request_error", message: "Invalid 'input[0].content': empty string." });
    harness.controller.handle({ type: "ready" });
    harness.controller.handle({ type: "send", text: "hello" });
    const failed = lastTurn(await harness.waitFor(settled, "the failed message"));
    assert.deepEqual(failed.fixes, ["selectModel"]);
  });
});

describe("which parameter a relay's 400 says the model refused", () => {
  const http = (body: unknown, status = 400) => ({ kind: "http_error" as const, status, code: null, message: "", body: JSON.stringify(body) });
  const cases: Array<[string, Parameters<typeof rejectedParameterOf>[0], ReturnType<typeof rejectedParameterOf>]> = [
    ["OpenAI's param", http({ error: { message: "Unsupported parameter: 'temperature' is not supported with this model.", type: "invalid_request_error", param: "temperature", code: "unsupported_parameter" } }), { parameter: "temperature", value: null }],
    ["OpenAI's value", http({ error: { message: "Unsupported value: 'reasoning.effort' does not support 'low' with this model. Supported values are: 'medium'.", param: "reasoning.effort", code: "unsupported_value" } }), { parameter: "reasoning_effort", value: "low" }],
    ["Chat Completions' name, no param", http({ error: { message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.", type: "invalid_request_error" } }), { parameter: "reasoning_effort", value: null }],
    ["a cap", http({ error: { message: "max_tokens is too large", param: "max_completion_tokens" } }), { parameter: "max_output_tokens", value: null }],
    ["tools, in words", http({ error: { message: "deepseek-reasoner does not support Function Calling", type: "invalid_request_error" } }), { parameter: "tools", value: null }],
    ["a stream's failed response", { kind: "failed", code: "unsupported_value", message: "Unsupported value: 'reasoning.effort' does not support 'minimal' with this model." }, { parameter: "reasoning_effort", value: "minimal" }],
    ["another parameter", http({ error: { message: "Invalid 'input[0]'", param: "input[0]" } }), null],
    ["not a 400", http({ error: { message: "Unsupported parameter: 'temperature'", param: "temperature" } }, 500), null],
  ];
  for (const [name, outcome, expected] of cases) {
    it(name, () => assert.deepEqual(rejectedParameterOf(outcome), expected));
  }
});
