// The pure rules behind the relay's models in VS Code's chat (src/lm): tool names a relay accepts, VS
// Code's messages as Responses input (checked against the Open Responses schema, as the emulator checks
// every request), the per-model limits, and what the check-up found about function calling.
import assert from "node:assert/strict";
import { modelOverridesFrom, limitsFor, DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS } from "../../src/lm/modelLimits";
import type { ChatMessage } from "../../src/lm/responsesInput";
import { functionToolsFrom, imageTypeOf, parseCallArguments, responsesInputFrom, skippedPartsOf, toolNamesToSend } from "../../src/lm/responsesInput";
import { isValidRelayToolName, relayToolNames } from "../../src/lm/toolNames";
import { ToolSupportFindings } from "../../src/lm/toolSupportFindings";
import { buildResponseRequest } from "../../src/relay/requestBuilder";
import { validateResponseRequest } from "../support/openResponsesSchema";

describe("lm: tool names for the relay", () => {
  it("keeps valid names and cleans the others into unique valid ones", () => {
    const names = ["read_file", "mcp.github/search issues", "mcp_github_search_issues", "é", "x".repeat(80), "x".repeat(80) + "y"];
    const table = relayToolNames(names, new Set(["read_file"]));
    const relayNames = names.map((name) => table.relayNameOf.get(name)!);
    for (const relayName of relayNames) assert.ok(isValidRelayToolName(relayName), relayName);
    assert.equal(new Set(relayNames).size, names.length, `unique: ${relayNames.join(", ")}`);
    assert.notEqual(table.relayNameOf.get("read_file"), "read_file", "a reserved (built-in) name is not reused");
    assert.equal(table.relayNameOf.get("mcp_github_search_issues"), "mcp_github_search_issues", "a valid free name keeps its spelling");
    assert.equal(table.relayNameOf.get("mcp.github/search issues"), "mcp_github_search_issues_2");
    for (const name of names) assert.equal(table.originalNameOf.get(table.relayNameOf.get(name)!), name, "maps back");
  });

  it("maps the same list the same way every time", () => {
    const names = ["a.b", "a_b", "a b"];
    assert.deepEqual([...relayToolNames(names).relayNameOf], [...relayToolNames(names).relayNameOf]);
  });
});

