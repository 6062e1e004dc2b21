import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { toolsForModel } from "../../src/chat/modelRequestOptions";
import { readMaxOutputTokens, readTemperature } from "../../src/chat/modelSettingsInput";
import { requestSentFor } from "../../src/chat/requestSent";
import { assembleInstructions } from "../../src/instructions/assembleInstructions";
import { BASE_INSTRUCTION_VERSION } from "../../src/instructions/baseInstruction";
import { sessionSettings } from "../../src/panel/relays/sessionSettings";
import type { RelayAccess } from "../../src/panel/panelServices";
import { buildResponseRequest, userMessage } from "../../src/relay/requestBuilder";
import { receiptOf } from "../../src/panel/turns/turnView";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { finishedTurn, startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";
import { startRelayEmulator } from "../emulator/server";

// A model's own settings (relayChat.modelSettings) change what the panel and the CLI send: reasoning effort,
// temperature, the output cap (over relayChat.maxOutputTokens), no tools when it is set to get none, and its
// instructions after the person's and the relay's. The emulator, over loopback, records each body; the turn
// keeps what was sent, for its receipt and for Copy as curl.

const environment = { os: "Linux", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "en", tools: [] };

describe("Model settings: request bodies", () => {
  it("puts reasoning effort and temperature in the body, and nothing of either when unset", () => {
    const base = { model: "m", input: [userMessage("hi")], stream: true };
    assert.deepEqual(buildResponseRequest({ ...base, reasoningEffort: "low", temperature: 0.2 }).reasoning, { effort: "low" });
    assert.equal(buildResponseRequest({ ...base, reasoningEffort: "low", temperature: 0.2 }).temperature, 0.2);
    assert.equal(buildResponseRequest({ ...base, temperature: 0 }).temperature, 0, "a temperature of 0 is sent");
    const plain = buildResponseRequest(base);
    assert.equal("temperature" in plain || "reasoning" in plain, false);
  });

  it("sends the instructions as a developer message first in the input when the relay drops the field", () => {
    const body = buildResponseRequest({ model: "m", instructions: "Be brief.", instructionsAs: "developer", input: [userMessage("hi")], stream: false });
    assert.equal(body.instructions, undefined);
    assert.deepEqual(body.input[0], { type: "message", role: "developer", content: "Be brief." });
    assert.equal(body.input.length, 2);
    assert.equal(buildResponseRequest({ model: "m", instructions: "Be brief.", input: [], stream: false }).instructions, "Be brief.");
  });

  it("offers no tools to a model set to get none, and leaves them alone otherwise", () => {
    const tools = [{ type: "function" as const, name: "read_file", description: "", parameters: {}, strict: false }];
    assert.equal(toolsForModel(tools, { sendTools: false }), undefined);
    assert.equal(toolsForModel(tools, { sendTools: true }), tools);
    assert.equal(toolsForModel(tools, undefined), tools);
  });

  it("puts the relay's and the model's instructions after the person's and before the project rules, each a source", () => {
    const assembled = assembleInstructions({
      environment,
      personInstructions: "Person rule.",
      relayInstructions: { relay: "Cheap relay", text: "Relay rule." },
      modelInstructions: { model: "gpt-5", text: "Model rule." },
      rules: [{ kind: "agentsMd", folder: "app", path: "AGENTS.md", text: "Project rule." }],
    });
    assert.deepEqual(
      assembled.parts.map((part) => part.source),
      [`Relay Chat base instruction v${BASE_INSTRUCTION_VERSION}`, "relayChat.instructions", "relayChat.relays: Cheap relay", "relayChat.modelSettings: gpt-5", "AGENTS.md"],
    );
    const text = assembled.text;
    assert.ok(text.indexOf("Person rule.") < text.indexOf("Relay rule.") && text.indexOf("Relay rule.") < text.indexOf("Model rule.") && text.indexOf("Model rule.") < text.indexOf("Project rule."));
    assert.ok(text.includes("Project rules (from files in the workspace):"), "the rules keep their heading after the person's parts");
    assert.ok(assembled.parts.every((part) => part.tokens > 0), "each part is counted");
  });

  it("takes the model's cap over relayChat.maxOutputTokens, and the relay's own entry over the one for every relay", () => {
    const relay = (entries: unknown[]): RelayAccess =>
      ({
        activeRelay: "Cheap relay",
        settings: { baseUrl: "x", model: "gpt-5", stream: true, maxOutputTokens: 1000, toolRoundCap: 3, historyWarningTokens: 0, modelSettings: entries, relays: [{ name: "Cheap relay", instructionsAs: "developer" }] },
      }) as unknown as RelayAccess;
    const settings = sessionSettings({ model: "gpt-5", relay: relay([{ model: "gpt-5", maxOutputTokens: 4000, temperature: 1 }, { relay: "cheap RELAY", model: "gpt-5", temperature: 0.2 }]) });
    assert.equal(settings.maxOutputTokens, 4000);
    assert.deepEqual(settings.modelSettings, { maxOutputTokens: 4000, temperature: 0.2 });
    assert.equal(settings.instructionsAs, "developer");
    const other = sessionSettings({ model: "gpt-4o", relay: relay([{ model: "gpt-5", maxOutputTokens: 4000 }]) });
    assert.equal(other.maxOutputTokens, 1000);
    assert.equal(other.modelSettings, undefined);
  });
});

describe("Model settings…: what the person types", () => {
  it("reads a temperature from 0 to 2 and a whole output cap; empty removes the field; anything else says what fits", () => {
    assert.deepEqual(readTemperature(" 0.2 "), { ok: true, value: 0.2 });
    assert.deepEqual(readTemperature(""), { ok: true, value: undefined });
    assert.equal(readTemperature("2.5").ok, false);
    assert.equal(readTemperature("warm").ok, false);
    assert.deepEqual(readMaxOutputTokens("4,000"), { ok: true, value: 4000 });
    assert.deepEqual(readMaxOutputTokens(" "), { ok: true, value: undefined });
    const bad = readMaxOutputTokens("1.5");
    assert.ok(!bad.ok && /whole number above 0/.test(bad.problem));
  });
});

describe("Model settings: what the emulator receives from a chat session", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("sends effort, temperature, the model's cap and no tools, keeps them with the turn and shows them on the receipt", async () => {
    const session = harness.newSession({
      settings: { model: "reasoning", maxOutputTokens: 4000, modelSettings: { reasoningEffort: "low", temperature: 0.2, maxOutputTokens: 4000, sendTools: false } },
      tools: weatherTools("approve"),
    });
    const turn = finishedTurn(await session.send("hello"));
    const [body] = harness.postedBodies();
    assert.deepEqual(body.reasoning, { effort: "low" });
    assert.equal(body.temperature, 0.2);
    assert.equal(body.max_output_tokens, 4000);
    assert.equal(body.tools, undefined, "no tools were offered");
    assert.deepEqual(turn.requests[0].modelSettings, { reasoningEffort: "low", temperature: 0.2, maxOutputTokens: 4000, noTools: true });
    assert.deepEqual(receiptOf(turn.requests[0]).sentWith, { reasoningEffort: "low", temperature: 0.2, maxOutputTokens: 4000, noTools: true });
    const again = requestSentFor(session.conversation, turn.id, 0);
    assert.deepEqual(again?.body, body, "Copy as curl repeats the request with its settings");
  });

  it("offers tools and sends neither effort nor temperature without model settings", async () => {
    const session = harness.newSession({ settings: { model: "echo" }, tools: weatherTools("approve") });
    const turn = finishedTurn(await session.send("hello"));
    const [body] = harness.postedBodies();
    assert.ok(Array.isArray(body.tools) && body.tools.length > 0);
    assert.equal("reasoning" in body || "temperature" in body, false);
    assert.equal(turn.requests[0].modelSettings, undefined);
    assert.equal(receiptOf(turn.requests[0]).sentWith, null);
  });

  it("sends the instructions as a developer message to a relay that drops the field, never into the history", async () => {
    const instructions = { text: "Answer tersely.", tokens: 4, sources: ["relayChat.instructions"], hash: "h" };
    const session = harness.newSession({ settings: { model: "echo", instructions, instructionsAs: "developer" } });
    const first = finishedTurn(await session.send("one"));
    finishedTurn(await session.send("two"));
    const [firstBody, secondBody] = harness.postedBodies();
    assert.equal(firstBody.instructions, undefined);
    assert.deepEqual((firstBody.input as unknown[])[0], { type: "message", role: "developer", content: "Answer tersely." });
    assert.equal((secondBody.input as Array<{ role?: string }>).filter((item) => item.role === "developer").length, 1, "one developer message, first, per request");
    assert.equal(first.requests[0].instructionsAs, "developer");
    // Copy as curl repeats them as sent: the developer message first.
    assert.deepEqual(requestSentFor(session.conversation, first.id, 0)?.body, firstBody);
  });
});

