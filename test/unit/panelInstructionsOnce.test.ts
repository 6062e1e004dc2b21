import assert from "node:assert/strict";
import { assembleInstructions, sentSources } from "../../src/instructions/assembleInstructions";
import type { AssembledInstructions } from "../../src/instructions/assembleInstructions";
import type { ChosenRule } from "../../src/instructions/projectRules";
import type { InstructionChoices } from "../../src/panel/chatControllerOptions";
import { rulesView } from "../../src/panel/rulesChip";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// The context meter and the Rules chip show figures of the next message's instructions. Both come from one
// assembly per panel state (the extension's PanelInstructions.forPanel), not one each: assembling reads the
// settings and the rules files' texts and builds the whole instruction text, and the panel's state is computed
// for every patch. The in-host test "what the model is told" checks the figures against what is sent.

const environment = { os: "Linux", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-27", locale: "en", tools: [] };
const rule: ChosenRule = { kind: "agentsMd", folder: "app", path: "AGENTS.md", text: "Use tabs." };

describe("what the panel shows of the instructions (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;
  let assemblies = 0;
  const assemble = (choices: InstructionChoices): AssembledInstructions => {
    assemblies += 1;
    return assembleInstructions({ environment: { ...environment, tools: choices.toolNames }, rules: [rule], mode: choices.plan?.mode, tasks: choices.plan?.tasks });
  };

  beforeEach(() => {
    assemblies = 0;
  });
  afterEach(async () => {
    await harness?.close();
  });

  it("assembles them once per panel state for the context meter and the Rules chip, which give the same figure", async () => {
    harness = await startPanelHostHarness({
      slash: {
        instructions: (choices) => {
          const assembled = assemble(choices);
          return { text: assembled.text, tokens: assembled.tokens, sources: sentSources(assembled), hash: assembled.hash };
        },
        panelInstructions: (choices) => {
          const assembled = assemble(choices);
          return { tokens: assembled.tokens, rules: rulesView([rule], assembled, new Set(choices.rulesOff), false, false) };
        },
      },
    });
    const state = harness.controller.state();
    assert.equal(assemblies, 1, "one assembly for the whole state");
    const tokens = state.rules?.instructionTokens ?? 0;
    assert.ok(tokens > 0, "the chip has the instructions' tokens");
    assert.equal(state.context?.estimatedTokens, tokens, "a new chat's meter counts exactly the instructions, the chip's figure");
    assert.deepEqual(
      state.rules?.files.map((file) => file.source),
      ["AGENTS.md"],
    );
  });

  it("counts the request's instructions in the meter where the panel is given no view of them (no chip)", async () => {
    harness = await startPanelHostHarness({
      slash: {
        instructions: (choices) => {
          const assembled = assemble(choices);
          return { text: assembled.text, tokens: assembled.tokens, sources: sentSources(assembled), hash: assembled.hash };
        },
      },
    });
    const state = harness.controller.state();
    assert.equal(assemblies, 1);
    assert.equal(state.rules, null);
    assert.ok((state.context?.estimatedTokens ?? 0) > 0, "the meter still counts what the model is told");
  });
});