describe("lm: VS Code's messages as Responses input", () => {
  const conversation: ChatMessage[] = [
    { role: "system", parts: [{ kind: "text", text: "Be brief." }] },
    { role: "user", parts: [{ kind: "text", text: "Weather in " }, { kind: "text", text: "Paris?" }, { kind: "skipped", what: "image/png" }] },
    { role: "assistant", parts: [{ kind: "text", text: "Let me look." }, { kind: "tool_call", callId: "call_1", name: "weather.lookup", input: { city: "Paris" } }] },
    { role: "user", parts: [{ kind: "text", text: "thanks" }, { kind: "tool_result", callId: "call_1", text: "sunny" }] },
  ];
  const relayName = (name: string) => name.replace(/\./g, "_");

  it("keeps the order the relay needs: each function_call_output right after the history holding its call", () => {
    assert.deepEqual(responsesInputFrom(conversation, relayName), [
      { type: "message", role: "system", content: "Be brief." },
      { type: "message", role: "user", content: "Weather in Paris?" },
      { type: "message", role: "assistant", content: "Let me look." },
      { type: "function_call", call_id: "call_1", name: "weather_lookup", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "call_1", output: "sunny" },
      { type: "message", role: "user", content: "thanks" },
    ]);
    assert.deepEqual(skippedPartsOf(conversation), ["1 × image/png"]);
  });

  it("sends a user message's images as input_image data URLs after its text, in a request the schema accepts", () => {
    const messages: ChatMessage[] = [
      { role: "user", parts: [{ kind: "text", text: "What is on " }, { kind: "image", mediaType: "image/png", base64: "iVBORw0KGgo=" }, { kind: "text", text: "this screen?" }] },
      { role: "user", parts: [{ kind: "image", mediaType: "image/jpeg", base64: "/9j/4AAQ" }] },
    ];
    const input = responsesInputFrom(messages, relayName);
    assert.deepEqual(input, [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What is on this screen?" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
        ],
      },
      { type: "message", role: "user", content: [{ type: "input_image", image_url: "data:image/jpeg;base64,/9j/4AAQ" }] },
    ]);
    assert.deepEqual(skippedPartsOf(messages), [], "nothing left out");
    const verdict = validateResponseRequest(buildResponseRequest({ model: "m", input, stream: true }), { requireMessageType: true });
    assert.equal(verdict.valid, true, verdict.valid ? "" : verdict.errors);
  });

  it("takes PNG, JPEG, WebP and GIF data parts as images, and no other type", () => {
    assert.deepEqual(["image/png", "IMAGE/JPEG", "image/jpg", "image/webp", "image/gif"].map(imageTypeOf), ["image/png", "image/jpeg", "image/jpeg", "image/webp", "image/gif"]);
    assert.deepEqual(["image/svg+xml", "image/tiff", "application/json", "text/plain"].map(imageTypeOf), [null, null, null, null]);
  });

  it("builds a request the Open Responses schema accepts, with flat function tools and store:false", () => {
    const tools = functionToolsFrom(
      [
        { name: "weather.lookup", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
        { name: "no_schema", description: "Takes nothing" },
      ],
      relayName,
    );
    assert.deepEqual(tools[1].parameters, { type: "object", properties: {} }, "a tool without a schema takes an empty object");
    const request = buildResponseRequest({ model: "m", input: responsesInputFrom(conversation, relayName), tools, stream: true });
    assert.equal(request.store, false);
    assert.deepEqual(request.tools?.map((tool) => [tool.type, tool.name]), [["function", "weather_lookup"], ["function", "no_schema"]]);
    const verdict = validateResponseRequest(request, { requireMessageType: true });
    assert.equal(verdict.valid, true, verdict.valid ? "" : verdict.errors);
  });

  it("sends a history call to a tool no longer offered under the same valid name it had while offered", () => {
    const tool = { name: "github.get issue", description: "Reads an issue" };
    const history: ChatMessage[] = [
      { role: "user", parts: [{ kind: "text", text: "issue 7?" }] },
      { role: "assistant", parts: [{ kind: "tool_call", callId: "call_7", name: "github.get issue", input: { number: 7 } }] },
      { role: "user", parts: [{ kind: "tool_result", callId: "call_7", text: "open" }] },
    ];
    const sentName = (offered: { name: string; description: string }[]) => {
      const table = relayToolNames(toolNamesToSend(history, offered));
      const relayName = (name: string) => table.relayNameOf.get(name) ?? name;
      const call = responsesInputFrom(history, relayName).find((item) => item.type === "function_call");
      return call && "name" in call ? call.name : null;
    };
    assert.equal(sentName([tool]), "github_get_issue");
    assert.equal(sentName([]), "github_get_issue", "not the raw name, which a relay refuses");
    assert.deepEqual(toolNamesToSend(history, [tool, { name: "other", description: "" }]), ["github.get issue", "other"]);
  });

  it("reads a completed call's arguments as an object, and refuses anything else with the reason", () => {
    assert.deepEqual(parseCallArguments('{"city":"Paris"}'), { ok: true, input: { city: "Paris" } });
    assert.deepEqual(parseCallArguments(""), { ok: true, input: {} });
    assert.match((parseCallArguments('{"city":') as { problem: string }).problem, /not valid JSON/);
    assert.match((parseCallArguments("[1]") as { problem: string }).problem, /an array/);
  });
});

