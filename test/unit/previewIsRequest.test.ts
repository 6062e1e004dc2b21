import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChatTools } from "../../src/chat/toolRound";
import { parsePromptFile } from "../../src/instructions/promptFiles";
import type { RulesFolder } from "../../src/instructions/ruleFile";
import { readRulesFolder } from "../../src/instructions/rulesOnDisk";
import { slashCommands } from "../../src/instructions/slashCommands";
import type { InstructionsPreviewHost } from "../../src/panel/chatControllerOptions";
import type { PanelInstructionSources } from "../../src/panel/context/instructionsAssembly";
import { instructionsDocument } from "../../src/panel/context/instructionsDocument";
import type { NextRequestView } from "../../src/panel/context/nextRequest";
import type { PanelState } from "../../src/panel/protocol";
import type { SlashCommandSource } from "../../src/panel/turns/slashCommandRunner";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import { createApprovalGate } from "../../src/tools/approvalGate";
import type { ApprovalAnswer } from "../../src/tools/approvalPolicy";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import { defineTool } from "../../src/tools/toolContract";
import type { Tool } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";
import { createUpdateTasksTool } from "../../src/tools/updateTasksTool";
import { startRelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";
import type { PanelHostHarness, PanelHostHarnessOptions } from "../fixtures/panel/panelHostHarness";
import { panelAssembly, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// "What the model is told" is the next request: in each state a person meets, the preview opened the way the
// palette command and the Rules chip open it (the host's InstructionsPreview renders the same
// instructionsDocument) is compared with the bytes the relay emulator then receives: the instruction text, at the
// place the preview says it travels (the `instructions` field, a developer message, Chat Completions' system
// message), and the tools, names in order. The assembly is the panel's real one (instructionsAssembly.ts) over
// rules files read from a real folder; the CLI's `--json` sources are checked against its own request the same way.

const registry = new ToolRegistry([tool("read_file", "read"), tool("search_text", "read"), tool("propose_edit", "write"), tool("run_command", "execute"), tool("get_weather", "read"), createUpdateTasksTool()]);

function tool(name: string, risk: Tool["risk"]): Tool {
  return defineTool<Record<string, never>>({ name, description: `The ${name} tool.\nMore about it.`, risk, parameters: { type: "object", properties: {}, additionalProperties: false }, run: async () => `${name} ran` });
}

function panelTools(trusted: boolean) {
  return (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ChatTools => {
    const availability = () => ({ trusted, disabledToolNames: new Set<string>() });
    return { registry, availability, approve: createApprovalGate(() => ({ ...availability(), sessionAllowances: new SessionAllowances() }), askUser), maxResultChars: 10_000 };
  };
}

const weather = parsePromptFile("weather.prompt.md", "---\ndescription: Weather report\ntools: [get_weather]\n---\nReport the weather for ${input:city}.", "workspace", ".github/prompts/weather.prompt.md")!;
const commands: SlashCommandSource = { commands: () => slashCommands([weather]), fresh: async () => slashCommands([weather]), listen: () => undefined };

/** The host's side of the preview, rendering what it is given as InstructionsPreview does. */
class RecordedPreview implements InstructionsPreviewHost {
  readonly shown: Array<{ text: string; next: NextRequestView }> = [];
  async show(next: NextRequestView): Promise<void> {
    this.shown.push({ text: instructionsDocument(next), next });
  }
  changed(): void {}
}

interface Shown {
  instructions: string;
  tools: string[];
  carrier: "instructions" | "developer" | "system";
}

/** What the preview document says: the fenced instruction text, the tools listed, and where the text travels. */
function readPreview(text: string): Shown {
  const block = /^## Instructions\n\n(`{3,})text\n([\s\S]*?)\n\1$/m.exec(text) ?? assert.fail(`no instructions block in:\n${text}`);
  const toolsPart = text.slice(text.indexOf("## Tools offered"));
  const tools = [...toolsPart.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]);
  const carrier = text.includes("as a developer message") ? "developer" : text.includes("a system message") ? "system" : "instructions";
  return { instructions: block[2], tools, carrier };
}

/** What the request's bytes carry: the instruction text where it travels, and the tools' names in order. */
function readRequest(rawBody: string, carrier: Shown["carrier"]): { instructions: string | undefined; tools: string[] } {
  const body = JSON.parse(rawBody) as { instructions?: string; input?: Array<{ role?: string; content?: unknown }>; messages?: Array<{ role: string; content: unknown }>; tools?: Array<{ name?: string; function?: { name: string } }> };
  const tools = (body.tools ?? []).map((entry) => entry.name ?? entry.function?.name ?? "?");
  if (carrier === "system") return { instructions: body.messages?.[0]?.role === "system" ? String(body.messages[0].content) : undefined, tools };
  if (carrier === "developer") return { instructions: body.input?.[0]?.role === "developer" ? String(body.input[0].content) : undefined, tools };
  assert.equal(body.input?.some((item) => item.role === "developer"), false, "no developer message besides");
  return { instructions: body.instructions, tools };
}

const settled = (count: number) => (state: PanelState) => !state.busy && state.turns.length === count && state.turns[count - 1]?.outcome !== "in_progress";

describe("What the model is told = the next request (Node, relay emulator)", function () {
  this.timeout(60_000);
  let folder: string;
  let rules: RulesFolder;
  let harness: PanelHostHarness;
  let preview: RecordedPreview;

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-preview-"));
    await writeFile(path.join(folder, "AGENTS.md"), "Root rule for the preview test.");
    await mkdir(path.join(folder, ".github"), { recursive: true });
    await writeFile(path.join(folder, ".github/copilot-instructions.md"), "Copilot rule for the preview test.");
    rules = await readRulesFolder(folder, "app");
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  afterEach(async () => {
    await harness?.close();
  });

  async function start(options: PanelHostHarnessOptions & { trusted?: boolean; sources?: () => Partial<PanelInstructionSources> } = {}): Promise<void> {
    preview = new RecordedPreview();
    const trusted = options.trusted ?? true;
    const sources = options.sources ?? (() => ({}));
    harness = await startPanelHostHarness({
      tools: panelTools(trusted),
      ...options,
      settings: { model: "echo", ...options.settings },
      slash: { slashCommands: commands, instructions: panelAssembly(() => ({ rulesFolders: trusted ? [rules] : [], rulesAllowed: trusted, ...sources() })), instructionsPreview: preview },
    });
    harness.controller.handle({ type: "ready" });
    // The panel builds the tools once its first snapshot is on its way; from then on its state names them.
    await harness.waitFor(() => harness.controller.nextRequest.current().next.tools.length > 0 || options.settings?.modelSettings !== undefined, "the tools built");
  }

  /**
   * Opens the preview as the palette command does, sends `text`, and compares the preview with the first request
   * of that turn as the emulator received it. Returns the preview for more checks.
   */
  async function previewThenSend(text: string, turns: number, emulator = harness.emulator): Promise<{ shown: Shown; document: string; next: NextRequestView }> {
    await harness.controller.slash.showInstructions();
    const { text: document, next } = preview.shown.at(-1) ?? assert.fail("the preview was not shown");
    const shown = readPreview(document);
    const before = emulator.received.length;
    harness.controller.handle({ type: "send", text });
    await harness.waitFor(settled(turns), `turn ${turns}`);
    const request = emulator.received.slice(before).find((received) => received.method === "POST") ?? assert.fail("nothing was sent");
    const sent = readRequest(request.rawBody, shown.carrier);
    assert.equal(sent.instructions, shown.instructions, "the preview's text is the text sent, where the preview says it goes");
    assert.deepEqual(sent.tools, shown.tools, "the preview's tools are the request's tools, in order");
    assert.equal(shown.instructions, next.instructions?.text);
    return { shown, document, next };
  }

  it("1-2: in a fresh window (the tools named before any message) and after a send", async () => {
    await start();
    const state = harness.controller.state();
    const first = await previewThenSend("hello", 1);
    assert.deepEqual(first.shown.tools, ["read_file", "search_text", "propose_edit", "run_command", "get_weather", "update_tasks"]);
    assert.match(first.shown.instructions, /^Tools: read_file, search_text, propose_edit, run_command, get_weather, update_tasks\.$/m);
    assert.equal(state.rules?.instructionTokens, first.next.instructions?.tokens, "the Rules chip counts the instructions the preview shows");
    assert.match(first.document, new RegExp(`About ${first.next.tokens} tokens: ${first.next.instructions?.tokens} of instructions and ${first.next.toolTokens} of tool definitions`));
    await previewThenSend("and again", 2);
  });

  it("3: with a slash command typed, every way in shows its prompt and tools, and the chip counts it", async () => {
    await start();
    const plain = harness.controller.state().rules?.instructionTokens ?? 0;
    harness.controller.handle({ type: "draftCommand", text: "/weather city=Oslo" });
    // Its prompt is added and the tools it does not name are left out of the list in the base instruction.
    const typed = await harness.waitFor((state) => (state.rules?.instructionTokens ?? plain) !== plain, "the chip counting the prompt");
    // The book icon sends the draft; the palette command and the chip's link do not: all three show the same.
    await harness.controller.slash.showInstructions("/weather city=Oslo");
    const fromBook = preview.shown.at(-1)?.text;
    const { shown, next, document } = await previewThenSend("/weather city=Oslo", 1);
    assert.equal(document, fromBook, "the palette command shows what the book icon shows");
    assert.deepEqual(shown.tools, ["get_weather"]);
    assert.ok(shown.instructions.endsWith("Report the weather for Oslo."));
    assert.equal(typed.rules?.instructionTokens, next.instructions?.tokens);
  });

  it("3b: a message sent goes with its own command, never with the one the box held a moment before", async () => {
    await start();
    harness.controller.handle({ type: "draftCommand", text: "/weather city=Oslo" });
    await harness.waitFor(() => harness.controller.nextRequest.current().next.command !== null, "the draft's command");
    // Typed over and sent before the page said so: the host still holds the old draft.
    harness.controller.handle({ type: "send", text: "just hello" });
    await harness.waitFor(settled(1), "the answer");
    const body = JSON.parse(harness.emulator.received.find((request) => request.method === "POST")?.rawBody ?? "{}") as { instructions?: string; tools?: Array<{ name: string }> };
    assert.equal(body.instructions?.includes("Report the weather"), false);
    assert.equal(body.tools?.length, 6);
  });

  it("4: in Plan mode", async () => {
    await start();
    harness.controller.handle({ type: "setMode", mode: "plan" });
    await harness.waitFor((state) => state.mode === "plan", "Plan");
    const { shown } = await previewThenSend("What would you change?", 1);
    assert.deepEqual(shown.tools, ["read_file", "search_text", "get_weather", "update_tasks"]);
    assert.match(shown.instructions, /Plan mode: the person asked for a plan/);
  });

  it("5: for a model sent over Chat Completions (the instructions go as the system message)", async () => {
    await start({ emulator: { profile: "split" }, settings: { model: "qwen-chat", modelSettings: [{ model: "qwen-chat", protocol: "chat" }] } });
    const { shown, document } = await previewThenSend("hello", 1);
    assert.equal(shown.carrier, "system");
    assert.match(document, /over Chat Completions/);
    assert.equal(document.includes("the request's instructions field"), false);
    const posts = harness.emulator.received.filter((request) => request.method === "POST");
    assert.equal(posts[0]?.path, "/v1/chat/completions");
  });

  it("6: with a rules file switched off for the conversation", async () => {
    await start();
    await previewThenSend("hello", 1);
    harness.controller.handle({ type: "setRuleFile", id: "app/AGENTS.md", on: false });
    await harness.waitFor((state) => state.rules?.files[0]?.off === true, "the file off");
    const { shown, document } = await previewThenSend("again", 2);
    assert.equal(shown.instructions.includes("Root rule for the preview test."), false);
    assert.ok(shown.instructions.includes("Copilot rule for the preview test."));
    assert.match(document, /Switched off for this conversation \(not sent\): app\/AGENTS\.md/);
  });

  it("7: with a task list the model set and the person edited", async () => {
    await start({ settings: { model: "demo" } });
    harness.controller.handle({ type: "setMode", mode: "plan" });
    harness.controller.handle({ type: "send", text: "Make a plan for the retry change" });
    await harness.waitFor((state) => settled(1)(state) && (state.tasks?.length ?? 0) === 3, "the plan and its list");
    harness.controller.handle({ type: "editTask", action: "toggle", index: 0, text: "Read the files involved" });
    await harness.waitFor((state) => state.tasks?.[0]?.status === "done", "the tick");
    const { shown } = await previewThenSend("How does it look?", 2);
    assert.match(shown.instructions, /1\/3 done[\s\S]*- \[x\] Read the files involved/);
  });

  it("8: with the model's own settings (its instructions, and no tools for it)", async () => {
    await start({ settings: { modelSettings: [{ model: "echo", sendTools: false, instructions: "Model rule." }] }, sources: () => ({ modelInstructions: { model: "echo", text: "Model rule." } }) });
    const { shown } = await previewThenSend("hello", 1);
    assert.deepEqual(shown.tools, []);
    assert.match(shown.instructions, /^Tools: none are offered with this request\.$/m);
    assert.match(shown.instructions, /The person's instructions for this model:\nModel rule\./);
  });

  it("9: in an untrusted workspace (read-only tools, no rules files)", async () => {
    await start({ trusted: false });
    const { shown, document } = await previewThenSend("hello", 1);
    assert.deepEqual(shown.tools, ["read_file", "search_text", "get_weather", "update_tasks"]);
    assert.equal(shown.instructions.includes("Root rule"), false);
    assert.match(document, /This workspace is not trusted/);
  });

  it("an open preview follows the state before the panel's page listens (Plan mode, with the side bar never shown)", async () => {
    const followed: NextRequestView[] = [];
    harness = await startPanelHostHarness({
      tools: panelTools(true),
      settings: { model: "echo" },
      slash: { slashCommands: commands, instructions: panelAssembly(() => ({ rulesFolders: [rules], rulesAllowed: true })), instructionsPreview: { show: async () => undefined, changed: (next) => void followed.push(next()) } },
    });
    // No "ready": the page never asked for its state, so none is made for it.
    harness.controller.handle({ type: "setMode", mode: "plan" });
    // Polled without asking the controller for its state (that alone would make one).
    const inPlan = () => followed.some((next) => next.instructions?.text.includes("Plan mode: the person asked for a plan") === true);
    for (let waited = 0; !inPlan() && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(inPlan(), "the preview followed the state into Plan mode");
  });

  it("10: for a relay that drops the instructions field (they go as a developer message)", async () => {
    await start({ settings: { relays: [{ name: "emulator", instructionsAs: "developer" }] } });
    const { shown, document } = await previewThenSend("hello", 1);
    assert.equal(shown.carrier, "developer");
    assert.match(document, /developer message/);
  });
});

describe("What the model is told = the request: the CLI's --json sources", function () {
  this.timeout(60_000);
  const key = "sk-cli-preview-key-0123456789abcdef";

  it("lists exactly the parts its request carried (and a rules file linked from outside is neither)", async () => {
    const emulator = await startRelayEmulator({ keys: [{ key, name: "cli" }] });
    const folder = await mkdtemp(path.join(tmpdir(), "relay-cli-preview-"));
    const outside = await mkdtemp(path.join(tmpdir(), "relay-cli-outside-"));
    try {
      // The key the CLI holds is taken out of a rules file before it is sent.
      await writeFile(path.join(folder, "AGENTS.md"), `CLI root rule. The relay key is ${key}.`);
      await writeFile(path.join(outside, "CLAUDE.md"), "Outside rule: never sent.");
      await symlink(path.join(outside, "CLAUDE.md"), path.join(folder, "CLAUDE.md"));
      const run = await runCli(["ask", "--model", "echo", "--json", "--system", "Answer tersely.", "hi"], { RELAY_CHAT_API_KEY: key, RELAY_CHAT_BASE_URL: emulator.baseUrl }, "", folder);
      assert.equal(run.code, 0, run.stderr);
      const sources = (JSON.parse(run.stdout) as { instructionSources: string[] }).instructionSources;
      const sent = (JSON.parse(emulator.received.filter((request) => request.method === "POST").at(-1)?.rawBody ?? "{}") as { instructions?: string }).instructions ?? "";
      assert.deepEqual(sources, ["Relay Chat base instruction v2", "--system", "AGENTS.md"]);
      // Each source's part is in the bytes sent, and nothing else is: the rules files sent are the ones listed.
      assert.ok(sent.startsWith("You are a coding assistant in Relay Chat"));
      assert.ok(sent.includes("The person's own instructions:\nAnswer tersely."));
      assert.deepEqual([...sent.matchAll(/^## (.+)$/gm)].map((match) => match[1]), sources.slice(2));
      assert.equal(sent.includes("Outside rule"), false);
      assert.ok(sent.includes("The relay key is [REDACTED]."));
      assert.equal(sent.includes(key), false);
    } finally {
      await emulator.close();
      await rm(folder, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
