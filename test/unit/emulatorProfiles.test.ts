import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { RelayClient } from "../../src/relay/client";
import { startRelayEmulator } from "../emulator/server";
import type { EmulatorOptions, RelayEmulator } from "../emulator/server";

// The emulator's relay profiles on the wire (issue 10, §7): each one sends what that kind of relay sends,
// so the client suites that run against them meet the real thing.

const WEATHER_TOOL = { type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

async function withEmulator(options: EmulatorOptions, run: (emulator: RelayEmulator) => Promise<void>): Promise<void> {
  const emulator = await startRelayEmulator(options);
  try {
    await run(emulator);
  } finally {
    await emulator.close();
  }
}

function post(emulator: RelayEmulator, body: unknown, key: string = emulator.defaultKey): Promise<Response> {
  return fetch(`${emulator.baseUrl}/v1/responses`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
}

const user = (content: string) => ({ type: "message", role: "user", content });

/** Data payloads of an SSE body, comments and event lines set aside. */
function frames(text: string): { data: Array<Record<string, unknown>>; eventLines: number; comments: number } {
  const blocks = text.split("\n\n").filter((block) => block.trim() !== "");
  const lines = blocks.flatMap((block) => block.split("\n"));
  return {
    data: lines.filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
    eventLines: lines.filter((line) => line.startsWith("event: ")).length,
    comments: lines.filter((line) => line.startsWith(":")).length,
  };
}

describe("relay emulator profiles", () => {
  it("openai: rejects a function_call without its output, and resent reasoning without encrypted_content under store:false", async () => {
    await withEmulator({}, async (emulator) => {
      const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "{}" };
      const missing = await post(emulator, { model: "echo", input: [user("hi"), call], store: false });
      assert.equal(missing.status, 400);
      assert.match(((await missing.json()) as { error: { message: string } }).error.message, /^No tool output found for function call call_1\./);
      const answered = await post(emulator, { model: "echo", input: [user("hi"), call, { type: "function_call_output", call_id: "call_1", output: "x" }], store: false });
      assert.equal(answered.status, 200);
      const reasoning = await post(emulator, { model: "echo", input: [user("hi"), { type: "reasoning", id: "rs_1", summary: [] }], store: false });
      assert.equal(reasoning.status, 400);
    });
  });

  it("minimal: no item or part events, no sequence numbers, no event lines, PING comments, typeless error frames", async () => {
    await withEmulator({ profile: "minimal" }, async (emulator) => {
      const body = await (await post(emulator, { model: "echo", input: [user("hello minimal")], stream: true })).text();
      const parsed = frames(body);
      assert.equal(parsed.eventLines, 0);
      assert.ok(parsed.comments >= 2, "keep-alive comments");
      assert.ok(parsed.data.every((event) => !("sequence_number" in event)));
      assert.deepEqual(parsed.data.filter((event) => /output_item|content_part/.test(String(event.type))), []);
      assert.ok(parsed.data.some((event) => event.type === "response.output_text.delta"));
      emulator.queueFault({ kind: "error_event", code: "server_error", message: "broke" });
      const failing = frames(await (await post(emulator, { model: "echo", input: [user("hello minimal")], stream: true })).text());
      assert.deepEqual(failing.data[failing.data.length - 1], { error: { code: "server_error", message: "broke", type: "server_error" } });
    });
  });

  it("new-api: X-Oneapi-Request-Id, Chinese error messages with empty codes, a model list with success and endpoint types, and a 200 success:false failure", async () => {
    await withEmulator({ profile: "new-api", keys: [{ key: "sk-newapi-0123456789", name: "k", models: ["echo"] }] }, async (emulator) => {
      const ok = await post(emulator, { model: "echo", input: [user("hi")] });
      assert.match(String(ok.headers.get("x-oneapi-request-id")), /^req_/);
      const wrongKey = await post(emulator, { model: "echo", input: [user("hi")] }, "sk-wrong-0123456789");
      assert.equal(wrongKey.status, 401);
      const keyError = ((await wrongKey.json()) as { error: { message: string; code: string; type: string } }).error;
      assert.deepEqual([keyError.code, keyError.type], ["", "new_api_error"]);
      assert.match(keyError.message, /^无效的令牌 \(request id: req_/);
      const notAllowed = await post(emulator, { model: "tools", input: [user("hi")] });
      assert.equal(notAllowed.status, 403);
      assert.match(((await notAllowed.json()) as { error: { message: string } }).error.message, /该令牌无权使用模型：tools/);
      const unknownModel = await post(emulator, { model: "nope", input: [user("hi")] });
      assert.equal(unknownModel.status, 503);
      assert.equal(((await unknownModel.json()) as { error: { code: string } }).error.code, "model_not_found");

      const list = (await (await fetch(`${emulator.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${emulator.defaultKey}` } })).json()) as { success: boolean; data: Array<{ id: string; supported_endpoint_types: string[] }> };
      assert.equal(list.success, true);
      assert.deepEqual(list.data.map((model) => model.id), ["echo"]);
      assert.deepEqual(list.data[0].supported_endpoint_types, ["openai"], "as new-api lists a default channel's model, whose /v1/responses works");

      const client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey });
      assert.equal((await client.listModels()).ok, true, "the client reads new-api's list");
      emulator.failNextModelList("获取模型列表失败");
      const refused = await client.listModels();
      await client.close();
      assert.equal(refused.ok, false, "HTTP 200 with success:false is a failure, not an empty list");
      assert.match(!refused.ok ? refused.explanation : "", /refused the model list \(HTTP 200 with "success": false\): 获取模型列表失败/);
    });
  });

  it("translated: shaped like the gateway captures (zero usage, items at index 0, call deltas under the message id, calls left out of the final output)", async () => {
    await withEmulator({ profile: "translated" }, async (emulator) => {
      const events = frames(await (await post(emulator, { model: "tools", input: [user("weather?")], tools: [WEATHER_TOOL], stream: true })).text()).data;
      const added = events.filter((event) => event.type === "response.output_item.added");
      assert.deepEqual(added.map((event) => [event.output_index, (event.item as { type: string }).type]), [[0, "message"], [0, "function_call"]]);
      const messageId = (added[0].item as { id: string }).id;
      const argumentDeltas = events.filter((event) => event.type === "response.function_call_arguments.delta");
      assert.ok(argumentDeltas.length > 0 && argumentDeltas.every((event) => event.item_id === messageId));
      assert.equal(events.some((event) => event.type === "response.function_call_arguments.done"), false);
      const completed = events[events.length - 1].response as { output: Array<{ type: string }>; usage: { total_tokens: number } };
      assert.deepEqual(completed.output.map((item) => item.type), ["message"]);
      assert.equal(completed.usage.total_tokens, 0);
      assert.ok(events.every((event) => !(event.response as { usage?: { total_tokens: number } } | undefined)?.usage?.total_tokens));
    });
  });

  it("any model calls a tool when tool_choice is required; the garble fault breaks only streamed calls", async () => {
    await withEmulator({}, async (emulator) => {
      const forced = (await (await post(emulator, { model: "echo", input: [user("hi")], tools: [WEATHER_TOOL], tool_choice: "required" })).json()) as { output: Array<{ type: string; arguments: string }> };
      assert.deepEqual(forced.output.map((item) => item.type), ["function_call"]);
      emulator.queueFault({ kind: "garble_streamed_calls" });
      const garbled = frames(await (await post(emulator, { model: "tools", input: [user("hi")], tools: [WEATHER_TOOL], stream: true })).text()).data;
      const finalCall = (garbled[garbled.length - 1].response as { output: Array<{ arguments: string }> }).output[0];
      assert.equal(finalCall.arguments, "");
      assert.equal(garbled.some((event) => event.type === "response.function_call_arguments.delta"), false);
    });
  });

  it("a proxy in front adds its own x-request-id beside the relay's", async () => {
    await withEmulator({ proxyRequestId: true }, async (emulator) => {
      const response = await post(emulator, { model: "echo", input: [user("hi")] });
      assert.match(String(response.headers.get("x-service-request-id")), /^req_/);
      assert.match(String(response.headers.get("x-request-id")), /^proxy_/);
    });
  });

  it("the emulator process takes --profile (as the demo passes it) and refuses an unknown one", async () => {
    const main = path.resolve(__dirname, "../emulator/main.ts");
    const child = spawn(process.execPath, ["--require", "tsx/cjs", main, "--profile", "minimal"], { cwd: path.resolve(__dirname, "../..") });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
      const started = JSON.parse(line) as { baseUrl: string; key: string; profile: string };
      assert.equal(started.profile, "minimal");
      const body = await (await fetch(`${started.baseUrl}/v1/responses`, { method: "POST", headers: { authorization: `Bearer ${started.key}`, "content-type": "application/json" }, body: JSON.stringify({ model: "echo", input: [user("x")], stream: true }) })).text();
      assert.equal(frames(body).eventLines, 0);
    } finally {
      child.kill("SIGTERM");
    }
    const refused = spawn(process.execPath, ["--require", "tsx/cjs", main, "--profile", "nonsense"], { cwd: path.resolve(__dirname, "../..") });
    let stderr = "";
    refused.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => refused.once("exit", resolve));
    assert.equal(code, 1);
    assert.match(stderr, /--profile must be one of openai, minimal, new-api, translated/);
  });
});