describe("lm: model limits", () => {
  it("uses the documented defaults, then '*', then the model's own entry", () => {
    const none = limitsFor("m", modelOverridesFrom({}), false);
    assert.deepEqual(none, { maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, toolCalling: true, imageInput: false, source: "default" });
    const overrides = modelOverridesFrom({ "*": { maxInputTokens: 32_000, toolCalling: false }, m: { maxOutputTokens: 4096, toolCalling: true } });
    assert.deepEqual(limitsFor("m", overrides, false), { maxInputTokens: 32_000, maxOutputTokens: 4096, toolCalling: true, imageInput: false, source: "setting" });
    assert.equal(limitsFor("other", overrides, false).toolCalling, false);
  });

  it("turns tool calling off for a model the check-up found without tools, unless the setting says otherwise", () => {
    assert.equal(limitsFor("m", modelOverridesFrom({}), true).toolCalling, false);
    assert.equal(limitsFor("m", modelOverridesFrom({ m: { toolCalling: true } }), true).toolCalling, true);
  });

  it("declares image input only for models the setting marks as reading images (relays do not say)", () => {
    const overrides = modelOverridesFrom({ "*": { imageInput: true }, "text-only": { imageInput: false }, vision: { imageInput: true } });
    assert.equal(limitsFor("vision", overrides, false).imageInput, true);
    assert.equal(limitsFor("other", overrides, false).imageInput, true, "'*' marks every model");
    assert.equal(limitsFor("text-only", overrides, false).imageInput, false, "the model's own entry wins");
    assert.equal(limitsFor("vision", modelOverridesFrom({ vision: { imageInput: "yes" } }), false).imageInput, false, "a non-boolean is ignored");
  });

  it("ignores malformed entries in a hand-edited setting", () => {
    const overrides = modelOverridesFrom({ m: { maxInputTokens: -5, maxOutputTokens: "big", toolCalling: "yes" }, n: 7 });
    assert.deepEqual(limitsFor("m", overrides, false).maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
    assert.equal(overrides.has("n"), false);
    assert.equal(modelOverridesFrom(["not", "an", "object"]).size, 0);
  });
});

describe("lm: what the check-up found about function calling", () => {
  // VS Code's Memento, as globalState provides it: a key-value store that survives restarts.
  function memento(): { get<T>(key: string): T | undefined; update(key: string, value: unknown): Promise<void>; keys(): readonly string[] } {
    const values = new Map<string, unknown>();
    return {
      get: <T>(key: string) => values.get(key) as T | undefined,
      update: async (key, value) => void values.set(key, value),
      keys: () => [...values.keys()],
    };
  }

  it("records a model without tools from a check-up that probed a function call, per relay, and tells VS Code", async () => {
    let changes = 0;
    const findings = new ToolSupportFindings(memento() as never, () => (changes += 1));
    await findings.recordFromCheck("https://relay.example", "m", [{ name: "Streamed request", status: "ok", detail: "" }]);
    assert.equal(findings.knownWithoutTools("https://relay.example", "m"), false, "a check-up without a function-call step proves nothing");
    assert.equal(changes, 0);
    await findings.recordFromCheck("https://relay.example", "m", [
      { name: "Function call (streamed)", status: "failed", detail: "" },
      { name: "Function call (not streamed)", status: "failed", detail: "" },
    ]);
    assert.equal(findings.knownWithoutTools("https://relay.example", "m"), true);
    assert.equal(findings.knownWithoutTools("https://other.example", "m"), false, "another relay may route the model elsewhere");
    assert.equal(changes, 1);
    await findings.recordFromCheck("https://relay.example", "m", [
      { name: "Function call (streamed)", status: "failed", detail: "" },
      { name: "Function call (not streamed)", status: "ok", detail: "" },
    ]);
    assert.equal(findings.knownWithoutTools("https://relay.example", "m"), false, "a call that arrived in either mode means tools work");
    assert.equal(changes, 2);
    await findings.recordFromCheck("https://relay.example", "n", [
      { name: "Function call, streamed", status: "failed", detail: "HTTP 503" },
      { name: "Function call, not streamed", status: "skipped", detail: "" },
    ]);
    assert.equal(findings.knownWithoutTools("https://relay.example", "n"), false, "a relay failure says nothing about the model's tools");
  });
});
