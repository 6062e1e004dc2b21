import assert from "node:assert/strict";
import type { InstructionChoices } from "../../src/panel/chatControllerOptions";
import type { InstructionsAssembly } from "../../src/panel/context/instructionsAssembly";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { panelAssembly, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// The context meter and the Rules chip show figures of the next message's instructions. Both come from one
// assembly per panel state (nextRequest.ts), not one each: assembling reads the settings and the rules files'
// texts and builds the whole instruction text, and the panel's state is computed for every patch. The
// "what the model is told = the request" tests check the figures against what is sent.

const rulesFolders = [{ name: "app", files: new Map([["AGENTS.md", "Use tabs."]]) }];

describe("what the panel shows of the instructions (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  let assemblies = 0;
  const real = panelAssembly({ rulesFolders });
  const counted = (choices: InstructionChoices): InstructionsAssembly => {
    assemblies += 1;
    return real(choices);
  };

  beforeEach(() => {
    assemblies = 0;
  });
  afterEach(async () => {
    await harness?.close();
  });

  it("assembles them once per panel state for the context meter and the Rules chip, which count the same instructions", async () => {
    harness = await startPanelHostHarness({ slash: { instructions: counted } });
    const state = harness.controller.state();
    assert.equal(assemblies, 1, "one assembly for the whole state");
    const tokens = state.rules?.instructionTokens ?? 0;
    assert.ok(tokens > 0, "the chip has the instructions' tokens");
    const next = harness.controller.nextRequest.current().next;
    assert.equal(next.instructions?.tokens, tokens);
    assert.equal(state.context?.estimatedTokens, next.tokens, "a new chat's meter counts exactly what the model is told: the chip's instructions and the tools");
    assert.equal(harness.controller.nextRequest.current().settings.instructions?.tokens, next.tokens, "and so does the spend guard of the send");
    assert.deepEqual(
      state.rules?.files.map((file) => file.source),
      ["AGENTS.md"],
    );
  });

  it("has no chip and counts no instructions where the panel is given no assembly", async () => {
    harness = await startPanelHostHarness();
    const state = harness.controller.state();
    assert.equal(state.rules, null);
    assert.equal(harness.controller.nextRequest.current().next.instructions, null);
  });
});