describe("Model settings: relay-chat ask", function () {
  this.timeout(60_000);
  const key = "sk-cli-model-settings-0123456789abcdef";
  const cliEntry = path.resolve(__dirname, "../../src/cli/main.ts");
  const run = (cwd: string, args: string[], baseUrl: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), cliEntry, ...args], { cwd, env: { PATH: process.env.PATH, RELAY_CHAT_API_KEY: key, RELAY_CHAT_BASE_URL: baseUrl } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  it("applies --model-settings (the model's entries for every relay and --relay), with --temperature over the file's", async () => {
    const emulator = await startRelayEmulator({ keys: [{ key, name: "cli" }] });
    const folder = await mkdtemp(path.join(tmpdir(), "relay-cli-model-settings-"));
    try {
      const file = path.join(folder, "settings.json");
      await writeFile(
        file,
        JSON.stringify({
          "relayChat.modelSettings": [
            { model: "reasoning", reasoningEffort: "high", temperature: 1, maxOutputTokens: 3000, instructions: "Model rule from the file." },
            { relay: "Cheap", model: "reasoning", reasoningEffort: "low" },
            { model: "echo", temperature: 2 },
          ],
        }),
      );
      const result = await run(folder, ["ask", "--model", "reasoning", "--json", "--no-rules", "--model-settings", file, "--relay", "cheap", "--temperature", "0.3", "--instructions-as", "developer", "hi"], emulator.baseUrl);
      assert.equal(result.code, 0, result.stderr);
      const body = emulator.received.filter((request) => request.method === "POST").at(-1)?.body as Record<string, unknown>;
      assert.deepEqual(body.reasoning, { effort: "low" });
      assert.equal(body.temperature, 0.3);
      assert.equal(body.max_output_tokens, 3000);
      assert.equal(body.instructions, undefined);
      const developer = (body.input as Array<{ role?: string; content?: string }>)[0];
      assert.equal(developer.role, "developer");
      assert.ok(developer.content?.includes("Model rule from the file."));
      const json = JSON.parse(result.stdout) as { instructionSources: string[]; sentWith: unknown };
      assert.deepEqual(json.instructionSources, [`Relay Chat base instruction v${BASE_INSTRUCTION_VERSION}`, "relayChat.modelSettings: reasoning"]);
      assert.deepEqual(json.sentWith, { reasoningEffort: "low", temperature: 0.3, maxOutputTokens: 3000 });

      const bad = await run(folder, ["ask", "--model", "echo", "--temperature", "3", "hi"], emulator.baseUrl);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--temperature takes a number from 0 to 2/);
      assert.equal(emulator.received.filter((request) => request.method === "POST").length, 1, "nothing was sent for the bad flag");
    } finally {
      await emulator.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
