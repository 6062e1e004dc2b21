import { planModeText } from "../../src/instructions/planInstructions";
import assert from "node:assert/strict";
import type { SlashCommand } from "../../src/instructions/slashCommands";
import { BUILTIN_PROMPTS, slashCommands } from "../../src/instructions/slashCommands";
import { parsePromptFile } from "../../src/instructions/promptFiles";
import type { PanelState } from "../../src/panel/protocol";
import type { SlashCommandSource } from "../../src/panel/turns/slashCommandRunner";
import type { PanelHostHarness, PanelHostHarnessOptions } from "../fixtures/panel/panelHostHarness";
import { panelAssembly, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Messages that start with a slash command, through the panel's controller on Node against the relay
// emulator: /new and /compact are the panel's actions, a prompt goes in the request's instructions for that
// message only with only the tools its front matter names, and Plan mode's hook can take /plan over.

const lastTurn = (state: PanelState) => state.turns[state.turns.length - 1];
const settled = (count: number) => (state: PanelState) => !state.busy && state.turns.length === count && lastTurn(state).outcome !== "in_progress";

function source(commands: SlashCommand[]): SlashCommandSource {
  return { commands: () => commands, fresh: async () => commands, listen: () => undefined };
}

const weatherOnly = parsePromptFile("weather.prompt.md", "---\ndescription: Weather report\ntools: [get_weather]\n---\nReport the weather for ${input:city}.", "workspace", ".github/prompts/weather.prompt.md")!;

function slashOptions(extra: PanelHostHarnessOptions["slash"] = {}): PanelHostHarnessOptions["slash"] {
  return {
    slashCommands: source(slashCommands([weatherOnly])),
    instructions: panelAssembly(),
    ...extra,
  };
}

interface SentBody {
  instructions?: string;
  tools?: Array<{ name: string }>;
}

function sentBodies(harness: PanelHostHarness): SentBody[] {
  return harness.emulator.received.filter((request) => request.method === "POST" && request.path === "/v1/responses").map((request) => request.body as SentBody);
}

describe("panel slash commands (Node, relay emulator)", function () {
  this.timeout(30_000);
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
  });

  it("lists the commands for the / menu, built-ins first, with descriptions", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    const names = (harness.controller.state().slashCommands ?? []).map((command) => `${command.origin}:${command.name}`);
    assert.deepEqual(names, ["builtin:new", "builtin:compact", "builtin:plan", "builtin:explain", "builtin:fix", "builtin:tests", "builtin:commit", "workspace:weather"]);
    assert.equal(harness.controller.state().slashCommands?.[7]?.description, "Weather report");
  });

  it("looks at the prompt files again when the person starts typing a command, and lists what it finds", async () => {
    // A watcher can miss a folder created with its files (mkdir -p, a checkout): the / menu looks again when it opens.
    let onDisk = slashCommands([]);
    let looked = 0;
    const listeners: Array<() => void> = [];
    const watched: SlashCommandSource = {
      commands: () => onDisk,
      fresh: async () => onDisk,
      listen: (changed) => void listeners.push(changed),
      lookAgain: () => {
        looked += 1;
        onDisk = slashCommands([weatherOnly]);
        for (const changed of listeners) changed();
      },
    };
    harness = await startPanelHostHarness({ slash: slashOptions({ slashCommands: watched }) });
    const { controller } = harness;
    assert.equal(controller.state().slashCommands?.some((command) => command.name === "weather"), false);
    controller.handle({ type: "draftCommand", text: "/" });
    await harness.waitFor((state) => (state.slashCommands ?? []).some((command) => command.name === "weather"), "the prompt file found on looking again");
    controller.handle({ type: "draftCommand", text: "/wea" });
    assert.equal(looked, 1, "once per command typed, not per key");
    controller.handle({ type: "draftCommand", text: "" });
    controller.handle({ type: "draftCommand", text: "/" });
    assert.equal(looked, 2);
  });

  it("sends a prompt file's text in instructions with that message only, and offers only its tools then", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    const { controller } = harness;
    controller.handle({ type: "send", text: "/weather city=Oslo" });
    const state = await harness.waitFor(settled(1), "the answer");
    assert.equal(lastTurn(state).userText, "/weather city=Oslo", "the turn shows what was typed");
    controller.handle({ type: "send", text: "thanks" });
    await harness.waitFor(settled(2), "the second answer");
    const [first, second] = sentBodies(harness);
    assert.ok(first?.instructions?.endsWith("The person started this message with /weather, the prompt file .github/prompts/weather.prompt.md:\nReport the weather for Oslo."), first?.instructions);
    assert.deepEqual(first?.tools?.map((tool) => tool.name), ["get_weather"]);
    assert.equal(second?.instructions?.includes("Report the weather"), false, "the next message goes without it");
    assert.deepEqual(second?.tools?.map((tool) => tool.name), ["get_weather", "get_time"]);
  });

  it("sends a command's turn again with its prompt and tools: regenerate, and an edit that now starts with a command", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    const { controller } = harness;
    controller.handle({ type: "send", text: "/weather city=Oslo" });
    const first = await harness.waitFor(settled(1), "the answer");
    controller.handle({ type: "regenerate", turnId: lastTurn(first).id });
    await harness.waitFor((state) => settled(1)(state) && lastTurn(state).branchCount === 2, "the regenerated answer");
    const regenerated = sentBodies(harness).at(-1);
    assert.ok(regenerated?.instructions?.includes("Report the weather for Oslo."), "the prompt goes again");
    assert.deepEqual(regenerated?.tools?.map((tool) => tool.name), ["get_weather"]);
    const shown = await harness.waitFor(settled(1), "the regenerated turn");
    controller.handle({ type: "editAndResend", turnId: lastTurn(shown).id, text: "/explain the forecast" });
    await harness.waitFor((state) => settled(1)(state) && lastTurn(state).branchCount === 3, "the edited answer");
    const edited = sentBodies(harness).at(-1);
    assert.ok(edited?.instructions?.includes(BUILTIN_PROMPTS.explain), "the edit's command goes with it");
    assert.equal(edited?.instructions?.includes("Report the weather"), false);
  });

  it("/new starts a new conversation and sends what follows it there; plain text that only looks like a command is sent as typed", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    const { controller } = harness;
    controller.handle({ type: "send", text: "first conversation" });
    const before = await harness.waitFor(settled(1), "the first answer");
    controller.handle({ type: "send", text: "/new hello again" });
    const after = await harness.waitFor((state) => settled(1)(state) && lastTurn(state).userText === "hello again", "the new conversation's answer");
    assert.notEqual(after.conversationId, before.conversationId);
    controller.handle({ type: "send", text: "/usr/bin/env is odd" });
    const plain = await harness.waitFor(settled(2), "the plain answer");
    assert.equal(lastTurn(plain).userText, "/usr/bin/env is odd");
    assert.equal(sentBodies(harness).at(-1)?.instructions?.includes("slash command"), false);
  });

  it("sends a workspace fix.prompt.md for /fix instead of the built-in prompt, and the menu says whose /fix it is", async () => {
    const ours = parsePromptFile("fix.prompt.md", "---\ndescription: Fix it our way\n---\nFix ${input:what} with a failing test first.", "workspace", ".github/prompts/fix.prompt.md")!;
    const commit = parsePromptFile("commit.prompt.md", "Our commit style.", "workspace", ".github/prompts/commit.prompt.md")!;
    harness = await startPanelHostHarness({ slash: slashOptions({ slashCommands: source(slashCommands([weatherOnly, ours, commit])) }) });
    const menu = harness.controller.state().slashCommands ?? [];
    assert.deepEqual(
      menu.filter((command) => command.name === "fix" || command.name === "commit").map(({ name, origin, description, replacesBuiltin, ignoredFile }) => ({ name, origin, description, replacesBuiltin, ignoredFile })),
      [
        { name: "fix", origin: "workspace", description: "Fix it our way", replacesBuiltin: true, ignoredFile: undefined },
        { name: "commit", origin: "builtin", description: menu.find((command) => command.name === "commit")!.description, replacesBuiltin: undefined, ignoredFile: ".github/prompts/commit.prompt.md" },
      ],
    );
    harness.controller.handle({ type: "send", text: "/fix the login" });
    await harness.waitFor(settled(1), "the answer");
    const instructions = sentBodies(harness).at(-1)?.instructions ?? "";
    assert.ok(instructions.includes("/fix, the prompt file .github/prompts/fix.prompt.md:\nFix the login with a failing test first."), instructions);
    assert.equal(instructions.includes(BUILTIN_PROMPTS.fix), false, "not the built-in prompt");
  });

  it("/compact asks for a summary instead of sending a message (and says when there is nothing to summarize)", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    const { controller } = harness;
    controller.handle({ type: "send", text: "only turn" });
    await harness.waitFor(settled(1), "the answer");
    const requests = sentBodies(harness).length;
    controller.handle({ type: "send", text: "/compact" });
    const state = await harness.waitFor((current) => current.notice !== null, "the notice");
    // Information, not a failure: not "Something went wrong: …".
    assert.equal(state.notice, "There are no earlier turns to summarize: the last 4 turns are always sent as they are.");
    assert.equal(state.turns.length, 1, "no /compact message was sent");
    assert.equal(sentBodies(harness).length, requests);
    // The Summarize earlier turns button says the same.
    controller.handle({ type: "fix", action: "summarizeEarlierTurns" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(controller.state().notice, "There are no earlier turns to summarize: the last 4 turns are always sent as they are.");
  });

  it("/plan switches the conversation to Plan mode and sends its text there; another hook can take it over", async () => {
    harness = await startPanelHostHarness({ slash: slashOptions() });
    harness.controller.handle({ type: "send", text: "/plan add dark mode" });
    const state = await harness.waitFor(settled(1), "the answer");
    assert.equal(state.mode, "plan", "the switch shows Plan");
    assert.equal(state.turns[0]?.userText, "add dark mode");
    assert.ok(sentBodies(harness)[0]?.instructions?.includes(planModeText()), "Plan mode's part goes with it");
    await harness.close();

    const handed: Array<{ text: string; mode: string | null }> = [];
    harness = await startPanelHostHarness({
      slash: slashOptions({
        planCommand: async (text, _images, command) => {
          handed.push({ text, mode: command.mode });
          return true;
        },
      }),
    });
    harness.controller.handle({ type: "send", text: "/plan add dark mode" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(handed, [{ text: "add dark mode", mode: "plan" }]);
    assert.equal(sentBodies(harness).length, 0, "Plan mode sends it its own way");
  });
});
